/**
 * Fresh verification before a sensitive action: a passkey (when the person has one and the browser
 * can use it) or a code from the authenticator app or a backup code. The server keeps the
 * verification five minutes for this session; `onVerified` then retries the action.
 */
import { useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { useMutation } from '@tanstack/react-query';
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import KeyIcon from '@mui/icons-material/Key';
import { useGateway } from '../../../api/customMethods';
import { errorMessage, isCancelled } from '../../shared/errors';
import { usePasskeys, useTwoFaStatus } from './queries';

export function VerifyDialog({ open, onClose, onVerified }: { open: boolean; onClose: () => void; onVerified: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const gateway = useGateway();
  const twoFa = useTwoFaStatus();
  const passkeys = usePasskeys();
  const [code, setCode] = useState('');
  const verify = useMutation({
    mutationFn: (how: 'code' | 'passkey') => (how === 'code' ? gateway.verifyWithCode(code.trim()) : gateway.verifyWithPasskey()),
    onSuccess: () => {
      notify('security.verify.done', { type: 'success' });
      setCode('');
      onVerified();
    },
    onError: (err) => notify(isCancelled(err) ? 'security.login.passkey_cancelled' : errorMessage(err), { type: 'error' }),
  });
  const withPasskey = (passkeys.data?.passkeys.length ?? 0) > 0 && browserSupportsWebAuthn();
  const withCode = twoFa.data?.enabled === true;

  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{translate('security.verify.title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Typography variant="body2" color="text.secondary">
            {translate('security.verify.hint')}
          </Typography>
          {withPasskey && (
            <Button
              variant="outlined"
              startIcon={<KeyIcon />}
              onClick={() => verify.mutate('passkey')}
              disabled={verify.isPending}
            >
              {translate('security.verify.with_passkey')}
            </Button>
          )}
          {withCode && (
            <TextField
              label={translate('security.verify.code')}
              value={code}
              onChange={(e) => setCode(e.target.value)}
              autoComplete="one-time-code"
              fullWidth
            />
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('pages.common.cancel')}</Button>
        {withCode && (
          <Button variant="contained" onClick={() => verify.mutate('code')} disabled={verify.isPending || !code.trim()}>
            {translate('security.verify.submit')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
