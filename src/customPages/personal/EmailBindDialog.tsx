/**
 * E-mail binding: the address, a "get code" button (GET /api/verification, then a 30 s resend
 * countdown; Turnstile when the site enables it), the code, and POST /api/oauth/email/bind {email, code} (in the body: codes stay out of URLs and logs).
 */
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { storedUser, storeUser } from '../../api/client';
import { useGateway } from '../../api/customMethods';
import { useStatus } from '../../status/status';
import { EmailCodeRow } from '../shared/EmailCodeRow';
import { errorMessage } from '../shared/errors';
import { useHumanCheck } from '../shared/useHumanCheck';
import { useMailSender } from '../shared/useMailSender';

export function EmailBindDialog({ onClose, onBound }: { onClose: () => void; onBound: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const { status } = useStatus();
  const human = useHumanCheck(status);
  const mail = useMailSender(human, {
    path: '/api/verification',
    missing: 'pages.personal.bind_email.email_missing',
    sent: 'pages.personal.bind_email.code_sent',
  });
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');

  const gateway = useGateway();
  const binding = useMutation({
    mutationFn: (sent: { email: string; code: string }) => gateway.bindEmail(sent.email, sent.code),
    onSuccess: (bound) => {
      const stored = storedUser();
      if (stored && bound) storeUser({ ...stored, email: bound });
      notify('pages.personal.bind_email.done', { type: 'success' });
      onBound();
      onClose();
    },
    onError: (err: unknown) => notify(errorMessage(err), { type: 'error' }),
  });
  const busy = binding.isPending;

  const bind = () => {
    if (!email.trim() || !code.trim()) {
      notify('pages.personal.bind_email.required', { type: 'warning' });
      return;
    }
    binding.mutate({ email: email.trim(), code: code.trim() });
  };

  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{translate('pages.personal.bind_email.title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <EmailCodeRow
            label="pages.personal.bind_email.email"
            sendLabel="pages.personal.bind_email.send_code"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            mail={mail}
          />
          <TextField
            label={translate('pages.personal.bind_email.code')}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            autoComplete="one-time-code"
            fullWidth
          />
          {human.widget}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('pages.common.cancel')}</Button>
        <Button variant="contained" onClick={bind} disabled={busy}>
          {translate('pages.personal.bind_email.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
