/**
 * /user/reset?email&token: the link from the reset e-mail. Confirming asks the server for a new
 * password, shows it and copies it. A button rather than an automatic call: the token is single-use
 * and clipboard writes need a user gesture.
 */
import { useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { api } from '../../api/client';
import { AuthCard } from '../shared/AuthCard';
import { useClipboard } from '../shared/useClipboard';
import { errorMessage } from '../shared/errors';

export default function ResetConfirmPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const { copy, dialog } = useClipboard();
  const [params] = useSearchParams();
  const email = params.get('email') ?? '';
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const confirm = async () => {
    setBusy(true);
    try {
      const fresh = await api.post<string>('/api/user/reset', { email, token });
      setPassword(fresh);
      await copy(fresh, 'pages.reset.copied');
    } catch (err) {
      notify(errorMessage(err), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard title={translate('pages.reset.confirm_title')}>
      {!email || !token ? (
        <Alert severity="error">{translate('pages.reset.invalid_link')}</Alert>
      ) : (
        <Stack spacing={2}>
          <TextField
            label={translate('pages.reset.email')}
            value={email}
            fullWidth
            slotProps={{ htmlInput: { readOnly: true } }}
          />
          {password !== null ? (
            <>
              <TextField
                label={translate('pages.reset.new_password')}
                value={password}
                fullWidth
                slotProps={{ htmlInput: { readOnly: true } }}
              />
              <Alert severity="success">{translate('pages.reset.done')}</Alert>
              <Button variant="outlined" onClick={() => copy(password, 'pages.reset.copied')}>
                {translate('pages.common.copy')}
              </Button>
            </>
          ) : (
            <Button variant="contained" size="large" onClick={confirm} disabled={busy}>
              {translate('pages.reset.confirm')}
            </Button>
          )}
        </Stack>
      )}
      <Box sx={{ mt: 2, textAlign: 'center' }}>
        <Link component={RouterLink} to="/login" underline="hover">
          {translate('pages.reset.back_to_login')}
        </Link>
      </Box>
      {dialog}
    </AuthCard>
  );
}
