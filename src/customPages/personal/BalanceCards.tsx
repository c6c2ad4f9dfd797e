/** Balance, spent quota and request count of the signed-in user. */
import { useTranslate } from 'react-admin';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import type { SelfUser } from '../../../server/users/schemas';
import { formatQuota } from '../../status/status';

export function BalanceCards({ user }: { user: SelfUser }) {
  const translate = useTranslate();
  const stats = [
    { key: 'balance', value: formatQuota(user.quota) },
    { key: 'used', value: formatQuota(user.used_quota) },
    { key: 'requests', value: user.request_count.toLocaleString() },
  ];
  return (
    <Grid container spacing={2}>
      {stats.map((stat) => (
        <Grid key={stat.key} size={{ xs: 12, sm: 4 }}>
          <Card variant="outlined">
            <CardContent>
              <Typography variant="body2" color="text.secondary">
                {translate(`pages.personal.stats.${stat.key}`)}
              </Typography>
              <Typography variant="h5" component="p" aria-label={translate(`pages.personal.stats.${stat.key}`)}>
                {stat.value}
              </Typography>
            </CardContent>
          </Card>
        </Grid>
      ))}
    </Grid>
  );
}
