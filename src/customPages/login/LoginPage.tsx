/**
 * /login: username-or-email and password (then, for accounts with two-factor sign-in, the code
 * step), a passkey, and the third-party options the server enables. `?step=2fa` opens the code
 * step directly (a third-party sign-in that needs the second factor comes back here).
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useLogin, useNotify, useTranslate } from 'react-admin';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useStatus } from '../../status/status';
import { AuthCard } from '../shared/AuthCard';
import { OAuthButtons } from '../shared/OAuthButtons';
import { useHumanCheck } from '../shared/useHumanCheck';
import { errorMessage } from '../shared/errors';
import { AFF_KEY, LOGIN_LANDING } from '../shared/constants';
import { SecondFactorRequired } from '../../api/securityMethods';
import { PasskeyLoginButton } from './PasskeyLoginButton';
import { SecondFactorStep } from './SecondFactorStep';

export default function LoginPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const login = useLogin();
  const { status } = useStatus();
  const [params] = useSearchParams();
  const human = useHumanCheck(status);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [secondStep, setSecondStep] = useState(params.get('step') === '2fa');

  const aff = params.get('aff');
  useEffect(() => {
    if (aff) localStorage.setItem(AFF_KEY, aff);
  }, [aff]);

  const passwordLogin = status?.password_login_enabled !== false;
  const canRegister = !status?.self_use_mode_enabled && status?.register_enabled !== false;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!username.trim() || !password) {
      notify('pages.login.required', { type: 'warning' });
      return;
    }
    if (!human.ready()) return;
    setBusy(true);
    try {
      await login({ username: username.trim(), password, turnstile: human.token }, LOGIN_LANDING);
      notify('pages.login.success', { type: 'success' });
    } catch (err) {
      if (err instanceof SecondFactorRequired) setSecondStep(true);
      else notify(errorMessage(err), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  if (secondStep) {
    return (
      <AuthCard title={translate('pages.login.title')}>
        <SecondFactorStep onBack={() => setSecondStep(false)} />
      </AuthCard>
    );
  }

  return (
    <AuthCard title={translate('pages.login.title')}>
      {params.get('expired') === 'true' && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {translate('pages.login.expired')}
        </Alert>
      )}
      {passwordLogin ? (
        <Box component="form" onSubmit={submit} noValidate>
          <Stack spacing={2}>
            <TextField
              label={translate('pages.login.username')}
              value={username}
              onChange={(e) => setUsername(e.target.value)}
              autoComplete="username"
              autoFocus
              fullWidth
            />
            <TextField
              label={translate('pages.login.password')}
              type="password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              autoComplete="current-password"
              fullWidth
            />
            {human.widget}
            <Button type="submit" variant="contained" size="large" disabled={busy}>
              {translate('pages.login.submit')}
            </Button>
          </Stack>
        </Box>
      ) : (
        <Alert severity="info">{translate('pages.login.password_disabled')}</Alert>
      )}
      <Box sx={{ mt: 2 }}>
        <PasskeyLoginButton enabled={status?.passkey_login === true} onSecondStep={() => setSecondStep(true)} />
      </Box>
      <Stack direction="row" justifyContent="space-between" sx={{ mt: 2 }}>
        <Link component={RouterLink} to="/reset" underline="hover">
          {translate('pages.login.forgot')}
        </Link>
        {canRegister && (
          <Link component={RouterLink} to="/register" underline="hover">
            {translate('pages.login.register')}
          </Link>
        )}
      </Stack>
      <OAuthButtons status={status} />
    </AuthCard>
  );
}
