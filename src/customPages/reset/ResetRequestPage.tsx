/** /reset: sends a password-reset link to an e-mail address, then waits 30 s before a retry. */
import { useState, type FormEvent } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { api } from '../../api/client';
import { useStatus } from '../../status/status';
import { AuthCard } from '../shared/AuthCard';
import { useCountdown } from '../shared/useCountdown';
import { useHumanCheck } from '../shared/useHumanCheck';
import { errorMessage } from '../shared/errors';
import { RESEND_SECONDS } from '../shared/constants';

export default function ResetRequestPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const { status } = useStatus();
  const human = useHumanCheck(status);
  const countdown = useCountdown(RESEND_SECONDS);
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim()) {
      notify('pages.reset.email_required', { type: 'warning' });
      return;
    }
    if (!human.ready()) return;
    setBusy(true);
    try {
      const query = new URLSearchParams({ email: email.trim(), turnstile: human.token });
      await api.get(`/api/reset_password?${query}`);
      notify('pages.reset.sent', { type: 'success' });
      countdown.start();
    } catch (err) {
      notify(errorMessage(err), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard title={translate('pages.reset.title')}>
      <Box component="form" onSubmit={submit} noValidate>
        <Stack spacing={2}>
          <TextField
            label={translate('pages.reset.email')}
            type="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            autoComplete="email"
            autoFocus
            fullWidth
          />
          {human.widget}
          <Button type="submit" variant="contained" size="large" disabled={busy || countdown.left > 0}>
            {countdown.left > 0
              ? translate('pages.common.resend_in', { seconds: countdown.left })
              : translate('pages.reset.submit')}
          </Button>
        </Stack>
      </Box>
      <Box sx={{ mt: 2, textAlign: 'center' }}>
        <Link component={RouterLink} to="/login" underline="hover">
          {translate('pages.reset.back_to_login')}
        </Link>
      </Box>
    </AuthCard>
  );
}
