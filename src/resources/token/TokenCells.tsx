import { Box, Chip } from '@mui/material';
import { useTranslate } from 'react-admin';
import { formatQuota } from '../../status/status';
import { formatTimestamp } from '../schema';
import {
  KEY_PREFIX,
  NEVER_EXPIRES,
  TOKEN_DISABLED,
  TOKEN_ENABLED,
  TOKEN_EXHAUSTED,
  TOKEN_EXPIRED,
  type TokenRecord,
} from './types';

const STATUS_LABELS = {
  [TOKEN_ENABLED]: ['enabled', 'success'],
  [TOKEN_DISABLED]: ['disabled', 'default'],
  [TOKEN_EXPIRED]: ['expired', 'warning'],
  [TOKEN_EXHAUSTED]: ['exhausted', 'error'],
} as const satisfies Record<number, readonly [string, 'success' | 'default' | 'warning' | 'error']>;

/** 1 enabled (marked when limited to some models), 2 disabled, 3 expired, 4 exhausted. */
export function TokenStatusCell({ record }: { record: TokenRecord }) {
  const translate = useTranslate();
  const known = STATUS_LABELS[record.status as keyof typeof STATUS_LABELS] as (typeof STATUS_LABELS)[1] | undefined;
  const [key, color] = known ?? (['unknown', 'default'] as const);
  const label =
    record.status === TOKEN_ENABLED && record.model_limits_enabled
      ? translate('resources.token.statuses.enabled_limited')
      : translate(`resources.token.statuses.${key}`);
  return <Chip size="small" variant="outlined" color={color} label={label} />;
}

export function RemainQuotaCell({ record }: { record: TokenRecord }) {
  const translate = useTranslate();
  return <>{record.unlimited_quota ? translate('resources.token.unlimited') : formatQuota(record.remain_quota)}</>;
}

export function ExpiryCell({ record }: { record: TokenRecord }) {
  const translate = useTranslate();
  return (
    <>
      {record.expired_time === NEVER_EXPIRES ? translate('resources.token.never_expires') : formatTimestamp(record.expired_time)}
    </>
  );
}

/** The masked key as the person knows it, with its `sk-` prefix. */
export function KeyCell({ record }: { record: TokenRecord }) {
  return (
    <Box component="code" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
      {`${KEY_PREFIX}${record.key}`}
    </Box>
  );
}
