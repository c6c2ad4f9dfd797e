/**
 * The wallet's subscriptions: each active one with what its period has left, when it resets and
 * when it ends, and the billing preference that decides whether calls draw on them or the wallet.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useGateway } from '../../api/customMethods';
import type { BillingPreference } from '../../api/subscriptionMethods';
import { formatTimestamp } from '../../resources/schema';
import { formatQuota } from '../../status/status';
import { errorMessage } from '../shared/errors';

const PREFERENCES: BillingPreference[] = ['subscription_first', 'wallet_first', 'subscription_only', 'wallet_only'];
const T = 'subscriptions';

export function SubscriptionsCard({ quotaPerUnit }: { quotaPerUnit?: number | undefined }) {
  const translate = useTranslate();
  const notify = useNotify();
  const gateway = useGateway();
  const queryClient = useQueryClient();
  const { data, error } = useQuery({ queryKey: ['subscriptions-self'], queryFn: () => gateway.getMySubscriptions() });
  const quota = (n: number) => formatQuota(n, quotaPerUnit);

  const choose = async (preference: BillingPreference) => {
    try {
      await gateway.setBillingPreference(preference);
      notify(`${T}.preference_saved`, { type: 'success' });
      await queryClient.invalidateQueries({ queryKey: ['subscriptions-self'] });
    } catch (err) {
      notify(errorMessage(err), { type: 'error' });
    }
  };

  return (
    <Card variant="outlined">
      <CardContent>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} justifyContent="space-between" sx={{ mb: 1 }}>
          <Typography variant="h6" component="h2" sx={{ flexShrink: 0 }}>
            {translate(`${T}.title`)}
          </Typography>
          {data && (
            <TextField
              select
              size="small"
              label={translate(`${T}.preference`)}
              value={data.billing_preference}
              onChange={(e) => void choose(e.target.value as BillingPreference)}
              sx={{ minWidth: { xs: '100%', sm: 260 } }}
            >
              {PREFERENCES.map((p) => (
                <MenuItem key={p} value={p}>
                  {translate(`${T}.preferences.${p}`)}
                </MenuItem>
              ))}
            </TextField>
          )}
        </Stack>
        {error && <Typography color="error">{translate(errorMessage(error))}</Typography>}
        {data && data.subscriptions.length === 0 && <Typography color="text.secondary">{translate(`${T}.none`)}</Typography>}
        <Stack spacing={2}>
          {data?.subscriptions.map(({ subscription: s, plan }) => {
            const left = s.amount_total - s.amount_used;
            const share = s.amount_total > 0 ? Math.max(0, Math.min(100, (left / s.amount_total) * 100)) : 0;
            return (
              <Stack key={s.id} spacing={0.5} aria-label={plan?.title ?? `#${s.plan_id}`}>
                <Typography variant="subtitle1">{plan?.title ?? `#${s.plan_id}`}</Typography>
                <Typography variant="body2">
                  {translate(`${T}.remaining`)}: {translate(`${T}.of_total`, { left: quota(left), total: quota(s.amount_total) })}
                </Typography>
                <LinearProgress variant="determinate" value={share} />
                <Typography variant="body2" color="text.secondary">
                  {translate(`${T}.resets_at`)}:{' '}
                  {s.next_reset_time === null ? translate(`${T}.never_resets`) : formatTimestamp(s.next_reset_time)}
                  {' · '}
                  {translate(`${T}.ends_at`)}: {formatTimestamp(s.end_time)}
                </Typography>
              </Stack>
            );
          })}
        </Stack>
      </CardContent>
    </Card>
  );
}
