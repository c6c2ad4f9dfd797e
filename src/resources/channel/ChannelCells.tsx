import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Box, Chip, Stack, TextField, Tooltip } from '@mui/material';
import { useNotify, useRefresh, useTranslate } from 'react-admin';
import { formatQuota } from '../../status/status';
import { formatTimestamp } from '../schema';
import { useGateway } from '../../api/customMethods';
import {
  CHANNEL_AUTO_DISABLED,
  CHANNEL_ENABLED,
  CHANNEL_MANUALLY_DISABLED,
  isTagRow,
  parseInlineNumber,
  PRIORITY_MIN,
  responseSpeed,
  splitNames,
  statusInfo,
  typeName,
  type ChannelRow,
} from './types';

const failed = (err: unknown) => (err instanceof Error ? err.message : 'app.error.request_failed');

export function NameCell({ record }: { record: ChannelRow }) {
  const translate = useTranslate();
  if (isTagRow(record)) {
    return (
      <Stack direction="row" spacing={0.5} alignItems="center">
        <span>{record.tag}</span>
        <Chip
          size="small"
          color="info"
          variant="outlined"
          label={translate('resources.channel.tag_row', { count: record.children.length })}
        />
      </Stack>
    );
  }
  return (
    <Stack direction="row" spacing={0.5} alignItems="center" flexWrap="wrap" useFlexGap>
      <span>{record.name}</span>
      {record.tag && (
        <Chip size="small" variant="outlined" label={record.tag} aria-label={translate('resources.channel.fields.tag')} />
      )}
    </Stack>
  );
}

export function GroupsCell({ record }: { record: ChannelRow }) {
  return (
    <Stack direction="row" spacing={0.5} flexWrap="wrap" useFlexGap>
      {splitNames(record.group).map((group) => (
        <Chip key={group} size="small" variant="outlined" label={group} />
      ))}
    </Stack>
  );
}

export function TypeCell({ record }: { record: ChannelRow }) {
  const translate = useTranslate();
  return <>{typeName(record.type) ?? translate('resources.channel.unknown_type')}</>;
}

export function StatusCell({ record }: { record: ChannelRow }) {
  const translate = useTranslate();
  const [key, color] =
    record.status === CHANNEL_ENABLED
      ? (['enabled', 'success'] as const)
      : record.status === CHANNEL_MANUALLY_DISABLED
        ? (['disabled', 'error'] as const)
        : record.status === CHANNEL_AUTO_DISABLED
          ? (['auto_disabled', 'warning'] as const)
          : (['unknown', 'default'] as const);
  const chip = <Chip size="small" variant="outlined" color={color} label={translate(`resources.channel.statuses.${key}`)} />;
  if (record.status !== CHANNEL_AUTO_DISABLED || isTagRow(record)) return chip;
  const info = statusInfo(record.other_info);
  const title = (
    <Box sx={{ whiteSpace: 'pre-line' }}>
      {translate('resources.channel.status_reason', {
        reason: info.status_reason || translate('resources.channel.unknown_reason'),
        time: formatTimestamp(info.status_time) || '-',
      })}
    </Box>
  );
  return (
    <Tooltip title={title}>
      <span>{chip}</span>
    </Tooltip>
  );
}

const SPEED_COLORS = { untested: 'default', green: 'success', lime: 'info', yellow: 'warning', red: 'error' } as const;

/** Milliseconds shown in seconds; the colour category is exposed as `data-speed`. */
export function ResponseTimeCell({ record }: { record: ChannelRow }) {
  const translate = useTranslate();
  const speed = responseSpeed(record.response_time);
  const label =
    speed === 'untested'
      ? translate('resources.channel.untested')
      : translate('resources.channel.seconds', { seconds: (record.response_time / 1000).toFixed(2) });
  const sx = speed === 'lime' ? { color: '#4d7c0f', borderColor: '#84cc16' } : undefined;
  return <Chip size="small" variant="outlined" color={SPEED_COLORS[speed]} sx={sx} label={label} data-speed={speed} />;
}

/** A channel's balance, updated from the upstream on click; a tag row shows its children's sum. */
export function BalanceCell({ record }: { record: ChannelRow }) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const gateway = useGateway();
  const updating = useMutation({
    mutationFn: (id: number) => gateway.updateBalance(id),
    onSuccess: (balance) => {
      notify('resources.channel.notification.balance_updated', {
        type: 'success',
        messageArgs: { balance: balance.toFixed(2) },
      });
      refresh();
    },
    onError: (err: unknown) => notify(failed(err), { type: 'error' }),
  });
  const busy = updating.isPending;
  const label = `$${record.balance.toFixed(2)}`;
  if (isTagRow(record)) return <Chip size="small" variant="outlined" label={label} />;
  const update = () => updating.mutate(record.id);
  const updated = formatTimestamp(record.balance_updated_time);
  return (
    <Tooltip title={translate('resources.channel.balance_hint', { time: updated || translate('resources.channel.never') })}>
      <Chip size="small" variant="outlined" clickable disabled={busy} onClick={update} label={label} />
    </Tooltip>
  );
}

export function UsedQuotaCell({ record }: { record: ChannelRow }) {
  return <>{formatQuota(record.used_quota)}</>;
}

/**
 * Priority or weight edited in place; saved on blur or Enter as `{id, priority}` / `{id, weight}`
 * (a tag row changes every channel of the tag). Blank is ignored; a weight below 0 becomes 0. The
 * table keys it by the stored value, so a reloaded row starts from the saved number.
 */
export function InlineNumberCell({ record, kind }: { record: ChannelRow; kind: 'priority' | 'weight' }) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const stored = record[kind];
  const [text, setText] = useState(String(stored));
  const reset = () => setText(String(stored));
  const gateway = useGateway();
  const saving = useMutation({
    mutationFn: async (change: { priority: number } | { weight: number }) => {
      if (isTagRow(record)) await gateway.editTag({ tag: record.tag, ...change });
      else await gateway.quickUpdateChannel({ id: record.id, ...change });
    },
    onSuccess: () => {
      notify('resources.channel.notification.updated', { type: 'success' });
      refresh();
    },
    onError: (err: unknown) => {
      notify(failed(err), { type: 'error' });
      reset();
    },
  });
  const commit = () => {
    const value = parseInlineNumber(text, kind);
    if (value === undefined) return reset();
    if (Number.isNaN(value)) {
      notify(`resources.channel.validation.${kind}_integer`, { type: 'error' });
      return reset();
    }
    if (kind === 'priority' && value < PRIORITY_MIN) {
      notify('resources.channel.validation.priority_min', { type: 'error' });
      return reset();
    }
    setText(String(value));
    if (value === stored) return;
    const change = kind === 'priority' ? { priority: value } : { weight: value };
    saving.mutate(change);
  };
  return (
    <TextField
      size="small"
      type="number"
      value={text}
      onChange={(e) => setText(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') (e.target as HTMLInputElement).blur();
      }}
      onClick={(e) => e.stopPropagation()}
      sx={{ width: 90 }}
      slotProps={{
        htmlInput: {
          'aria-label': translate(`resources.channel.fields.${kind}`),
          step: 1,
          min: kind === 'priority' ? PRIORITY_MIN : 0,
        },
      }}
    />
  );
}
