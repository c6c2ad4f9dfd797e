/**
 * The second step of signing in, for accounts with two-factor sign-in: the code from the
 * authenticator app, or a backup code. The server keeps the pending sign-in for five minutes in
 * this browser's cookie; when it has lapsed, the refusal says so and "back" starts over.
 */
import { useState, type FormEvent } from 'react';
import { useLogin, useNotify, useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { errorMessage } from '../shared/errors';
import { LOGIN_LANDING } from '../shared/constants';

export function SecondFactorStep({ onBack }: { onBack: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const login = useLogin();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) {
      notify('security.login.code_required', { type: 'warning' });
      return;
    }
    setBusy(true);
    try {
      await login({ code: code.trim() }, LOGIN_LANDING);
      notify('pages.login.success', { type: 'success' });
    } catch (err) {
      notify(errorMessage(err), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box component="form" onSubmit={submit} noValidate>
      <Stack spacing={2}>
        <Typography variant="h6" component="h2">
          {translate('security.login.twofa_title')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {translate('security.login.twofa_hint')}
        </Typography>
        <TextField
          label={translate('security.login.code')}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          autoComplete="one-time-code"
          inputProps={{ inputMode: 'text', spellCheck: false }}
          autoFocus
          fullWidth
        />
        <Button type="submit" variant="contained" size="large" disabled={busy}>
          {translate('security.login.verify')}
        </Button>
        <Button onClick={onBack}>{translate('security.login.back')}</Button>
      </Stack>
    </Box>
  );
}
