/**
 * What the admins' model list shows beside a row: the served models it matches (every model an
 * enabled channel serves, from the channel cache), with their groups, billing types and channels.
 */
import type { ChannelCache } from '../channels/cache.js';
import type { ModelMeta } from '../db/types.js';
import type { OptionStore } from '../options/store.js';
import { pricingItems } from '../pricing/items.js';
import { matchesRule } from './name-rules.js';
import type { ModelView } from './schemas.js';

type Served = Pick<ModelView, 'matched_models' | 'matched_count' | 'enable_groups' | 'quota_types' | 'bound_channels'>;

export function servedFor(
  ctx: { options: OptionStore; channels: ChannelCache },
  rows: readonly ModelMeta[],
): Map<number, Served> {
  const items = pricingItems(ctx);
  const out = new Map<number, Served>();
  for (const row of rows) {
    const matched = items.filter((item) => matchesRule(row.name_rule, row.model_name, item.model_name));
    const groups = new Set<string>();
    const quotaTypes = new Set<number>();
    const channels = new Map<number, { name: string; type: number }>();
    for (const item of matched) {
      quotaTypes.add(item.quota_type);
      for (const group of item.enable_groups) {
        groups.add(group);
        for (const tier of ctx.channels.candidates(group, item.model_name)) {
          for (const { channel } of tier.candidates) channels.set(channel.id, { name: channel.name, type: channel.type });
        }
      }
    }
    out.set(row.id, {
      matched_models: matched.map((item) => item.model_name),
      matched_count: matched.length,
      enable_groups: [...groups].sort(),
      quota_types: [...quotaTypes].sort(),
      bound_channels: [...channels.values()],
    });
  }
  return out;
}
