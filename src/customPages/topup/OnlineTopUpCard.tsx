/**
 * Online top-up: an amount, its price (POST /api/user/amount, by the person's group), a payment
 * method (zfb Alipay, wx WeChat Pay), a confirmation, then the signed form from POST /api/user/pay
 * posted to the payment provider.
 */
import { useEffect, useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useGateway } from '../../api/customMethods';
import type { PaymentMethod } from '../../api/walletMethods';
import { formatQuota, type SiteStatus } from '../../status/status';
import { errorMessage } from '../shared/errors';
import { creditedQuota, initialAmount, normalizeAmount, submitPayment } from './topupForm';

type Method = PaymentMethod;
const METHODS: { method: Method; label: string }[] = [
  { method: 'zfb', label: 'wallet.online.alipay' },
  { method: 'wx', label: 'wallet.online.wechat' },
];

interface Pending {
  method: Method;
  amount: number;
  money: number;
}

const yuan = (money: number) => money.toFixed(2);

export function OnlineTopUpCard({ status }: { status: SiteStatus | null }) {
  const translate = useTranslate();
  const notify = useNotify();
  const enabled = status?.enable_online_topup ?? false;
  const min = status?.min_topup ?? 1;
  const inCurrency = status?.display_in_currency ?? true;
  const quotaPerUnit = status?.quota_per_unit || 500000;
  const [text, setText] = useState(() => String(initialAmount(min)));
  const [touched, setTouched] = useState(false);
  // The amount last priced: set once typing pauses.
  const [asked, setAsked] = useState<number | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);

  // The minimum may arrive after the first render: start from it until the person types.
  useEffect(() => {
    if (!touched) setText(String(initialAmount(min)));
  }, [min, touched]);

  const amount = Number(text);
  const priced = enabled && Number.isInteger(amount) && amount >= Math.max(1, min);

  // The price follows the amount, asked once typing pauses.
  useEffect(() => {
    if (!priced) return;
    const timer = setTimeout(() => setAsked(amount), 300);
    return () => clearTimeout(timer);
  }, [priced, amount]);
  const gateway = useGateway();
  const price = useQuery({
    queryKey: ['topup-price', asked],
    queryFn: () => gateway.getTopUpPrice(asked ?? 0),
    enabled: priced && asked === amount,
    retry: false,
  });
  // Only the price of the amount shown; a failed pricing shows none (the confirmation asks again).
  const money = priced && asked === amount ? (price.data ?? null) : null;

  const failed = (err: unknown) => notify(errorMessage(err), { type: 'error' });
  const pricing = useMutation({
    mutationFn: (wanted: { method: Method; amount: number }) => gateway.getTopUpPrice(wanted.amount),
    onSuccess: (cost, wanted) => setPending({ ...wanted, money: cost }),
    onError: failed,
  });
  const paying = useMutation({
    mutationFn: (order: Pending) => gateway.startPayment(order.amount, order.method),
    onSuccess: (form) => {
      setPending(null);
      if (!submitPayment(form.url, form.fields)) notify('wallet.online.bad_url', { type: 'error' });
    },
    onError: failed,
  });
  const busy = pricing.isPending || paying.isPending;

  const start = (method: Method) => {
    if (!enabled) {
      notify('wallet.online.disabled', { type: 'error' });
      return;
    }
    const value = normalizeAmount(text);
    setText(String(value));
    if (value < min) {
      notify('wallet.online.below_min', { type: 'error', messageArgs: { min } });
      return;
    }
    pricing.mutate({ method, amount: value });
  };

  const pay = () => {
    if (pending) paying.mutate(pending);
  };

  const received = formatQuota(creditedQuota(normalizeAmount(text), inCurrency, quotaPerUnit), quotaPerUnit);
  return (
    <Card variant="outlined" sx={{ height: '100%' }}>
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {translate('wallet.online.title')}
        </Typography>
        {!enabled && (
          <Alert severity="info" sx={{ mb: 2 }}>
            {translate('wallet.online.disabled')}
          </Alert>
        )}
        <Stack spacing={2}>
          <TextField
            label={translate(inCurrency ? 'wallet.online.amount_currency' : 'wallet.online.amount_quota')}
            type="number"
            value={text}
            onChange={(e) => {
              setTouched(true);
              setText(e.target.value);
            }}
            onBlur={() => setText(String(normalizeAmount(text)))}
            helperText={translate('wallet.online.min_hint', { min })}
            size="small"
            slotProps={{ htmlInput: { min: 1, step: 1 } }}
          />
          <Typography variant="body2">{translate('wallet.online.receive', { amount: received })}</Typography>
          {money !== null && (
            <Typography variant="body1" aria-live="polite">
              {translate('wallet.online.pay', { money: translate('wallet.online.money', { money: yuan(money) }) })}
            </Typography>
          )}
          <Stack direction="row" spacing={1}>
            {METHODS.map(({ method, label }) => (
              <Button key={method} variant="contained" disabled={busy} onClick={() => start(method)}>
                {translate(label)}
              </Button>
            ))}
          </Stack>
        </Stack>
      </CardContent>
      <Dialog open={pending !== null} onClose={() => setPending(null)} fullWidth maxWidth="xs">
        <DialogTitle>{translate('wallet.online.confirm_title')}</DialogTitle>
        {pending && (
          <DialogContent>
            <Stack spacing={1}>
              <Typography>{`${translate('wallet.online.confirm_amount')}: ${pending.amount}`}</Typography>
              <Typography>
                {`${translate('wallet.online.confirm_receive')}: ${formatQuota(creditedQuota(pending.amount, inCurrency, quotaPerUnit), quotaPerUnit)}`}
              </Typography>
              <Typography>
                {`${translate('wallet.online.confirm_money')}: ${translate('wallet.online.money', { money: yuan(pending.money) })}`}
              </Typography>
              <Typography>
                {`${translate('wallet.online.confirm_method')}: ${translate(METHODS.find((m) => m.method === pending.method)?.label ?? '')}`}
              </Typography>
            </Stack>
          </DialogContent>
        )}
        <DialogActions>
          <Button onClick={() => setPending(null)}>{translate('pages.common.cancel')}</Button>
          <Button variant="contained" disabled={busy} onClick={pay}>
            {translate('wallet.online.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </Card>
  );
}
