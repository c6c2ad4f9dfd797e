/**
 * A channel's health in the list (column and phone card): healthy, cooling down until …, on
 * probation (the cool-down is over and the next call decides), or disabled — the why in a tooltip.
 */
import { Box, Chip, Tooltip } from '@mui/material';
import { useTranslate } from 'react-admin';
import { formatTimestamp } from '../schema';
import { isTagRow, type ChannelRow } from './types';
import type { ChannelHealthView } from '../../../server/channels/schemas';

const COLORS = { healthy: 'success', cooling: 'warning', half_open: 'info', disabled: 'default' } as const;

export function HealthChip({ health }: { health: ChannelHealthView }) {
  const translate = useTranslate();
  const h = 'resources.channel.health.';
  const label =
    health.state === 'cooling'
      ? translate(`${h}cooling`, { time: formatTimestamp(health.until) })
      : translate(`${h}${health.state}`);
  const rule = health.rule ? translate(`${h}rule_${health.rule}`, { failures: health.failures, requests: health.requests }) : '';
  let title = '';
  if (health.state === 'disabled') title = health.reason;
  else if (rule) title = translate(`${h}detail`, { rule, trips: health.trips, reason: health.reason || '-' });
  if (health.state === 'half_open') title = `${translate(`${h}half_open_hint`)}\n${title}`;
  const chip = <Chip size="small" variant="outlined" color={COLORS[health.state]} label={label} />;
  if (!title) return chip;
  return (
    <Tooltip title={<Box sx={{ whiteSpace: 'pre-line' }}>{title}</Box>}>
      <span>{chip}</span>
    </Tooltip>
  );
}

export function HealthCell({ record }: { record: ChannelRow }) {
  if (isTagRow(record) || !record.health) return null;
  return <HealthChip health={record.health} />;
}
