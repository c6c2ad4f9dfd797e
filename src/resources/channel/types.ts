import type { ChannelView } from '../../../server/channels/schemas';
import {
  CHANNEL_AUTO_DISABLED,
  CHANNEL_ENABLED,
  CHANNEL_MANUALLY_DISABLED,
  CHANNEL_TYPES,
  isChannelType,
} from '../../../server/shared';

export type { ChannelView };

/**
 * Tag mode: one row standing for every channel of a tag on the page (the server answers them flat;
 * the console groups them, see tagRows.ts). Status is enabled when any child is; priority, weight
 * and type are those of the first child (children are in list order); models and groups are the
 * union of the children's; quota and balance are sums.
 */
export interface ChannelTagRow {
  /** `tag:<tag>`, so it never collides with a channel id. */
  id: string;
  is_tag: true;
  tag: string;
  name: string;
  type: number;
  status: number;
  priority: number;
  weight: number;
  models: string;
  group: string;
  used_quota: number;
  balance: number;
  /** Mean of the tested children's response times (ms); 0 when none was tested. */
  response_time: number;
  created_time: number;
  children: ChannelView[];
}

/** A row of the list: a channel, or in tag mode one row standing for a tag's channels. */
export type ChannelRow = ChannelView | ChannelTagRow;

export { CHANNEL_AUTO_DISABLED, CHANNEL_ENABLED, CHANNEL_MANUALLY_DISABLED, CHANNEL_TYPES, isChannelType };

export function isTagRow(row: ChannelRow): row is ChannelTagRow {
  return 'is_tag' in row && row.is_tag === true;
}

/** The provider name of a channel type, or undefined for a type the console does not know. */
export function typeName(type: number): string | undefined {
  return isChannelType(type) ? CHANNEL_TYPES[type].name : undefined;
}

export function defaultBaseUrl(type: number): string {
  return isChannelType(type) ? CHANNEL_TYPES[type].defaultBaseUrl : '';
}

/** Every channel type as a select choice, in id order. */
export const TYPE_CHOICES = Object.entries(CHANNEL_TYPES).map(([id, info]) => ({ id: Number(id), name: info.name }));

/** Comma-separated list → trimmed, non-empty, de-duplicated entries. */
export function splitNames(value: string | null | undefined): string[] {
  if (!value) return [];
  return [
    ...new Set(
      value
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    ),
  ];
}

/** Spec 4: 0 untested; up to 1 s green; up to 3 s lime; up to 5 s yellow; above red. */
export type ResponseSpeed = 'untested' | 'green' | 'lime' | 'yellow' | 'red';

/** Response times are milliseconds. */
export function responseSpeed(ms: number): ResponseSpeed {
  if (!ms) return 'untested';
  if (ms <= 1000) return 'green';
  if (ms <= 3000) return 'lime';
  if (ms <= 5000) return 'yellow';
  return 'red';
}

/** What an automatic status change left in `other_info`. */
export interface StatusInfo {
  status_reason?: string;
  status_time?: number;
}

export function statusInfo(otherInfo: string | null | undefined): StatusInfo {
  if (!otherInfo) return {};
  try {
    const parsed: unknown = JSON.parse(otherInfo);
    return typeof parsed === 'object' && parsed !== null ? (parsed as StatusInfo) : {};
  } catch {
    return {};
  }
}

export const PRIORITY_MIN = -999;

/**
 * An inline priority or weight value: blank is ignored (undefined), anything else is read
 * as an integer (NaN when it is not a number); a weight below 0 becomes 0.
 */
export function parseInlineNumber(text: string, kind: 'priority' | 'weight'): number | undefined {
  if (text.trim() === '') return undefined;
  const n = Math.trunc(Number(text));
  if (!Number.isFinite(n)) return Number.NaN;
  return kind === 'weight' ? Math.max(0, n) : n;
}
