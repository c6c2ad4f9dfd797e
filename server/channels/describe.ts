/**
 * What the console's channel answers carry beyond the row: the channel's health (healthy, cooling
 * down until …, half-open, or disabled with its reason) and, for a multi-key channel, each key's
 * position, last four characters, status and health — never a key.
 */
import type { GatewayContext } from '../context.js';
import { channelSubject, keySubject, type HealthState } from './health/tracker.js';
import { keyHash, keyTail, modeOf, splitKeys } from './keys/parse.js';
import { findDisabledKeysIn, type DisabledKey } from './keys/repository.js';
import { findKeyFields } from './list-repository.js';
import type { ChannelHealthView, ChannelKeyView, ChannelView } from './schemas.js';
import { CHANNEL_ENABLED } from './types.js';

type DescribeContext = Pick<GatewayContext, 'db' | 'health'>;

const toView = (s: HealthState): ChannelHealthView => ({ ...s });

function statusReason(otherInfo: string): string {
  try {
    const info = JSON.parse(otherInfo || '{}') as { status_reason?: unknown };
    return typeof info.status_reason === 'string' ? info.status_reason : '';
  } catch {
    return '';
  }
}

function disabledView(reason: string): ChannelHealthView {
  return { state: 'disabled', until: 0, rule: '', reason, trips: 0, failures: 0, requests: 0 };
}

/** Fills in `health`, `keys` and `channel_info` of these views. */
export async function describeChannels(ctx: DescribeContext, views: readonly ChannelView[]): Promise<void> {
  if (views.length === 0) return;
  const ids = views.map((v) => v.id);
  const [fields, disabledRows] = await Promise.all([findKeyFields(ctx.db, ids), findDisabledKeysIn(ctx.db, ids)]);
  const disabled = new Map<string, DisabledKey>(disabledRows.map((r) => [`${r.channel_id}:${r.key_hash}`, r]));
  for (const view of views) {
    view.health =
      view.status === CHANNEL_ENABLED
        ? toView(ctx.health.stateOf(channelSubject(view.id)))
        : disabledView(statusReason(view.other_info));
    const field = fields.get(view.id);
    const keys = field ? splitKeys(field.key, field.type) : [];
    const multi = keys.length > 1;
    view.channel_info = { is_multi_key: multi, multi_key_size: keys.length, multi_key_mode: modeOf(view) };
    view.keys = multi
      ? keys.map((key, index): ChannelKeyView => {
          const hash = keyHash(key);
          const row = disabled.get(`${view.id}:${hash}`);
          return {
            index,
            tail: keyTail(key),
            status: row?.status ?? CHANNEL_ENABLED,
            reason: row?.reason ?? '',
            disabled_time: row?.disabled_time ?? 0,
            health: row ? disabledView(row.reason ?? '') : toView(ctx.health.stateOf(keySubject(view.id, hash))),
          };
        })
      : [];
  }
}
