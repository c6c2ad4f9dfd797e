/** The notification settings and price settings tabs; both save the whole user setting. */
import { useState, type ChangeEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { SelfUser } from '../../../server/users/schemas';
import { useGateway } from '../../api/customMethods';
import { formatQuota } from '../../status/status';
import { errorMessage } from '../shared/errors';
import { THRESHOLD_PRESETS, initialSettings, settingsBody, validateSettings, type SettingsForm } from './settingsForm';

type TabKey = 'notification' | 'price';

export function SettingsTabs({ user, quotaPerUnit }: { user: SelfUser; quotaPerUnit: number }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [tab, setTab] = useState<TabKey>('notification');
  const [form, setForm] = useState<SettingsForm>(() => initialSettings(user.settings, user.setting !== ''));
  const [secretSet, setSecretSet] = useState(user.settings.webhook_secret_set);
  const set =
    (field: 'quota_warning_threshold' | 'webhook_url' | 'webhook_secret' | 'notification_email') =>
    (e: ChangeEvent<HTMLInputElement>) =>
      setForm((f) => ({ ...f, [field]: e.target.value }));

  const gateway = useGateway();
  const saving = useMutation({
    mutationFn: (body: ReturnType<typeof settingsBody>) => gateway.saveMySettings(body),
    onSuccess: (saved) => {
      if (saved) setSecretSet(saved.webhook_secret_set);
      setForm((f) => ({ ...f, webhook_secret: '' }));
      notify('pages.personal.settings.saved', { type: 'success' });
    },
    onError: (err: unknown) => notify(errorMessage(err), { type: 'error' }),
  });
  const busy = saving.isPending;

  const save = () => {
    const problem = validateSettings(form);
    if (problem) {
      notify(problem, { type: 'warning' });
      return;
    }
    saving.mutate(settingsBody(form));
  };

  const threshold = Number(form.quota_warning_threshold);
  return (
    <Card variant="outlined" component="section" aria-label={translate('pages.personal.settings.title')}>
      <Tabs
        value={tab}
        onChange={(_e, value: TabKey) => setTab(value)}
        variant="scrollable"
        allowScrollButtonsMobile
        sx={{ borderBottom: 1, borderColor: 'divider' }}
      >
        <Tab value="notification" label={translate('pages.personal.settings.notification_tab')} />
        <Tab value="price" label={translate('pages.personal.settings.price_tab')} />
      </Tabs>
      <CardContent>
        {tab === 'notification' ? (
          <Stack spacing={2}>
            <RadioGroup
              row
              value={form.notify_type}
              onChange={(e) => setForm((f) => ({ ...f, notify_type: e.target.value === 'webhook' ? 'webhook' : 'email' }))}
            >
              <FormControlLabel value="email" control={<Radio />} label={translate('pages.personal.settings.email')} />
              <FormControlLabel value="webhook" control={<Radio />} label={translate('pages.personal.settings.webhook')} />
            </RadioGroup>
            <TextField
              label={translate('pages.personal.settings.threshold')}
              type="number"
              value={form.quota_warning_threshold}
              onChange={set('quota_warning_threshold')}
              helperText={
                Number.isFinite(threshold) && threshold > 0
                  ? translate('pages.personal.settings.threshold_hint', { value: formatQuota(threshold, quotaPerUnit) })
                  : ' '
              }
            />
            <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
              {THRESHOLD_PRESETS.map((preset) => (
                <Chip
                  key={preset}
                  label={`${preset.toLocaleString()} (${formatQuota(preset, quotaPerUnit)})`}
                  color={threshold === preset ? 'primary' : 'default'}
                  onClick={() => setForm((f) => ({ ...f, quota_warning_threshold: String(preset) }))}
                />
              ))}
            </Box>
            {form.notify_type === 'email' ? (
              <TextField
                label={translate('pages.personal.settings.notification_email')}
                type="email"
                value={form.notification_email}
                onChange={set('notification_email')}
                helperText={translate('pages.personal.settings.notification_email_hint')}
              />
            ) : (
              <>
                <TextField
                  label={translate('pages.personal.settings.webhook_url')}
                  value={form.webhook_url}
                  onChange={set('webhook_url')}
                  placeholder="https://"
                />
                <TextField
                  label={translate('pages.personal.settings.webhook_secret')}
                  type="password"
                  value={form.webhook_secret}
                  onChange={set('webhook_secret')}
                  autoComplete="off"
                  helperText={translate(
                    secretSet ? 'pages.personal.settings.secret_kept' : 'pages.personal.settings.secret_hint',
                  )}
                />
              </>
            )}
          </Stack>
        ) : (
          <Stack spacing={1}>
            <FormControlLabel
              control={
                <Checkbox
                  checked={form.accept_unset_model_ratio_model}
                  onChange={(e) => setForm((f) => ({ ...f, accept_unset_model_ratio_model: e.target.checked }))}
                />
              }
              label={translate('pages.personal.settings.accept_unset')}
            />
            <Typography variant="body2" color="text.secondary">
              {translate('pages.personal.settings.accept_unset_hint')}
            </Typography>
          </Stack>
        )}
        <Button variant="contained" onClick={save} disabled={busy} sx={{ mt: 2 }}>
          {translate('pages.common.save')}
        </Button>
      </CardContent>
    </Card>
  );
}
