/**
 * Disabling and enabling single keys of a multi-key channel. A key that fails hard (what would
 * disable a one-key channel: a 401, a keyword of AutomaticDisableKeywords) is disabled on its own;
 * the channel is disabled only once none of its keys is left, and comes back when an admin enables
 * one of them again.
 */
import type { GatewayContext } from '../../context.js';
import type { Channel } from '../../db/types.js';
import { setChannelStatus } from '../status.js';
import { CHANNEL_AUTO_DISABLED, CHANNEL_ENABLED, CHANNEL_MANUALLY_DISABLED } from '../types.js';
import { keysOfChannel } from './parse.js';
import type { ChosenKey } from './picker.js';
import { disableKey, enableKeys, findDisabledKeysOf } from './repository.js';
import { KEYS_TOPIC } from './states.js';

type KeyContext = Pick<GatewayContext, 'db' | 'bus'>;

export const ALL_KEYS_DISABLED = '所有密钥均已禁用';

/** Disables the channel once every key is; returns whether it did. */
async function disableWhenNoKeyLeft(ctx: KeyContext, channel: Channel, reason: string): Promise<boolean> {
  const { hashes } = keysOfChannel(channel);
  const disabled = new Set((await findDisabledKeysOf(ctx.db, channel.id)).map((r) => r.key_hash));
  if (!hashes.every((h) => disabled.has(h))) return false;
  return setChannelStatus(ctx, channel.id, CHANNEL_AUTO_DISABLED, `${ALL_KEYS_DISABLED}：${reason}`.slice(0, 500));
}

/** The relay's hard failure on one key: that key is disabled (once, whichever process sees it first). */
export async function disableFailedKey(ctx: KeyContext, key: ChosenKey, reason: string): Promise<void> {
  if (!(await disableKey(ctx.db, key.source.id, key.hash, CHANNEL_AUTO_DISABLED, reason))) return;
  ctx.bus.publish(KEYS_TOPIC, String(key.source.id));
  await disableWhenNoKeyLeft(ctx, key.source, reason);
}

/** An admin disables a key by hand. */
export async function disableKeyByHand(ctx: KeyContext, channel: Channel, hash: string, reason: string): Promise<void> {
  await disableKey(ctx.db, channel.id, hash, CHANNEL_MANUALLY_DISABLED, reason);
  ctx.bus.publish(KEYS_TOPIC, String(channel.id));
  await disableWhenNoKeyLeft(ctx, channel, reason);
}

/**
 * Enables keys again (all of them when `hashes` is null). A channel disabled automatically — for
 * want of keys or otherwise — is enabled with them: an admin asked for these keys to serve.
 */
export async function enableChannelKeys(ctx: KeyContext, channel: Channel, hashes: readonly string[] | null): Promise<number> {
  const count = await enableKeys(ctx.db, channel.id, hashes);
  ctx.bus.publish(KEYS_TOPIC, String(channel.id));
  if (channel.status === CHANNEL_AUTO_DISABLED) await setChannelStatus(ctx, channel.id, CHANNEL_ENABLED, '密钥已重新启用');
  return count;
}
