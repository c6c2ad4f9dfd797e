/** /topup, the wallet: the balance, one's subscriptions, the plans on sale, redeeming a code, online top-up (EPay, and Stripe or Creem when on), and one's top-up orders. */
import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useGateway } from '../../api/customMethods';
import { formatQuota, useStatus } from '../../status/status';
import { errorMessage } from '../shared/errors';
import { CardTopUpCard } from './CardTopUpCard';
import { MyOrdersCard } from './MyOrdersCard';
import { OnlineTopUpCard } from './OnlineTopUpCard';
import { PlanShopCard } from './PlanShopCard';
import { RedeemCard } from './RedeemCard';
import { SubscriptionsCard } from './SubscriptionsCard';

export default function TopUpPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const { status } = useStatus();
  const gateway = useGateway();
  const self = useQuery({ queryKey: ['self'], queryFn: () => gateway.getSelf(), retry: false });
  const user = self.data ?? null;
  const { error, refetch } = self;
  useEffect(() => {
    if (error) notify(errorMessage(error), { type: 'error' });
  }, [error, notify]);
  // A redeemed code reads the balance again.
  const load = () => void refetch();

  return (
    <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 } }}>
      <Typography variant="h5" component="h1">
        {translate('wallet.title')}
      </Typography>
      <Card variant="outlined">
        <CardContent>
          <Typography variant="body2" color="text.secondary">
            {translate('wallet.balance')}
          </Typography>
          <Typography variant="h4" component="p" aria-label={translate('wallet.balance')}>
            {user ? formatQuota(user.quota, status?.quota_per_unit || undefined) : '…'}
          </Typography>
        </CardContent>
      </Card>
      <SubscriptionsCard quotaPerUnit={status?.quota_per_unit || undefined} />
      <PlanShopCard quotaPerUnit={status?.quota_per_unit || undefined} />
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 6 }}>
          <RedeemCard topUpLink={status?.top_up_link ?? ''} onRedeemed={load} />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <OnlineTopUpCard status={status} />
        </Grid>
      </Grid>
      <CardTopUpCard />
      <MyOrdersCard />
    </Stack>
  );
}
