/**
 * The keys of a channel's key field: one per line, or — for Vertex AI, whose service-account keys
 * span several lines — a JSON array of service-account objects. A channel with one key is used as
 * it always was (the field whole); with several, each call uses one of them.
 */
import { createHash } from 'node:crypto';
import type { Channel } from '../../db/types.js';
import { keysAreJsonArray } from '../types.js';

export const MULTI_KEY_MODES = ['random', 'polling'] as const;
export type MultiKeyMode = (typeof MULTI_KEY_MODES)[number];

export function isMultiKeyMode(value: unknown): value is MultiKeyMode {
  return typeof value === 'string' && (MULTI_KEY_MODES as readonly string[]).includes(value);
}

/** The stored mode, random when unset or unknown. */
export function modeOf(channel: Pick<Channel, 'multi_key_mode'>): MultiKeyMode {
  return isMultiKeyMode(channel.multi_key_mode) ? channel.multi_key_mode : 'random';
}

function vertexKeys(text: string): string[] | null {
  if (!text.startsWith('[')) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed) || !parsed.every((k) => typeof k === 'object' && k !== null)) return null;
    return parsed.map((k) => JSON.stringify(k));
  } catch {
    return null;
  }
}

/** The distinct keys of a key field, in order; the field itself when it holds one key. */
export function splitKeys(key: string, type: number): string[] {
  const text = key.trim();
  if (keysAreJsonArray(type)) return vertexKeys(text) ?? [text];
  const lines = [...new Set(text.split(/\r?\n/).map((k) => k.trim()))].filter((k) => k !== '');
  return lines.length > 1 ? lines : [text];
}

/** A key's stable name in storage and across processes: never the key itself. */
export function keyHash(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 32);
}

/** What the console may see of a key: its last four characters. */
export function keyTail(key: string): string {
  const compact = key.replace(/\s+/g, '');
  return compact.length <= 8 ? '…' : `…${compact.slice(-4)}`;
}

/** The parsed keys of one channel row, with what choosing among them needs. */
export interface ChannelKeys {
  keys: string[];
  hashes: string[];
  /** 32-bit numbers from the hashes, for the per-user stable choice. */
  seeds: number[];
}

/** Channel rows are replaced whenever the channel index reloads, so parsing once per row object is enough. */
const parsed = new WeakMap<Channel, ChannelKeys>();

export function keysOfChannel(channel: Channel): ChannelKeys {
  let entry = parsed.get(channel);
  if (!entry) {
    const keys = splitKeys(channel.key, channel.type);
    const hashes = keys.map(keyHash);
    entry = { keys, hashes, seeds: hashes.map((h) => Number.parseInt(h.slice(0, 8), 16)) };
    parsed.set(channel, entry);
  }
  return entry;
}
