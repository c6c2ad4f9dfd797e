/**
 * The edit drawer's sign-in security: resetting a user's two-factor sign-in (which also ends their
 * sessions) or their passkeys, for someone who lost their device. Offered on users of a lower role
 * only, as the server allows; each asks for confirmation first.
 */
import { useState } from 'react';
import { Confirm, useNotify, useRecordContext, useTranslate } from 'react-admin';
import { useMutation } from '@tanstack/react-query';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useGateway } from '../../api/customMethods';
import { useRole } from '../schema';
import type { UserRecord } from './types';

type Reset = 'twofa' | 'passkeys';

export function UserSecurityInput() {
  const record = useRecordContext<UserRecord>();
  const role = useRole();
  const translate = useTranslate();
  const notify = useNotify();
  const gateway = useGateway();
  const [confirming, setConfirming] = useState<Reset | null>(null);
  const reset = useMutation({
    mutationFn: (what: Reset) =>
      what === 'twofa' ? gateway.resetUserTwoFa(Number(record?.id)) : gateway.resetUserPasskeys(Number(record?.id)),
    onSuccess: (_, what) => notify(`security.admin.${what}_done`, { type: 'success' }),
    onError: (err) => notify(err instanceof Error ? err.message : 'app.error.request_failed', { type: 'error' }),
  });
  if (!record) return null;
  const allowed = record.role < role && !record.DeletedAt;
  const name = record.username;

  return (
    <Stack spacing={1} sx={{ my: 1 }} role="group" aria-label={translate('security.admin.section')}>
      <Typography variant="subtitle2">{translate('security.admin.section')}</Typography>
      {allowed ? (
        <Stack direction="row" spacing={1}>
          <Button size="small" variant="outlined" disabled={reset.isPending} onClick={() => setConfirming('twofa')}>
            {translate('security.admin.reset_twofa')}
          </Button>
          <Button size="small" variant="outlined" disabled={reset.isPending} onClick={() => setConfirming('passkeys')}>
            {translate('security.admin.reset_passkeys')}
          </Button>
        </Stack>
      ) : (
        <Typography variant="body2" color="text.secondary">
          {translate('security.admin.not_allowed')}
        </Typography>
      )}
      <Confirm
        isOpen={confirming !== null}
        title={confirming === 'passkeys' ? 'security.admin.reset_passkeys' : 'security.admin.reset_twofa'}
        content={translate(confirming === 'passkeys' ? 'security.admin.confirm_passkeys' : 'security.admin.confirm_twofa', {
          name,
        })}
        onConfirm={() => {
          if (confirming) reset.mutate(confirming);
          setConfirming(null);
        }}
        onClose={() => setConfirming(null)}
      />
    </Stack>
  );
}
