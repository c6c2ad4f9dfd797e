/** Two-factor sign-in on the personal page: its state, turning it on or off, new backup codes. */
import { useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { useMutation } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useGateway } from '../../../api/customMethods';
import { errorMessage } from '../../shared/errors';
import { BackupCodesList } from './BackupCodesList';
import { CodeDialog } from './CodeDialog';
import { useRefreshSecurity, useTwoFaStatus } from './queries';
import { TwoFaSetupDialog } from './TwoFaSetupDialog';

const T = 'security.personal.twofa.';
const D = 'security.personal.code_dialog.';

export function TwoFactorSection() {
  const translate = useTranslate();
  const notify = useNotify();
  const gateway = useGateway();
  const refresh = useRefreshSecurity();
  const status = useTwoFaStatus();
  const [dialog, setDialog] = useState<'setup' | 'disable' | 'regenerate' | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const failed = (err: unknown) => notify(errorMessage(err), { type: 'error' });
  const disable = useMutation({
    mutationFn: (code: string) => gateway.twoFaDisable(code),
    onSuccess: () => {
      notify(`${T}disabled`, { type: 'success' });
      setDialog(null);
      refresh();
    },
    onError: failed,
  });
  const regenerate = useMutation({
    mutationFn: (code: string) => gateway.regenerateBackupCodes(code),
    onSuccess: (answer) => {
      setDialog(null);
      setCodes(answer.backup_codes);
      refresh();
    },
    onError: failed,
  });

  const state = status.data;
  return (
    <Stack spacing={1} role="group" aria-label={translate(`${T}title`)}>
      <Typography sx={{ fontWeight: 500 }}>{translate(`${T}title`)}</Typography>
      {state && (
        <Typography variant="body2" color="text.secondary">
          {translate(state.enabled ? `${T}on` : `${T}off`)}
          {state.enabled && ` · ${translate(`${T}backup_remaining`, { count: state.backup_codes_remaining })}`}
        </Typography>
      )}
      {state?.locked && <Alert severity="warning">{translate(`${T}locked`)}</Alert>}
      {state && (
        <Stack direction="row" spacing={1}>
          {state.enabled ? (
            <>
              <Button size="small" variant="outlined" onClick={() => setDialog('regenerate')}>
                {translate(`${T}regenerate`)}
              </Button>
              <Button size="small" color="error" variant="outlined" onClick={() => setDialog('disable')}>
                {translate(`${T}disable`)}
              </Button>
            </>
          ) : (
            <Button size="small" variant="contained" onClick={() => setDialog('setup')}>
              {translate(`${T}enable`)}
            </Button>
          )}
        </Stack>
      )}
      <TwoFaSetupDialog open={dialog === 'setup'} onClose={() => setDialog(null)} />
      <CodeDialog
        open={dialog === 'disable'}
        title={`${D}disable_title`}
        hint={`${D}disable_hint`}
        busy={disable.isPending}
        onClose={() => setDialog(null)}
        onSubmit={(code) => disable.mutate(code)}
      />
      <CodeDialog
        open={dialog === 'regenerate'}
        title={`${D}regenerate_title`}
        hint={`${D}regenerate_hint`}
        busy={regenerate.isPending}
        onClose={() => setDialog(null)}
        onSubmit={(code) => regenerate.mutate(code)}
      />
      <Dialog open={codes !== null} onClose={() => setCodes(null)} maxWidth="xs" fullWidth>
        <DialogTitle>{translate('security.personal.codes.title')}</DialogTitle>
        <DialogContent>{codes && <BackupCodesList codes={codes} />}</DialogContent>
        <DialogActions>
          <Button variant="contained" onClick={() => setCodes(null)}>
            {translate('security.personal.codes.done')}
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
