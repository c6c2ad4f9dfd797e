/**
 * Turning two-factor sign-in on: the server makes a secret and backup codes (shown only here), the
 * QR code of the otpauth:// URI is drawn in the browser (the secret never leaves for an image
 * service), and the first code from the app confirms the enrolment.
 */
import { useEffect, useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { useMutation } from '@tanstack/react-query';
import QRCode from 'qrcode';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useGateway } from '../../../api/customMethods';
import { errorMessage } from '../../shared/errors';
import { BackupCodesList } from './BackupCodesList';
import { useRefreshSecurity } from './queries';

const S = 'security.personal.setup.';

export function TwoFaSetupDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const gateway = useGateway();
  const refresh = useRefreshSecurity();
  const [qr, setQr] = useState('');
  const [code, setCode] = useState('');
  const setup = useMutation({ mutationFn: () => gateway.twoFaSetup() });
  const enable = useMutation({
    mutationFn: () => gateway.twoFaEnable(code.trim()),
    onSuccess: () => {
      notify('security.personal.twofa.enabled', { type: 'success' });
      refresh();
      onClose();
    },
    onError: (err) => notify(errorMessage(err), { type: 'error' }),
  });
  const { mutate: start, reset } = setup;

  useEffect(() => {
    if (!open) return;
    setCode('');
    setQr('');
    start(undefined, { onError: (err) => notify(errorMessage(err), { type: 'error' }) });
    return reset;
  }, [open, start, reset, notify]);

  const uri = setup.data?.qr_code_data;
  useEffect(() => {
    if (!uri) return;
    let live = true;
    void QRCode.toDataURL(uri, { margin: 1, width: 200 }).then((url) => live && setQr(url));
    return () => {
      live = false;
    };
  }, [uri]);

  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{translate(`${S}title`)}</DialogTitle>
      <DialogContent>
        {!setup.data ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
            {setup.isPending && <CircularProgress aria-label={translate('pages.common.loading')} />}
          </Box>
        ) : (
          <Stack spacing={2}>
            <Typography variant="body2">{translate(`${S}scan`)}</Typography>
            <Box sx={{ display: 'flex', justifyContent: 'center', minHeight: 200 }}>
              {qr && <img src={qr} width={200} height={200} alt={translate(`${S}qr_alt`)} />}
            </Box>
            <Typography variant="body2">
              {translate(`${S}manual`)}{' '}
              <Box component="code" data-testid="totp-secret" sx={{ wordBreak: 'break-all', fontWeight: 600 }}>
                {setup.data.secret}
              </Box>
            </Typography>
            <Typography variant="body2">{translate(`${S}backup`)}</Typography>
            <BackupCodesList codes={setup.data.backup_codes} />
            <Typography variant="body2">{translate(`${S}confirm`)}</Typography>
            <TextField
              label={translate('security.login.code')}
              value={code}
              onChange={(e) => setCode(e.target.value)}
              autoComplete="one-time-code"
              inputProps={{ inputMode: 'numeric' }}
              fullWidth
            />
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('pages.common.cancel')}</Button>
        <Button variant="contained" onClick={() => enable.mutate()} disabled={!setup.data || !code.trim() || enable.isPending}>
          {translate(`${S}submit`)}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
