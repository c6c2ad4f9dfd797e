/** List cells of a redemption code: its status, the code itself, and who redeemed it. */
import { Box, Chip } from '@mui/material';
import { useTranslate } from 'react-admin';
import { formatTimestamp } from '../schema';
import { isExpired, NEVER_EXPIRES } from './redemptionForm';
import { REDEMPTION_DISABLED, REDEMPTION_UNUSED, REDEMPTION_USED, type RedemptionRecord } from './types';

const STATUS_LABELS = {
  [REDEMPTION_UNUSED]: ['unused', 'success'],
  [REDEMPTION_DISABLED]: ['disabled', 'default'],
  [REDEMPTION_USED]: ['used', 'warning'],
} as const satisfies Record<number, readonly [string, 'success' | 'default' | 'warning']>;

export function RedemptionStatusCell({ record }: { record: RedemptionRecord }) {
  const translate = useTranslate();
  // An unused code past its expiry can no longer be redeemed: it says so rather than "unused".
  if (record.status === REDEMPTION_UNUSED && isExpired(record.expired_time)) {
    return <Chip size="small" variant="outlined" color="error" label={translate('resources.redemption.statuses.expired')} />;
  }
  const known = STATUS_LABELS[record.status as keyof typeof STATUS_LABELS] as (typeof STATUS_LABELS)[1] | undefined;
  const [key, color] = known ?? (['unknown', 'default'] as const);
  return <Chip size="small" variant="outlined" color={color} label={translate(`resources.redemption.statuses.${key}`)} />;
}

export function CodeCell({ record }: { record: RedemptionRecord }) {
  return (
    <Box component="code" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
      {record.key}
    </Box>
  );
}

export function UsedByCell({ record }: { record: RedemptionRecord }) {
  const translate = useTranslate();
  return <>{record.used_user_id ? String(record.used_user_id) : translate('resources.redemption.none')}</>;
}

export function GroupCell({ record }: { record: RedemptionRecord }) {
  const translate = useTranslate();
  return <>{record.group || translate('resources.redemption.any_group')}</>;
}

export function ExpiryCell({ record }: { record: RedemptionRecord }) {
  const translate = useTranslate();
  return (
    <>
      {record.expired_time === NEVER_EXPIRES
        ? translate('resources.redemption.expiry.never')
        : formatTimestamp(record.expired_time)}
    </>
  );
}
