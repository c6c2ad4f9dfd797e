/** Telegram's login widget; its answer is checked by the server (GET /api/oauth/telegram/login). */
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

export function TelegramLogin({ botName }: { botName: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const notify = useNotify();
  const navigate = useNavigate();

  useEffect(() => {
    window.onTelegramAuth = (user) => {
      const params = new URLSearchParams();
      for (const field of FIELDS) {
        const value = user[field];
        if (value !== undefined) params.set(field, String(value));
      }
      api
        .get<StoredUser>(`/api/oauth/telegram/login?${params}`)
        .then((logged) => {
          storeUser(logged);
          notify('pages.login.success', { type: 'success' });
          navigate('/');
        })
        .catch((err: unknown) => notify(errorMessage(err), { type: 'error' }));
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
  }, [botName, navigate, notify]);

  return <Box ref={ref} sx={{ display: 'flex', justifyContent: 'center' }} />;
}
