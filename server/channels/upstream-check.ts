/**
 * Upstream model-update detection, the working half: a channel's upstream model list is read with
 * the channel model fetch (fetch-models.ts), compared with the channel, and the result kept in its
 * settings; applying writes the chosen models (abilities rebuilt, the cluster told on the bus).
 * Each write re-reads the row first, so only these settings keys replace what an edit saved
 * meanwhile.
 */
import type { GatewayContext } from '../context.js';
import { nowSeconds } from '../db/index.js';
import type { Channel } from '../db/types.js';
import { fail } from '../http/errors.js';
import { checkModels } from './input.js';
import { fetchChannelModels } from './fetch-models.js';
import { findChannel, updateChannel } from './repository.js';
import { findEnabledChannels } from './list-repository.js';
import {
  AUTO_SYNC_ENABLED,
  applySelection,
  checkEnabled,
  checkedSettings,
  detectChanges,
  detectedSettings,
  parseSettings,
  pendingOf,
  type Applied,
  type Selection,
  type Settings,
} from './upstream-updates.js';

type Ctx = Pick<GatewayContext, 'db' | 'bus'>;

export interface Detected {
  channel_id: number;
  channel_name: string;
  add_models: string[];
  remove_models: string[];
  last_check_time: number;
  auto_added_models: number;
}

/** The enabled channels that opted into the check. */
export async function checkedChannels(ctx: Pick<GatewayContext, 'db'>): Promise<Channel[]> {
  return (await findEnabledChannels(ctx.db)).filter((c) => checkEnabled(parseSettings(c.settings)));
}

async function fresh(ctx: Ctx, id: number): Promise<Channel> {
  const channel = await findChannel(ctx.db, id);
  if (!channel) throw fail('channel.not_found');
  return channel;
}

async function save(ctx: Ctx, id: number, settings: Settings, models?: string[]): Promise<void> {
  const changes = { settings: JSON.stringify(settings), ...(models ? { models: checkModels(models) } : {}) };
  if (!(await updateChannel(ctx.db, id, changes))) throw fail('channel.not_found');
  ctx.bus.publish('channel', String(id));
}

/**
 * Reads the upstream's list and records what changed. With `autoSync` (the background check of a
 * channel that opted into upstream_model_update_auto_sync_enabled) offered models are added at once.
 */
export async function detectChannel(ctx: Ctx, channel: Channel, autoSync = false): Promise<Detected> {
  let upstream: string[];
  try {
    upstream = await fetchChannelModels(channel);
  } catch (err) {
    const now = await fresh(ctx, channel.id);
    await save(ctx, channel.id, checkedSettings(parseSettings(now.settings), nowSeconds()));
    throw err;
  }
  const now = await fresh(ctx, channel.id);
  const settings = parseSettings(now.settings);
  const found = detectChanges(now.models, now.model_mapping, upstream, settings);
  const checkTime = nowSeconds();
  let recorded = detectedSettings(settings, found, checkTime);
  let autoAdded = 0;
  if (autoSync && settings[AUTO_SYNC_ENABLED] === true && found.add.length > 0) {
    const applied = applySelection(now.models, recorded, { add_models: found.add }, checkTime);
    recorded = applied.settings;
    autoAdded = applied.added.length;
    await save(ctx, channel.id, recorded, applied.models);
  } else {
    await save(ctx, channel.id, recorded);
  }
  const pending = pendingOf(recorded);
  return {
    channel_id: channel.id,
    channel_name: now.name,
    add_models: pending.add,
    remove_models: pending.remove,
    last_check_time: checkTime,
    auto_added_models: autoAdded,
  };
}

/** Applies a choice among a channel's pending changes; refused (nothing written) if it would leave no model. */
export async function applyChannel(ctx: Ctx, id: number, selection: Selection): Promise<Applied> {
  const channel = await fresh(ctx, id);
  const applied = applySelection(channel.models, parseSettings(channel.settings), selection, nowSeconds());
  await save(ctx, id, applied.settings, applied.models);
  return applied;
}
