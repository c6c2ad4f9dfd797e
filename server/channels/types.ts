/**
 * Channel types, as their providers declare them (server/relay/providers/<name>/channel-type.ts,
 * listed in providers/channel-types.ts), and what the channel checks read of them. Pure data with no
 * server imports, so the console imports it too.
 */
import type { ChannelTypeManifest } from '../relay/providers/manifest.js';
import { CHANNEL_TYPES } from '../relay/providers/channel-types.js';

export { CHANNEL_TYPES };
export type { ChannelTypeManifest };

export type ChannelType = keyof typeof CHANNEL_TYPES;

export const CHANNEL_TYPE_IDS = Object.keys(CHANNEL_TYPES).map(Number) as ChannelType[];

export function isChannelType(type: number): type is ChannelType {
  return Object.hasOwn(CHANNEL_TYPES, type);
}

export function manifestOf(type: number): ChannelTypeManifest | undefined {
  return isChannelType(type) ? CHANNEL_TYPES[type] : undefined;
}

/** Types whose upstream address has no default and is not derived from a region must be given one. */
export function baseUrlRequired(type: ChannelType): boolean {
  const manifest: ChannelTypeManifest = CHANNEL_TYPES[type];
  return manifest.defaultBaseUrl === '' && !manifest.baseUrlFromRegion;
}

/** Every type needs a key but those that serve without (Ollama). */
export function keyRequired(type: number): boolean {
  return !manifestOf(type)?.keyOptional;
}

/** Whether several keys are a JSON array (Vertex AI's multi-line service-account keys), not lines. */
export function keysAreJsonArray(type: number): boolean {
  return manifestOf(type)?.keys === 'json-array';
}

/** What an empty `other` is stored as (iFlytek: its default API version); null when it stays empty. */
export function otherDefault(type: number): string | null {
  return manifestOf(type)?.other?.default ?? null;
}

// ---- Channel status ----

export const CHANNEL_ENABLED = 1;
export const CHANNEL_MANUALLY_DISABLED = 2;
export const CHANNEL_AUTO_DISABLED = 3;
