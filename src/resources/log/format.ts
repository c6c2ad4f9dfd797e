/**
 * Pure helpers of the usage logs: colour categories, number abbreviations, the default time
 * window and the query a set of filters sends.
 */
import type { LogOther } from './types';

/** How fast a request was: green, orange or red in the use-time cell. */
export type SpeedCategory = 'fast' | 'medium' | 'slow';

export const SPEED_COLORS: Record<SpeedCategory, 'success' | 'warning' | 'error'> = {
  fast: 'success',
  medium: 'warning',
  slow: 'error',
};

/** Use time in seconds: under 101 s green, under 300 s orange, else red. */
export function durationCategory(seconds: number): SpeedCategory {
  if (seconds < 101) return 'fast';
  if (seconds < 300) return 'medium';
  return 'slow';
}

/** First-token time in seconds: under 3 s green, under 10 s orange, else red. */
export function firstTokenCategory(seconds: number): SpeedCategory {
  if (seconds < 3) return 'fast';
  if (seconds < 10) return 'medium';
  return 'slow';
}

/** Milliseconds as seconds with one decimal. */
export function msToSeconds(ms: number): string {
  return (ms / 1000).toFixed(1);
}

/** Large numbers shortened: from 10 thousand as k, millions M, billions B. */
export function abbreviate(n: number): string {
  const short = (value: number, unit: string) => `${Number(value.toFixed(1))}${unit}`;
  const abs = Math.abs(n);
  if (abs >= 1e9) return short(n / 1e9, 'B');
  if (abs >= 1e6) return short(n / 1e6, 'M');
  if (abs >= 1e4) return short(n / 1e3, 'k');
  return String(n);
}

/** The channels a request went through, when it was retried on more than one. */
export function retriedChannels(other: LogOther): number[] | null {
  const used = other.admin_info?.use_channel;
  return used && used.length > 1 ? used : null;
}

/** Spec 9: the list opens on today, from midnight through one hour ahead (Unix seconds). */
export function defaultTimeRange(now = new Date()): { start_timestamp: number; end_timestamp: number } {
  const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  return {
    start_timestamp: Math.floor(midnight.getTime() / 1000),
    end_timestamp: Math.floor(now.getTime() / 1000) + 3600,
  };
}

/** Filter names the log API understands; admins' `username` and `channel` are ignored on /self. */
export const LOG_FILTERS = [
  'type',
  'username',
  'token_name',
  'model_name',
  'start_timestamp',
  'end_timestamp',
  'channel',
  'group',
] as const;

/** The query of a set of filters: known names only, text trimmed, empty values left out. */
export function logQuery(filter: Record<string, unknown>): URLSearchParams {
  const query = new URLSearchParams();
  for (const name of LOG_FILTERS) {
    const value = filter[name];
    if (value === undefined || value === null) continue;
    const text = String(value).trim();
    if (text !== '') query.set(name, text);
  }
  return query;
}

/** Unix seconds as the value of a `datetime-local` input (local time, to the second). */
export function toLocalInput(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || Number.isNaN(Number(seconds))) return '';
  const d = new Date(Number(seconds) * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** A `datetime-local` value (read as local time) as Unix seconds; empty stays empty. */
export function fromLocalInput(value: string): number | null {
  if (!value) return null;
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? null : Math.floor(ms / 1000);
}
