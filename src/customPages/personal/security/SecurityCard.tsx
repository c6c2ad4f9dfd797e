/** The personal page's sign-in security: two-factor sign-in and passkeys. */
import { useTranslate } from 'react-admin';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { SiteStatus } from '../../../status/status';
import { PasskeySection } from './PasskeySection';
import { TwoFactorSection } from './TwoFactorSection';

export function SecurityCard({ status }: { status: SiteStatus | null }) {
  const translate = useTranslate();
  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="h6" gutterBottom>
          {translate('security.personal.title')}
        </Typography>
        <Stack spacing={2} divider={<Divider flexItem />}>
          <TwoFactorSection />
          <PasskeySection enabled={status?.passkey_login === true} />
        </Stack>
      </CardContent>
    </Card>
  );
}
