/**
 * Spark API versions: the websocket path and the `domain` parameter each one needs (iFlytek's
 * websocket reference: Lite v1.1/lite, Pro v3.1/generalv3, Pro-128K chat/pro-128k, Max
 * v3.5/generalv3.5, Max-32K chat/max-32k, 4.0 Ultra v4.0/4.0Ultra; the retired v2.1 was generalv2).
 * The version comes from a `SparkDesk-vX.Y` model name, else the channel's `other`, else v2.1.
 */
import { XUNFEI_DEFAULT_VERSION } from './channel-type.js';

export interface SparkVersion {
  path: string;
  domain: string;
}

const VERSIONS: Record<string, SparkVersion> = {
  'v1.1': { path: '/v1.1/chat', domain: 'lite' },
  'v2.1': { path: '/v2.1/chat', domain: 'generalv2' },
  'v3.1': { path: '/v3.1/chat', domain: 'generalv3' },
  'pro-128k': { path: '/chat/pro-128k', domain: 'pro-128k' },
  'v3.5': { path: '/v3.5/chat', domain: 'generalv3.5' },
  'max-32k': { path: '/chat/max-32k', domain: 'max-32k' },
  'v4.0': { path: '/v4.0/chat', domain: '4.0Ultra' },
};

/** The version a request uses. */
export function sparkVersionOf(model: string, other: string | null): string {
  const fromModel = /^SparkDesk-(v\d+\.\d+)$/i.exec(model)?.[1]?.toLowerCase();
  return fromModel ?? (other?.trim() || XUNFEI_DEFAULT_VERSION);
}

/** The path and domain of a version; null for an unknown version. */
export function sparkVersion(version: string): SparkVersion | null {
  return VERSIONS[version] ?? null;
}
