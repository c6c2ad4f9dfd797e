/** /setup: the one-time initialisation — root account (until one exists) and the usage mode. */
import { useEffect, useState, type ChangeEvent, type FormEvent } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { SetupState } from '../../../server/status/schemas';
import { api, request } from '../../api/client';
import { storedLocale } from '../../i18n';
import { localizeRefusal } from '../../i18n/serverErrors';
import { AuthCard } from '../shared/AuthCard';
import { setupBody, validateSetup, type SetupForm, type UsageMode } from './validateSetup';

const RELOAD_DELAY_MS = 1500;
const MODES: UsageMode[] = ['external', 'self', 'demo'];

export default function SetupPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const [state, setState] = useState<SetupState | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [form, setForm] = useState<SetupForm>({ username: '', password: '', confirmPassword: '', usageMode: 'external' });
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    api
      .get<SetupState>('/api/setup')
      .then((setup) => {
        if (setup.status) void navigate('/', { replace: true });
        else setState(setup);
      })
      .catch(() => {
        setLoadFailed(true);
        notify('pages.setup.load_failed', { type: 'error' });
      });
  }, [navigate, notify]);

  const set = (field: keyof SetupForm) => (e: ChangeEvent<HTMLInputElement>) =>
    setForm((f) => ({ ...f, [field]: e.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!state) return;
    const problem = validateSetup(form, state.root_init);
    if (problem) {
      notify(problem, { type: 'warning' });
      return;
    }
    setBusy(true);
    try {
      const envelope = await request<unknown>('POST', '/api/setup', setupBody(form, state.root_init));
      if (!envelope.success) {
        notify(localizeRefusal(envelope, storedLocale(), 'pages.setup.failed'), { type: 'error' });
        setBusy(false);
        return;
      }
      notify(envelope.message || 'pages.setup.done', { type: 'success' });
      setTimeout(() => window.location.reload(), RELOAD_DELAY_MS);
    } catch {
      notify('pages.setup.network_failed', { type: 'error' });
      setBusy(false);
    }
  };

  if (loadFailed) {
    return (
      <AuthCard title={translate('pages.setup.title')} width={560}>
        <Alert severity="error">{translate('pages.setup.load_failed')}</Alert>
      </AuthCard>
    );
  }
  if (!state) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 8 }}>
        <CircularProgress aria-label={translate('pages.common.loading')} />
      </Box>
    );
  }

  return (
    <AuthCard title={translate('pages.setup.title')} width={560}>
      <Box component="form" onSubmit={submit} noValidate>
        <Stack spacing={2}>
          <Alert severity={state.database_type === 'sqlite' ? 'warning' : 'info'}>
            {translate('pages.setup.database', { type: translate(`pages.setup.db.${state.database_type}`) })}
            {state.database_type === 'sqlite' && (
              <Typography variant="body2" sx={{ mt: 0.5 }}>
                {translate('pages.setup.sqlite_hint')}
              </Typography>
            )}
          </Alert>
          {state.root_init ? (
            <Alert severity="success">{translate('pages.setup.root_exists')}</Alert>
          ) : (
            <>
              <Typography variant="subtitle1">{translate('pages.setup.admin_section')}</Typography>
              <TextField
                label={translate('pages.setup.username')}
                value={form.username}
                onChange={set('username')}
                autoComplete="username"
                fullWidth
              />
              <TextField
                label={translate('pages.setup.password')}
                type="password"
                value={form.password}
                onChange={set('password')}
                autoComplete="new-password"
                fullWidth
              />
              <TextField
                label={translate('pages.setup.confirm_password')}
                type="password"
                value={form.confirmPassword}
                onChange={set('confirmPassword')}
                autoComplete="new-password"
                fullWidth
              />
            </>
          )}
          <FormControl>
            <FormLabel id="usage-mode-label">{translate('pages.setup.usage_mode')}</FormLabel>
            <RadioGroup aria-labelledby="usage-mode-label" value={form.usageMode} onChange={set('usageMode')}>
              {MODES.map((mode) => (
                <FormControlLabel
                  key={mode}
                  value={mode}
                  control={<Radio />}
                  label={
                    <Box>
                      <Typography>{translate(`pages.setup.mode.${mode}`)}</Typography>
                      <Typography variant="body2" color="text.secondary">
                        {translate(`pages.setup.mode.${mode}_hint`)}
                      </Typography>
                    </Box>
                  }
                  sx={{ alignItems: 'flex-start', mb: 1, '& .MuiRadio-root': { pt: 0.5 } }}
                />
              ))}
            </RadioGroup>
          </FormControl>
          <Button type="submit" variant="contained" size="large" disabled={busy}>
            {translate('pages.setup.submit')}
          </Button>
        </Stack>
      </Box>
    </AuthCard>
  );
}
