/** /personal: the signed-in user's balance, models, invitations, account, sign-in security, bindings and settings. */
import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useGateway } from '../../api/customMethods';
import { useStatus } from '../../status/status';
import { errorMessage } from '../shared/errors';
import { AccountCard } from './AccountCard';
import { BalanceCards } from './BalanceCards';
import { BindingsCard } from './BindingsCard';
import { InviteCard } from './InviteCard';
import { ModelsCard } from './ModelsCard';
import { SettingsTabs } from './SettingsTabs';
import { SecurityCard } from './security/SecurityCard';

const DEFAULT_QUOTA_PER_UNIT = 500_000;

export default function PersonalPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const { status } = useStatus();
  const gateway = useGateway();
  const self = useQuery({ queryKey: ['self'], queryFn: () => gateway.getSelf(), retry: false });
  const user = self.data ?? null;
  const { error, refetch } = self;
  const failed = error ? errorMessage(error) : null;
  useEffect(() => {
    if (error) notify(errorMessage(error), { type: 'error' });
  }, [error, notify]);
  // A change made on a card reads the profile again.
  const load = () => void refetch();

  if (!user) {
    return failed ? (
      <Alert severity="error" sx={{ m: 2 }}>
        {translate(failed)}
      </Alert>
    ) : (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 8 }}>
        <CircularProgress aria-label={translate('pages.common.loading')} />
      </Box>
    );
  }

  const quotaPerUnit = status?.quota_per_unit || Number(localStorage.getItem('quota_per_unit')) || DEFAULT_QUOTA_PER_UNIT;
  return (
    <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 } }}>
      <Typography variant="h5" component="h1">
        {translate('pages.personal.title')}
      </Typography>
      <BalanceCards user={user} />
      <ModelsCard />
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 6 }}>
          <InviteCard user={user} quotaPerUnit={quotaPerUnit} onChange={load} />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <AccountCard key={user.display_name} user={user} onChange={load} />
        </Grid>
      </Grid>
      <SecurityCard status={status} />
      <BindingsCard user={user} status={status} onChange={load} />
      <SettingsTabs user={user} quotaPerUnit={quotaPerUnit} />
    </Stack>
  );
}
