/** /reset: sends a password-reset link to an e-mail address, then waits 30 s before a retry. */
import { useState, type FormEvent } from 'react';
import { useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useStatus } from '../../status/status';
import { AuthCard } from '../shared/AuthCard';
import { useHumanCheck } from '../shared/useHumanCheck';
import { useMailSender } from '../shared/useMailSender';

export default function ResetRequestPage() {
  const translate = useTranslate();
  const { status } = useStatus();
  const human = useHumanCheck(status);
  const mail = useMailSender(human, {
    path: '/api/reset_password',
    missing: 'pages.reset.email_required',
    sent: 'pages.reset.sent',
  });
  const [email, setEmail] = useState('');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await mail.send(email);
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
          <Button type="submit" variant="contained" size="large" disabled={mail.sending || mail.left > 0}>
            {mail.buttonText('pages.reset.submit')}
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
