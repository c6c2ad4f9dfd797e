/**
 * Which key of a multi-key channel a call uses. Disabled keys are never used and keys cooling down
 * are skipped while others are left. `polling` takes the keys in turn; `random` spreads calls at
 * random — except on providers that cache prompts per account, where a user keeps to one key (a
 * stable hash of the user id over the usable keys, so losing a key moves only its own users).
 *
 * The call gets a copy of the channel holding just that key, so providers use it as they use any
 * key; `chosenKeyOf` tells, for such a copy, which key it was (the health reports need it).
 */
import type { Channel } from '../../db/types.js';
import type { ChannelHealth } from '../health/tracker.js';
import { keySubject } from '../health/tracker.js';
import { keysOfChannel, modeOf } from './parse.js';
import type { KeyStates } from './states.js';
import { CHANNEL_TYPES, CHANNEL_TYPE_IDS, type ChannelTypeManifest } from '../types.js';

export interface ChosenKey {
  index: number;
  hash: string;
  /** The channel as stored, with every key. */
  source: Channel;
}

const chosen = new WeakMap<Channel, ChosenKey>();

export function chosenKeyOf(channel: Channel): ChosenKey | undefined {
  return chosen.get(channel);
}

/**
 * Channel types whose providers cache prompts per account or key (their manifests say
 * `promptCache`): a user's calls stay on one key there, so the cache built by one call serves the next.
 */
const PROMPT_CACHE_TYPES: ReadonlySet<number> = new Set(
  CHANNEL_TYPE_IDS.filter((type) => (CHANNEL_TYPES[type] as ChannelTypeManifest).promptCache),
);

/** A 32-bit mix of two numbers (a user and a key): the highest wins the user. */
function score(user: number, seed: number): number {
  let h = Math.imul(user ^ seed, 0x9e3779b1);
  h ^= h >>> 15;
  h = Math.imul(h, 0x85ebca77);
  h ^= h >>> 13;
  return h >>> 0;
}

type Pickers = { health: ChannelHealth; channelKeys: KeyStates };

/**
 * The channel as the call should use it: itself when it has one key, else a copy holding the
 * chosen key. `userId` keeps a user on one key where that helps (0: no user, e.g. a test).
 */
export function withKey(ctx: Pickers, channel: Channel, userId: number, random: () => number = Math.random): Channel {
  const { keys, hashes, seeds } = keysOfChannel(channel);
  if (keys.length <= 1) return channel;
  const disabled = ctx.channelKeys.disabledOf(channel.id);
  let enabled = keys.map((_, i) => i).filter((i) => !disabled.has(hashes[i] ?? ''));
  // Every key disabled: the channel is on its way to being disabled; until then any key serves.
  if (enabled.length === 0) enabled = keys.map((_, i) => i);
  const subject = (i: number) => keySubject(channel.id, hashes[i] ?? '');
  const usable = enabled.filter((i) => ctx.health.usable(subject(i)));
  const pool = usable.length > 0 ? usable : [ctx.health.leastRecentlyTripped(enabled, subject) ?? 0];
  let index: number;
  if (modeOf(channel) === 'polling') index = pool[ctx.channelKeys.nextTurn(channel.id) % pool.length] ?? 0;
  else if (userId > 0 && PROMPT_CACHE_TYPES.has(channel.type)) {
    let best = -1;
    index = pool[0] ?? 0;
    for (const i of pool) {
      const s = score(userId, seeds[i] ?? 0);
      if (s > best) [best, index] = [s, i];
    }
  } else index = pool[Math.floor(random() * pool.length)] ?? 0;
  ctx.health.claim(subject(index));
  return copyWithKey(channel, index);
}

function copyWithKey(channel: Channel, index: number): Channel {
  const { keys, hashes } = keysOfChannel(channel);
  const copy = { ...channel, key: keys[index] ?? '' };
  chosen.set(copy, { index, hash: hashes[index] ?? '', source: channel });
  return copy;
}

/** The key a channel test uses: the first enabled one, else (every key disabled) the first. */
export function withTestKey(ctx: Pick<Pickers, 'channelKeys'>, channel: Channel): Channel {
  const { hashes } = keysOfChannel(channel);
  if (hashes.length <= 1) return channel;
  const disabled = ctx.channelKeys.disabledOf(channel.id);
  return copyWithKey(
    channel,
    Math.max(
      0,
      hashes.findIndex((h) => !disabled.has(h)),
    ),
  );
}

/**
 * The channel with the key whose hash is `hash`, when that key is still enabled and not cooling
 * down (a session pinned to it, routing/affinity.ts); undefined otherwise.
 */
export function withPinnedKey(ctx: Pickers, channel: Channel, hash: string): Channel | undefined {
  const { hashes } = keysOfChannel(channel);
  if (hashes.length <= 1) return undefined;
  const index = hashes.indexOf(hash);
  if (index < 0 || ctx.channelKeys.disabledOf(channel.id).has(hash)) return undefined;
  const subject = keySubject(channel.id, hash);
  if (!ctx.health.usable(subject)) return undefined;
  ctx.health.claim(subject);
  return copyWithKey(channel, index);
}
