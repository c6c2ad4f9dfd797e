/**
 * Card top-up, shown when the admin turned Stripe or Creem on: with Stripe an amount, its price
 * (POST /api/user/stripe/amount) and the Checkout page; with Creem one of the fixed products. The
 * person is sent to the provider's page; the balance moves once its webhook says paid.
 */
import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useGateway } from '../../api/customMethods';
import { errorMessage } from '../shared/errors';
import { followCheckout, normalizeAmount } from './topupForm';

interface Product {
  productId: string;
  name: string;
  price: number;
  currency: string;
}

function productsOf(text: string | undefined): Product[] {
  try {
    const list: unknown = JSON.parse(text ?? '[]');
    return Array.isArray(list) ? (list as Product[]) : [];
  } catch {
    return [];
  }
}

export function CardTopUpCard() {
  const translate = useTranslate();
  const notify = useNotify();
  const gateway = useGateway();
  const info = useQuery({ queryKey: ['topup-info'], queryFn: () => gateway.getTopUpInfo(), retry: false });
  const stripeMin = info.data?.stripe_min_topup ?? 1;
  // Null until the person types: the least amount is shown until then.
  const [text, setText] = useState<string | null>(null);
  const amount = normalizeAmount(text ?? String(stripeMin));
  const price = useQuery({
    queryKey: ['stripe-price', amount],
    queryFn: () => gateway.getStripePrice(amount),
    enabled: info.data?.enable_stripe_topup === true && amount >= stripeMin,
    retry: false,
  });
  const failed = (err: unknown) => notify(errorMessage(err), { type: 'error' });
  const follow = (url: string) => {
    if (!followCheckout(url)) notify('wallet.online.bad_url', { type: 'error' });
  };
  const stripe = useMutation({ mutationFn: () => gateway.startStripePayment(amount), onSuccess: follow, onError: failed });
  const creem = useMutation({ mutationFn: (id: string) => gateway.startCreemPayment(id), onSuccess: follow, onError: failed });
  const busy = stripe.isPending || creem.isPending;
  if (!info.data || (!info.data.enable_stripe_topup && !info.data.enable_creem_topup)) return null;
  const products = info.data.enable_creem_topup ? productsOf(info.data.creem_products) : [];

  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {translate('wallet.card.title')}
        </Typography>
        <Stack spacing={2}>
          {info.data.enable_stripe_topup && (
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
              <TextField
                label={translate('wallet.card.amount')}
                type="number"
                size="small"
                value={text ?? String(stripeMin)}
                onChange={(e) => setText(e.target.value)}
                helperText={translate('wallet.online.min_hint', { min: stripeMin })}
                slotProps={{ htmlInput: { min: stripeMin, step: 1 } }}
              />
              <Typography variant="body2" aria-live="polite" sx={{ minWidth: 120 }}>
                {price.data !== undefined ? translate('wallet.card.price', { money: price.data.toFixed(2) }) : ''}
              </Typography>
              <Button variant="contained" disabled={busy || amount < stripeMin} onClick={() => stripe.mutate()}>
                {translate('wallet.card.pay_stripe')}
              </Button>
            </Stack>
          )}
          {products.length > 0 && (
            <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
              {products.map((p) => (
                <Button key={p.productId} variant="outlined" disabled={busy} onClick={() => creem.mutate(p.productId)}>
                  {translate('wallet.card.product', { name: p.name, price: p.price.toFixed(2), currency: p.currency })}
                </Button>
              ))}
            </Stack>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}
