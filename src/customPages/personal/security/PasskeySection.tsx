/**
 * Passkeys on the personal page: the list (name, when added and last used), adding one of this
 * device or a security key, removing one. Adding a second factor's worth and removing one ask for a
 * fresh verification first (useFreshVerification).
 */
import { useState } from 'react';
import { Confirm, useNotify, useTranslate } from 'react-admin';
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { PasskeyItem } from '../../../../server/mfa/schemas';
import { useGateway } from '../../../api/customMethods';
import { formatTimestamp } from '../../../resources/schema/format';
import { usePasskeys, useRefreshSecurity } from './queries';
import { useFreshVerification } from './useFreshVerification';

const P = 'security.personal.passkeys.';

export function PasskeySection({ enabled }: { enabled: boolean }) {
  const translate = useTranslate();
  const notify = useNotify();
  const gateway = useGateway();
  const refresh = useRefreshSecurity();
  const passkeys = usePasskeys();
  const { attempt, dialog } = useFreshVerification();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [removing, setRemoving] = useState<PasskeyItem | null>(null);
  const supported = browserSupportsWebAuthn();

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    await attempt(action);
    setBusy(false);
  };
  const add = () =>
    run(async () => {
      await gateway.addPasskey(name.trim());
      setName('');
      notify(`${P}added`, { type: 'success' });
      refresh();
    });
  const remove = (passkey: PasskeyItem) => {
    setRemoving(null);
    void run(async () => {
      await gateway.removePasskey(passkey.id);
      notify(`${P}removed`, { type: 'success' });
      refresh();
    });
  };

  const list = passkeys.data?.passkeys ?? [];
  return (
    <Stack spacing={1} role="group" aria-label={translate(`${P}title`)}>
      <Typography sx={{ fontWeight: 500 }}>{translate(`${P}title`)}</Typography>
      <Typography variant="body2" color="text.secondary">
        {translate(`${P}hint`)}
      </Typography>
      {passkeys.data && list.length === 0 && <Typography variant="body2">{translate(`${P}none`)}</Typography>}
      {list.map((p) => (
        <Stack key={p.id} direction="row" spacing={1} alignItems="center" role="listitem" aria-label={p.name}>
          <Stack sx={{ flex: 1, minWidth: 0 }}>
            <Typography variant="body2" sx={{ fontWeight: 500 }}>
              {p.name}
              {p.backed_up && ` · ${translate(`${P}synced`)}`}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {translate(`${P}created`, { date: formatTimestamp(p.created_at) })} ·{' '}
              {p.last_used_at
                ? translate(`${P}last_used`, { date: formatTimestamp(p.last_used_at) })
                : translate(`${P}never_used`)}
            </Typography>
          </Stack>
          <Button size="small" color="error" disabled={busy} onClick={() => setRemoving(p)}>
            {translate(`${P}remove`)}
          </Button>
        </Stack>
      ))}
      {enabled && !supported && <Alert severity="info">{translate(`${P}unsupported`)}</Alert>}
      {enabled && supported && (
        <Stack direction="row" spacing={1} alignItems="center">
          <TextField
            size="small"
            label={translate(`${P}name`)}
            value={name}
            onChange={(e) => setName(e.target.value)}
            inputProps={{ maxLength: 64 }}
            sx={{ flex: 1 }}
          />
          <Button variant="outlined" onClick={add} disabled={busy}>
            {translate(`${P}add`)}
          </Button>
        </Stack>
      )}
      <Confirm
        isOpen={removing !== null}
        title={`${P}remove`}
        content={translate(`${P}confirm_remove`, { name: removing?.name ?? '' })}
        onConfirm={() => removing && remove(removing)}
        onClose={() => setRemoving(null)}
      />
      {dialog}
    </Stack>
  );
}
