/**
 * The create/edit form of a token, as pure functions: presets and defaults, the expiry
 * text ⇄ Unix seconds conversion, validation, the request body and batch names.
 */
import type { Validator } from 'react-admin';
import { formatTimestamp } from '../schema';
import { NEVER_EXPIRES, type CreateTokenBody } from './types';

export const QUOTA_PRESETS = [500000, 5000000, 25000000, 50000000, 250000000, 500000000] as const;
export const COUNT_PRESETS = [10, 20, 30, 100] as const;
export const DEFAULT_QUOTA = 500000;

/** Expiry shortcuts: seconds from now, or null for "never". */
export const EXPIRY_SHORTCUTS = [
  { key: 'never', seconds: null },
  { key: 'hour', seconds: 3600 },
  { key: 'day', seconds: 86400 },
  { key: 'month', seconds: 30 * 86400 },
] as const;

/** What a new token's form starts with. */
export const CREATE_DEFAULTS = {
  name: '',
  remain_quota: DEFAULT_QUOTA,
  unlimited_quota: false,
  expired_time: String(NEVER_EXPIRES),
  model_limits_enabled: false,
  model_limits: '',
  allow_ips: '',
  group: '',
  tpm_limit: 0,
  max_concurrency: 0,
  rpm_limit: 0,
  rpd_limit: 0,
  log_bodies: false,
  count: 1,
};

/** Unix seconds as the expiry text: `-1` for never, else local `yyyy-MM-dd HH:mm:ss`. */
export function formatExpiry(seconds: number): string {
  return seconds === NEVER_EXPIRES ? String(NEVER_EXPIRES) : formatTimestamp(seconds);
}

/** The expiry text `seconds` from `now` (milliseconds), or `-1` when `seconds` is null. */
export function expiryFromNow(seconds: number | null, now = Date.now()): string {
  return seconds === null ? String(NEVER_EXPIRES) : formatTimestamp(Math.floor(now / 1000) + seconds);
}

const DATE_TIME = /^(\d{4})-(\d{1,2})-(\d{1,2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?$/;

/**
 * The expiry as Unix seconds: `-1` (text or number) for never, a stored number as is, or local
 * `yyyy-MM-dd HH:mm:ss` (seconds optional). Null when it is none of these, including impossible
 * dates like 2025-02-30.
 */
export function parseExpiry(value: unknown): number | null {
  if (typeof value === 'number') return Number.isInteger(value) && (value === NEVER_EXPIRES || value >= 0) ? value : null;
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (text === String(NEVER_EXPIRES)) return NEVER_EXPIRES;
  const match = DATE_TIME.exec(text);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const date = new Date(year, month - 1, day, hour, minute, second);
  const same =
    date.getFullYear() === year &&
    date.getMonth() === month - 1 &&
    date.getDate() === day &&
    date.getHours() === hour &&
    date.getMinutes() === minute;
  return same ? Math.floor(date.getTime() / 1000) : null;
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || String(value).trim() === '';
}

export const validateName: Validator = (value) => (isBlank(value) ? 'resources.token.validation.name_required' : undefined);

export const validateExpiry: Validator = (value) =>
  parseExpiry(value) === null ? 'resources.token.validation.expiry_invalid' : undefined;

/** A non-negative whole quota, unless the token is unlimited (then the input is off). */
export const validateQuota: Validator = (value, values: Record<string, unknown>) => {
  if (values.unlimited_quota) return undefined;
  const quota = Number(value);
  if (isBlank(value) || !Number.isInteger(quota)) return 'resources.token.validation.quota_invalid';
  return quota < 0 ? 'resources.token.validation.quota_negative' : undefined;
};

/** Tokens per minute: a whole number from 0 (no limit). */
export const validateTpm: Validator = (value) => {
  if (isBlank(value)) return undefined;
  const tpm = Number(value);
  return Number.isInteger(tpm) && tpm >= 0 && tpm <= 2147483647 ? undefined : 'resources.token.validation.tpm_invalid';
};

export const validateRequestLimit: Validator = (value) => {
  if (isBlank(value)) return undefined;
  const n = Number(value);
  return Number.isInteger(n) && n >= 0 && n <= 2147483647 ? undefined : 'resources.token.validation.limit_invalid';
};

export const validateCount: Validator = (value) => {
  const count = Number(value);
  return isBlank(value) || !Number.isInteger(count) || count < 1 ? 'resources.token.validation.count_invalid' : undefined;
};

/** The fields of POST /api/token/ (and of PUT with the id) from the form's values. */
export function toTokenBody(values: Record<string, unknown>): Required<CreateTokenBody> {
  const expiry = parseExpiry(values.expired_time);
  return {
    name: String(values.name ?? '').trim(),
    remain_quota: Math.trunc(Number(values.remain_quota) || 0),
    expired_time: expiry ?? NEVER_EXPIRES,
    unlimited_quota: Boolean(values.unlimited_quota),
    model_limits_enabled: Boolean(values.model_limits_enabled),
    model_limits: String(values.model_limits ?? ''),
    allow_ips: String(values.allow_ips ?? ''),
    group: String(values.group ?? ''),
    tpm_limit: Math.trunc(Number(values.tpm_limit) || 0),
    max_concurrency: Math.trunc(Number(values.max_concurrency) || 0),
    rpm_limit: Math.trunc(Number(values.rpm_limit) || 0),
    rpd_limit: Math.trunc(Number(values.rpd_limit) || 0),
    log_bodies: Boolean(values.log_bodies),
  };
}

const SUFFIX_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** Six random letters or digits. */
export function randomSuffix(length = 6): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (b) => SUFFIX_ALPHABET[b % SUFFIX_ALPHABET.length]).join('');
}

/** The names of a batch: the first token keeps the name, each further one gets `-` and a random suffix. */
export function batchNames(name: string, count: number, suffix: () => string = randomSuffix): string[] {
  return Array.from({ length: Math.max(1, Math.trunc(count)) }, (_, i) => (i === 0 ? name : `${name}-${suffix()}`));
}
