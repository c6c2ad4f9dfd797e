/**
 * The third-party account bindings of the personal page: one row per provider the site status
 * enables, showing whether the user has bound it. GitHub, OIDC and Linux DO bind through the
 * redirect flow while logged in (the callback answers 'bind'); WeChat through the QR dialog;
 * Telegram through its widget. A bind made here reloads the user (`onChange`).
 */
import { useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { SelfUser } from '../../../server/users/schemas';
import type { SiteStatus } from '../../status/status';
import { errorMessage } from '../shared/errors';
import { startOAuth, type RedirectProvider } from '../shared/oauth';
import { TelegramLogin } from '../shared/TelegramLogin';
import { WeChatDialog } from '../shared/WeChatDialog';

type Provider = RedirectProvider | 'wechat' | 'telegram';

interface ProviderRow {
  key: Provider;
  enabled: boolean;
  boundId: string;
}

function providerRows(user: SelfUser, status: SiteStatus): ProviderRow[] {
  const rows: ProviderRow[] = [
    { key: 'github', enabled: status.github_oauth, boundId: user.github_id },
    { key: 'oidc', enabled: status.oidc_enabled, boundId: user.oidc_id },
    { key: 'linuxdo', enabled: status.linuxdo_oauth, boundId: user.linux_do_id },
    { key: 'wechat', enabled: status.wechat_login, boundId: user.wechat_id },
    { key: 'telegram', enabled: status.telegram_oauth, boundId: user.telegram_id },
  ];
  return rows.filter((row) => row.enabled);
}

export function BindingsCard({ user, status, onChange }: { user: SelfUser; status: SiteStatus | null; onChange: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [wechatOpen, setWechatOpen] = useState(false);
  const [telegramShown, setTelegramShown] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const rows = status ? providerRows(user, status) : [];
  if (!status || rows.length === 0) return null;

  const bind = (key: Provider) => {
    if (key === 'wechat') return setWechatOpen(true);
    if (key === 'telegram') return setTelegramShown(true);
    setLeaving(true);
    startOAuth(key, status).catch((err: unknown) => {
      setLeaving(false);
      notify(errorMessage(err), { type: 'error' });
    });
  };

  const telegramBound = () => {
    setTelegramShown(false);
    onChange();
  };

  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="h6" gutterBottom>
          {translate('pages.personal.bindings.title')}
        </Typography>
        <Stack spacing={1.5}>
          {rows.map(({ key, boundId }) => {
            const name = translate(`pages.personal.bindings.${key}`);
            return (
              <Stack key={key} role="group" aria-label={name} spacing={1}>
                <Stack direction="row" spacing={2} alignItems="center">
                  <Typography sx={{ minWidth: 88, fontWeight: 500 }}>{name}</Typography>
                  <Typography variant="body2" color="text.secondary" sx={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
                    {boundId
                      ? translate('pages.personal.bindings.bound', { id: boundId })
                      : translate('pages.personal.bindings.unbound')}
                  </Typography>
                  {!(key === 'telegram' && telegramShown) && (
                    <Button variant="outlined" size="small" onClick={() => bind(key)} disabled={leaving}>
                      {translate(boundId ? 'pages.personal.bindings.rebind' : 'pages.personal.bindings.bind')}
                    </Button>
                  )}
                </Stack>
                {key === 'telegram' && telegramShown && (
                  <>
                    <Typography variant="body2" color="text.secondary">
                      {translate('pages.personal.bindings.telegram_hint')}
                    </Typography>
                    <TelegramLogin botName={status.telegram_bot_name} mode="bind" onBound={telegramBound} />
                  </>
                )}
              </Stack>
            );
          })}
        </Stack>
      </CardContent>
      {status.wechat_login && (
        <WeChatDialog
          open={wechatOpen}
          qrcode={status.wechat_qrcode}
          mode="bind"
          onClose={() => setWechatOpen(false)}
          onBound={onChange}
        />
      )}
    </Card>
  );
}
