/** /register: username and password, plus e-mail verification when the server asks for it. */
import { useEffect, useState, type ChangeEvent, type FormEvent } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { api } from '../../api/client';
import { useStatus } from '../../status/status';
import { AuthCard } from '../shared/AuthCard';
import { OAuthButtons } from '../shared/OAuthButtons';
import { EmailCodeRow } from '../shared/EmailCodeRow';
import { useHumanCheck } from '../shared/useHumanCheck';
import { useMailSender } from '../shared/useMailSender';
import { errorMessage } from '../shared/errors';
import { AFF_KEY } from '../shared/constants';
import { PASSWORD_MAX, USERNAME_MAX, validateRegister, type RegisterForm } from './validateRegister';

const EMPTY: RegisterForm = { username: '', password: '', password2: '', email: '', verification_code: '' };

export default function RegisterPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const { status } = useStatus();
  const human = useHumanCheck(status);
  const [params] = useSearchParams();
  const [form, setForm] = useState<RegisterForm>(EMPTY);
  const [busy, setBusy] = useState(false);
  const mail = useMailSender(human, {
    path: '/api/verification',
    missing: 'pages.register.email_missing',
    sent: 'pages.register.code_sent',
  });

  const queryAff = params.get('aff');
  useEffect(() => {
    if (queryAff) localStorage.setItem(AFF_KEY, queryAff);
  }, [queryAff]);

  const emailVerification = Boolean(status?.email_verification);
  const passwordRegister = status?.password_register_enabled !== false && status?.register_enabled !== false;
  const set = (field: keyof RegisterForm) => (e: ChangeEvent<HTMLInputElement>) =>
    setForm((f) => ({ ...f, [field]: e.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = validateRegister(form, emailVerification);
    if (problem) {
      notify(problem, { type: 'warning' });
      return;
    }
    if (!human.ready()) return;
    setBusy(true);
    try {
      await api.post(`/api/user/register?turnstile=${encodeURIComponent(human.token)}`, {
        username: form.username.trim(),
        password: form.password,
        password2: form.password2,
        email: form.email.trim(),
        verification_code: form.verification_code.trim(),
        aff_code: queryAff ?? localStorage.getItem(AFF_KEY) ?? '',
      });
      notify('pages.register.success', { type: 'success' });
      void navigate('/login');
    } catch (err) {
      notify(errorMessage(err), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard title={translate('pages.register.title')}>
      {passwordRegister ? (
        <Box component="form" onSubmit={submit} noValidate>
          <Stack spacing={2}>
            <TextField
              label={translate('pages.register.username')}
              placeholder={translate('pages.register.username_placeholder')}
              value={form.username}
              onChange={set('username')}
              autoComplete="username"
              slotProps={{ htmlInput: { maxLength: USERNAME_MAX } }}
              fullWidth
            />
            <TextField
              label={translate('pages.register.password')}
              placeholder={translate('pages.register.password_placeholder')}
              type="password"
              value={form.password}
              onChange={set('password')}
              autoComplete="new-password"
              slotProps={{ htmlInput: { maxLength: PASSWORD_MAX } }}
              fullWidth
            />
            <TextField
              label={translate('pages.register.password2')}
              type="password"
              value={form.password2}
              onChange={set('password2')}
              autoComplete="new-password"
              fullWidth
            />
            {emailVerification && (
              <>
                <EmailCodeRow
                  label="pages.register.email"
                  sendLabel="pages.register.send_code"
                  value={form.email}
                  onChange={set('email')}
                  mail={mail}
                />
                <TextField
                  label={translate('pages.register.code')}
                  value={form.verification_code}
                  onChange={set('verification_code')}
                  fullWidth
                />
              </>
            )}
            {human.widget}
            <Button type="submit" variant="contained" size="large" disabled={busy}>
              {translate('pages.register.submit')}
            </Button>
          </Stack>
        </Box>
      ) : (
        <Alert severity="info">{translate('pages.register.disabled')}</Alert>
      )}
      <Box sx={{ mt: 2, textAlign: 'center' }}>
        <Link component={RouterLink} to="/login" underline="hover">
          {translate('pages.register.have_account')}
        </Link>
      </Box>
      <OAuthButtons status={status} />
    </AuthCard>
  );
}
