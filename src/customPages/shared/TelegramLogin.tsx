/**
 * Telegram's login widget; its answer is checked by the server. Logs in
 * (GET /api/oauth/telegram/login) or, in bind mode, binds the Telegram account to the logged-in
 * user (GET /api/oauth/telegram/bind) and calls `onBound`.
 */
import { useEffect, useRef } from 'react';
import { useNotify } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import Box from '@mui/material/Box';
import { api, storeUser, type StoredUser } from '../../api/client';
import { errorMessage } from './errors';

type TelegramUser = Record<string, string | number | undefined>;

declare global {
  interface Window {
    onTelegramAuth?: (user: TelegramUser) => void;
  }
}

const FIELDS = ['id', 'first_name', 'last_name', 'username', 'photo_url', 'auth_date', 'hash', 'lang'];

interface TelegramLoginProps {
  botName: string;
  /** 'bind' binds the Telegram account to the logged-in user instead of logging in. */
  mode?: 'login' | 'bind';
  /** Called after a successful bind. */
  onBound?: () => void;
}

export function TelegramLogin({ botName, mode = 'login', onBound }: TelegramLoginProps) {
  const ref = useRef<HTMLDivElement>(null);
  const notify = useNotify();
  const navigate = useNavigate();
  // Read at answer time, so a new callback does not reload the widget.
  const onBoundRef = useRef(onBound);
  useEffect(() => {
    onBoundRef.current = onBound;
  });

  useEffect(() => {
    window.onTelegramAuth = (user) => {
      const params = new URLSearchParams();
      for (const field of FIELDS) {
        const value = user[field];
        if (value !== undefined) params.set(field, String(value));
      }
      const done =
        mode === 'bind'
          ? api.get<StoredUser>(`/api/oauth/telegram/bind?${params}`).then(() => {
              notify('pages.oauth.bound', { type: 'success' });
              onBoundRef.current?.();
            })
          : api.get<StoredUser>(`/api/oauth/telegram/login?${params}`).then((logged) => {
              storeUser(logged);
              notify('pages.login.success', { type: 'success' });
              void navigate('/');
            });
      done.catch((err: unknown) => notify(errorMessage(err), { type: 'error' }));
    };
    const script = document.createElement('script');
    script.src = 'https://telegram.org/js/telegram-widget.js?22';
    script.async = true;
    script.setAttribute('data-telegram-login', botName);
    script.setAttribute('data-size', 'large');
    script.setAttribute('data-request-access', 'write');
    script.setAttribute('data-onauth', 'onTelegramAuth(user)');
    const container = ref.current;
    container?.appendChild(script);
    return () => {
      container?.replaceChildren();
      delete window.onTelegramAuth;
    };
  }, [botName, mode, navigate, notify]);

  return <Box ref={ref} sx={{ display: 'flex', justifyContent: 'center' }} />;
}
