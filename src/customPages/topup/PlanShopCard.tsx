/**
 * The plans on sale (GET /api/subscription/plans), each with what it gives, and buying one: a
 * dialog offers the payment methods the admin turned on (EPay's, Stripe, Creem when the plan has a
 * Creem product), then the person goes to the provider as a top-up does. The subscription starts
 * once the provider's notice says paid. Hidden when no plan is on sale.
 */
import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useGateway } from '../../api/customMethods';
import type { EpayType } from '../../api/subscriptionMethods';
import type { PlanView } from '../../../server/subscriptions/schemas';
import type { TopUpInfo } from '../../../server/topup/schemas';
import { formatQuota } from '../../status/status';
import { errorMessage } from '../shared/errors';
import { EPAY_LABELS, followCheckout, submitPayment } from './topupForm';

const T = 'subscriptions.shop';
const PLAN = 'resources.subscription_plan';

type Method = { kind: 'epay'; type: EpayType } | { kind: 'stripe' } | { kind: 'creem' };

/** The methods that can pay for `plan` now: EPay's as the wallet lists them, Stripe, Creem with a product. */
function methodsFor(plan: PlanView, info: TopUpInfo | undefined): { method: Method; label: string }[] {
  if (!info) return [];
  const epay = info.enable_online_topup
    ? info.pay_methods
        .filter((m): m is typeof m & { type: EpayType } => m.type === 'alipay' || m.type === 'wxpay')
        .map((m) => ({ method: { kind: 'epay', type: m.type } as Method, label: EPAY_LABELS[m.type] ?? m.name }))
    : [];
  return [
    ...epay,
    ...(info.enable_stripe_topup ? [{ method: { kind: 'stripe' } as Method, label: `${T}.stripe` }] : []),
    ...(info.enable_creem_topup && plan.creem_product_id !== ''
      ? [{ method: { kind: 'creem' } as Method, label: `${T}.creem` }]
      : []),
  ];
}

/** How long a plan lasts, in the largest whole unit for a custom length. */
function duration(plan: PlanView): { key: string; n: number } {
  if (plan.duration_unit === 'permanent') return { key: 'permanent', n: 0 };
  if (plan.duration_unit !== 'custom') return { key: plan.duration_unit, n: plan.duration_value };
  const s = plan.custom_seconds;
  if (s > 0 && s % 86400 === 0) return { key: 'day', n: s / 86400 };
  if (s > 0 && s % 3600 === 0) return { key: 'hour', n: s / 3600 };
  return { key: 'second', n: s };
}

export function PlanShopCard({ quotaPerUnit }: { quotaPerUnit?: number | undefined }) {
  const translate = useTranslate();
  const gateway = useGateway();
  const plans = useQuery({ queryKey: ['subscription-plans'], queryFn: () => gateway.getPlansOnSale(), retry: false });
  const info = useQuery({ queryKey: ['topup-info'], queryFn: () => gateway.getTopUpInfo(), retry: false });
  const [chosen, setChosen] = useState<PlanView | null>(null);
  const buy = useMutation({
    mutationFn: async ({ plan, method }: { plan: PlanView; method: Method }): Promise<void> => {
      let followed: boolean;
      if (method.kind === 'epay') {
        const form = await gateway.buyPlanByEpay(plan.id, method.type);
        followed = submitPayment(form.url, form.fields);
      } else {
        const url = method.kind === 'stripe' ? await gateway.buyPlanByStripe(plan.id) : await gateway.buyPlanByCreem(plan.id);
        followed = followCheckout(url);
      }
      if (!followed) throw new Error('wallet.online.bad_url');
    },
  });
  const close = () => {
    setChosen(null);
    buy.reset();
  };
  if (!plans.data || plans.data.length === 0) return null;

  const price = (plan: PlanView) => translate(`${T}.price`, { price: plan.price_amount.toFixed(2), currency: plan.currency });
  const lasts = (plan: PlanView) => {
    const { key, n } = duration(plan);
    return translate(`${T}.durations.${key}`, { smart_count: n });
  };
  const methods = chosen ? methodsFor(chosen, info.data) : [];
  const failure = buy.error ? errorMessage(buy.error) : null;

  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {translate(`${T}.title`)}
        </Typography>
        <Grid container spacing={2}>
          {plans.data.map((plan) => (
            <Grid key={plan.id} size={{ xs: 12, sm: 6, lg: 4 }}>
              <Paper variant="outlined" sx={{ p: 2, height: '100%' }} role="group" aria-label={plan.title}>
                <Stack spacing={0.5} sx={{ height: '100%', overflowWrap: 'anywhere' }}>
                  <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
                    {plan.title}
                  </Typography>
                  {plan.subtitle && (
                    <Typography variant="body2" color="text.secondary">
                      {plan.subtitle}
                    </Typography>
                  )}
                  <Typography variant="h5" component="p">
                    {price(plan)}
                  </Typography>
                  <Typography variant="body2">{`${translate(`${T}.duration`)}: ${lasts(plan)}`}</Typography>
                  <Typography variant="body2">
                    {`${translate(`${T}.quota`)}: ${formatQuota(plan.total_amount, quotaPerUnit)}`}
                  </Typography>
                  <Typography variant="body2">
                    {`${translate(`${T}.reset`)}: ${translate(`${PLAN}.reset_periods.${plan.quota_reset_period}`, { _: plan.quota_reset_period })}`}
                  </Typography>
                  {plan.upgrade_group && (
                    <Typography variant="body2">{`${translate(`${T}.upgrade_group`)}: ${plan.upgrade_group}`}</Typography>
                  )}
                  {plan.max_purchase_per_user > 0 && (
                    <Typography variant="body2" color="text.secondary">
                      {translate(`${T}.limit`, { max: plan.max_purchase_per_user })}
                    </Typography>
                  )}
                  <Stack sx={{ flexGrow: 1, justifyContent: 'flex-end', pt: 1 }}>
                    <Button variant="contained" onClick={() => setChosen(plan)}>
                      {translate(`${T}.buy`)}
                    </Button>
                  </Stack>
                </Stack>
              </Paper>
            </Grid>
          ))}
        </Grid>
      </CardContent>
      <Dialog open={chosen !== null} onClose={close} fullWidth maxWidth="xs">
        <DialogTitle>{translate(`${T}.dialog_title`)}</DialogTitle>
        {chosen && (
          <DialogContent>
            <Stack spacing={1.5}>
              <Typography sx={{ overflowWrap: 'anywhere' }}>{`${chosen.title} · ${price(chosen)} · ${lasts(chosen)}`}</Typography>
              <Typography variant="body2" color="text.secondary">
                {translate(methods.length > 0 ? `${T}.choose_method` : `${T}.no_method`)}
              </Typography>
              <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
                {methods.map(({ method, label }) => (
                  <Button
                    key={method.kind === 'epay' ? method.type : method.kind}
                    variant="contained"
                    disabled={buy.isPending}
                    onClick={() => buy.mutate({ plan: chosen, method })}
                  >
                    {translate(label)}
                  </Button>
                ))}
              </Stack>
              {failure && <Alert severity="error">{translate(failure, { _: failure })}</Alert>}
            </Stack>
          </DialogContent>
        )}
        <DialogActions>
          <Button onClick={close}>{translate('pages.common.cancel')}</Button>
        </DialogActions>
      </Dialog>
    </Card>
  );
}
