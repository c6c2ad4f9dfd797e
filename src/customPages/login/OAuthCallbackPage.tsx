/**
 * /oauth/{type}: the provider sends the browser back here with code and state. The server either
 * logs the person in (→ /token; an account with two-factor sign-in → the login page's code step) or binds the account to the logged-in user (message 'bind' →
 * /setting, which sends a non-root user on to /personal). The callback address is replaced in the
 * history: its state is spent, so going back to it could only fail.
 */
import { useEffect, useRef, useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { request, storeUser } from '../../api/client';
import type { LoginAnswer } from '../../api/securityMethods';
import { storedLocale } from '../../i18n';
import { localizeRefusal } from '../../i18n/serverErrors';
import { errorMessage } from '../shared/errors';
import { LOGIN_LANDING } from '../shared/constants';

const PROVIDERS = new Set(['github', 'oidc', 'linuxdo']);
const FAILURE_DELAY_MS = 2000;

export default function OAuthCallbackPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const { type = '' } = useParams();
  const [params] = useSearchParams();
  const [failure, setFailure] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const fail = (message: string) => {
      setFailure(message);
      notify(message, { type: 'error' });
      setTimeout(() => void navigate('/setting', { replace: true }), FAILURE_DELAY_MS);
    };
    if (!PROVIDERS.has(type)) {
      fail('pages.oauth.unknown_provider');
      return;
    }
    const query = new URLSearchParams({ code: params.get('code') ?? '', state: params.get('state') ?? '' });
    request<LoginAnswer>('GET', `/api/oauth/${type}?${query}`)
      .then((envelope) => {
        if (!envelope.success) return fail(localizeRefusal(envelope, storedLocale(), 'pages.oauth.failed'));
        if (envelope.message === 'bind') {
          notify('pages.oauth.bound', { type: 'success' });
          void navigate('/setting', { replace: true });
          return;
        }
        // An account with two-factor sign-in: the code step of the login page finishes it.
        if (envelope.data && 'require_2fa' in envelope.data) {
          void navigate('/login?step=2fa', { replace: true });
          return;
        }
        if (envelope.data) storeUser(envelope.data);
        notify('pages.login.success', { type: 'success' });
        void navigate(LOGIN_LANDING, { replace: true });
      })
      .catch((err: unknown) => fail(errorMessage(err)));
  }, [navigate, notify, params, type]);

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2, py: 8 }}>
      {failure ? (
        <>
          <Alert severity="error">{translate(failure)}</Alert>
          <Typography color="text.secondary">{translate('pages.oauth.redirecting')}</Typography>
        </>
      ) : (
        <>
          <CircularProgress />
          <Typography color="text.secondary">{translate('pages.oauth.processing')}</Typography>
        </>
      )}
    </Box>
  );
}
