/**
 * The create/edit form of redemption codes, as pure functions: presets and defaults,
 * validation and the request bodies.
 */
import type { Validator } from 'react-admin';
import { formatQuota } from '../../status/status';
import type { CreateRedemptionBody } from './types';

export const DEFAULT_QUOTA = 100000;
export const QUOTA_PRESETS = [500000, 5000000, 25000000, 50000000, 250000000, 500000000] as const;
export const COUNT_PRESETS = [10, 20, 30, 100] as const;
export const MAX_COUNT = 100;
export const MAX_NAME_LENGTH = 20;

/** `expired_time` of a code that never expires. */
export const NEVER_EXPIRES = 0;
/** What "expires" starts from when the person turns off "never expires": a week from now. */
export const DEFAULT_EXPIRY_SECONDS = 7 * 86_400;

export const CREATE_DEFAULTS = { name: '', quota: DEFAULT_QUOTA, count: 1, group: '', expired_time: NEVER_EXPIRES };

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || String(value).trim() === '';
}

/** Characters, not UTF-16 units, as the server counts them. */
const length = (text: string) => [...text].length;

/** On create an empty name is allowed: it becomes the formatted quota. */
export const validateCreateName: Validator = (value) =>
  !isBlank(value) && length(String(value).trim()) > MAX_NAME_LENGTH ? 'resources.redemption.validation.name_length' : undefined;

export const validateEditName: Validator = (value) =>
  isBlank(value) || length(String(value).trim()) > MAX_NAME_LENGTH ? 'resources.redemption.validation.name_length' : undefined;

export const validateQuota: Validator = (value) => {
  const quota = Number(value);
  return isBlank(value) || !Number.isInteger(quota) || quota < 1 ? 'resources.redemption.validation.quota' : undefined;
};

export const validateCount: Validator = (value) => {
  const count = Number(value);
  if (isBlank(value) || !Number.isInteger(count) || count < 1) return 'resources.redemption.validation.count_min';
  return count > MAX_COUNT ? 'resources.redemption.validation.count_max' : undefined;
};

/** The expiry as Unix seconds: 0 for never, a positive whole second otherwise; null when unreadable. */
export function parseExpiry(value: unknown): number | null {
  if (value === undefined || value === null || value === '') return null;
  const seconds = Number(value);
  return Number.isInteger(seconds) && seconds >= 0 ? seconds : null;
}

/** Whether an unused code with this expiry can no longer be redeemed at `now` (Unix seconds). */
export function isExpired(expiredTime: number, now = Math.floor(Date.now() / 1000)): boolean {
  return expiredTime !== NEVER_EXPIRES && expiredTime < now;
}

/** A date must be set once "never" is off; a new code's must lie ahead (an edited one may keep its own). */
export const validateExpiry =
  (mode: 'create' | 'edit'): Validator =>
  (value) => {
    const seconds = parseExpiry(value);
    if (seconds === null) return 'resources.redemption.validation.expiry_invalid';
    return mode === 'create' && isExpired(seconds) ? 'resources.redemption.validation.expiry_past' : undefined;
  };

/** POST /api/redemption/ from the form; an empty name becomes the formatted quota (e.g. `$0.20`). */
export function toCreateBody(values: Record<string, unknown>): Required<CreateRedemptionBody> {
  const quota = Math.trunc(Number(values.quota) || 0);
  const name = String(values.name ?? '').trim();
  return {
    name: name || formatQuota(quota),
    quota,
    count: Math.trunc(Number(values.count) || 0),
    group: String(values.group ?? ''),
    expired_time: parseExpiry(values.expired_time) ?? NEVER_EXPIRES,
  };
}

/** PUT /api/redemption/ from the edit form: the id and the editable fields only. */
export function toEditBody(values: Record<string, unknown>): Record<string, unknown> {
  return {
    id: values.id,
    name: String(values.name ?? '').trim(),
    quota: Math.trunc(Number(values.quota) || 0),
    group: String(values.group ?? ''),
    expired_time: parseExpiry(values.expired_time) ?? NEVER_EXPIRES,
  };
}
