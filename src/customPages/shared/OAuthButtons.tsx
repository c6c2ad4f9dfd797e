/** Third-party sign-in, each shown only when the server status enables it. */
import { useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import GitHubIcon from '@mui/icons-material/GitHub';
import KeyIcon from '@mui/icons-material/Key';
import ForumIcon from '@mui/icons-material/Forum';
import ChatIcon from '@mui/icons-material/Chat';
import type { SiteStatus } from '../../status/status';
import { startOAuth, type RedirectProvider } from './oauth';
import { WeChatDialog } from './WeChatDialog';
import { TelegramLogin } from './TelegramLogin';
import { errorMessage } from './errors';

export function hasOAuth(status: SiteStatus | null): boolean {
  return Boolean(
    status &&
    (status.github_oauth || status.oidc_enabled || status.linuxdo_oauth || status.wechat_login || status.telegram_oauth),
  );
}

export function OAuthButtons({ status }: { status: SiteStatus | null }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [wechatOpen, setWechatOpen] = useState(false);
  if (!status || !hasOAuth(status)) return null;

  const go = (type: RedirectProvider) => {
    startOAuth(type, status).catch((err: unknown) => notify(errorMessage(err), { type: 'error' }));
  };

  return (
    <>
      <Divider sx={{ my: 2 }}>{translate('pages.oauth.or')}</Divider>
      <Stack spacing={1}>
        {status.github_oauth && (
          <Button variant="outlined" startIcon={<GitHubIcon />} onClick={() => go('github')}>
            {translate('pages.oauth.github')}
          </Button>
        )}
        {status.oidc_enabled && (
          <Button variant="outlined" startIcon={<KeyIcon />} onClick={() => go('oidc')}>
            {translate('pages.oauth.oidc')}
          </Button>
        )}
        {status.linuxdo_oauth && (
          <Button variant="outlined" startIcon={<ForumIcon />} onClick={() => go('linuxdo')}>
            {translate('pages.oauth.linuxdo')}
          </Button>
        )}
        {status.wechat_login && (
          <Button variant="outlined" startIcon={<ChatIcon />} onClick={() => setWechatOpen(true)}>
            {translate('pages.oauth.wechat')}
          </Button>
        )}
        {status.telegram_oauth && <TelegramLogin botName={status.telegram_bot_name} />}
      </Stack>
      {status.wechat_login && (
        <WeChatDialog open={wechatOpen} qrcode={status.wechat_qrcode} onClose={() => setWechatOpen(false)} />
      )}
    </>
  );
}
