import type { ReactNode } from 'react';
import { Box, Chip, Link, Stack, Typography } from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import { localizeRefusal } from '../../i18n/serverErrors';
import { formatQuota } from '../../status/status';
import { formatTimestamp } from '../schema';
import { SPEED_COLORS, firstTokenCategory, msToSeconds, retriedChannels, durationCategory } from './format';
import { useLogActions } from './LogActionsContext';
import { hasPricing, PricingDetails } from './PricingDetails';
import { LOG_TYPE, LOG_TYPE_LABELS, parseOther, type LogRecord } from './types';

type CellProps = { record: LogRecord };

/** Rows that carry a request's usage (tokens, timing, model). */
const hasUsage = (record: LogRecord) => record.type === LOG_TYPE.consume || record.type === LOG_TYPE.error;

function TimeCell({ record }: CellProps) {
  return <Box sx={{ whiteSpace: 'nowrap' }}>{formatTimestamp(record.created_at)}</Box>;
}

function ChannelCell({ record }: CellProps) {
  if (!record.channel) return null;
  return (
    <Stack direction="row" spacing={0.5} alignItems="center">
      <Chip size="small" variant="outlined" label={record.channel} />
      {record.channel_name && <Typography variant="body2">{record.channel_name}</Typography>}
    </Stack>
  );
}

function UsernameCell({ record }: CellProps) {
  const { lookUpUser } = useLogActions();
  if (!record.username) return null;
  return (
    <Link component="button" type="button" variant="body2" onClick={() => lookUpUser(record.user_id)}>
      {record.username}
    </Link>
  );
}

function TokenCell({ record }: CellProps) {
  return record.token_name ? <Chip size="small" variant="outlined" label={record.token_name} /> : null;
}

function GroupCell({ record }: CellProps) {
  return record.group ? <Chip size="small" variant="outlined" label={record.group} /> : null;
}

function TypeCell({ record }: CellProps) {
  const translate = useTranslate();
  const label = LOG_TYPE_LABELS[record.type];
  return (
    <Chip
      size="small"
      color={label?.color ?? 'default'}
      data-log-type={label?.key ?? 'unknown'}
      label={translate(`resources.log.types.${label?.key ?? 'unknown'}`)}
    />
  );
}

function ModelCell({ record }: CellProps) {
  if (!record.model_name) return null;
  const other = parseOther(record.other);
  const upstream = other.is_model_mapped && other.upstream_model_name ? other.upstream_model_name : null;
  return (
    <Box sx={{ whiteSpace: 'nowrap' }}>
      <Chip size="small" variant="outlined" label={record.model_name} />
      {upstream && <Typography component="span" variant="body2">{` → ${upstream}`}</Typography>}
    </Box>
  );
}

function UseTimeCell({ record }: CellProps) {
  const translate = useTranslate();
  if (!hasUsage(record)) return null;
  const other = parseOther(record.other);
  const durationClass = durationCategory(record.use_time);
  const frt = record.is_stream && other.frt ? Number(msToSeconds(other.frt)) : null;
  const frtCategory = frt === null ? null : firstTokenCategory(frt);
  return (
    <Stack direction="row" spacing={0.5} flexWrap="wrap" useFlexGap>
      <Chip
        size="small"
        color={SPEED_COLORS[durationClass]}
        data-speed={durationClass}
        data-testid="use-time"
        label={translate('resources.log.use_time.seconds', { n: record.use_time })}
      />
      {frt !== null && frtCategory && (
        <Chip
          size="small"
          color={SPEED_COLORS[frtCategory]}
          data-speed={frtCategory}
          data-testid="first-token-time"
          label={translate('resources.log.use_time.first_token', { n: frt.toFixed(1) })}
        />
      )}
      <Chip
        size="small"
        variant="outlined"
        label={translate(record.is_stream ? 'resources.log.use_time.stream' : 'resources.log.use_time.non_stream')}
      />
    </Stack>
  );
}

function PromptCell({ record }: CellProps) {
  return <>{hasUsage(record) ? record.prompt_tokens : ''}</>;
}

function CompletionCell({ record }: CellProps) {
  return <>{hasUsage(record) ? record.completion_tokens : ''}</>;
}

function QuotaCell({ record }: CellProps) {
  return <>{record.quota || record.type === LOG_TYPE.consume ? formatQuota(record.quota) : ''}</>;
}

function RetryCell({ record }: CellProps) {
  const translate = useTranslate();
  const channels = retriedChannels(parseOther(record.other));
  if (!channels) return null;
  return <Box sx={{ whiteSpace: 'nowrap' }}>{translate('resources.log.retry', { channels: channels.join(' → ') })}</Box>;
}

/** Values named `quota` or `*_quota` are quota amounts, shown in the console's own unit. */
const isQuotaValue = (name: string) => name === 'quota' || name.endsWith('_quota');

/**
 * A consume row's pricing from its `other` (the server's content says the same in Chinese, so it
 * is not shown twice); a row the gateway wrote about itself in the console's language, from
 * `other.message`, or a refusal of the gateway's from `other.refusal`; any other row's content (an
 * upstream's error, words of an older version).
 */
function DetailsCell({ record }: CellProps) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const other = parseOther(record.other);
  const priced = record.type === LOG_TYPE.consume && hasPricing(other);
  let text = record.content;
  if (other.refusal && typeof other.refusal.code === 'string') {
    text = localizeRefusal({ ...other.refusal, message: record.content }, locale === 'en' ? 'en' : 'zh');
  }
  if (!priced && other.message && typeof other.message.key === 'string') {
    const values = Object.fromEntries(
      Object.entries(other.message.values ?? {}).map(([name, v]) => [name, isQuotaValue(name) ? formatQuota(Number(v)) : v]),
    );
    text = translate(`resources.log.messages.${other.message.key}`, { ...values, _: record.content });
  }
  return (
    <Box sx={{ minWidth: 160, wordBreak: 'break-word' }}>
      {priced ? <PricingDetails other={other} /> : text && <Typography variant="body2">{text}</Typography>}
    </Box>
  );
}

/** The cell of each column (the column names are the ones remembered in `logs-columns`). */
export const CELLS = {
  time: TimeCell,
  channel: ChannelCell,
  username: UsernameCell,
  token: TokenCell,
  group: GroupCell,
  type: TypeCell,
  model: ModelCell,
  use_time: UseTimeCell,
  prompt: PromptCell,
  completion: CompletionCell,
  quota: QuotaCell,
  retry: RetryCell,
  details: DetailsCell,
} satisfies Record<string, (props: CellProps) => ReactNode>;
