/** The rules of a redemption code's fields; each refusal throws `fail` before anything is written. */
import { fail } from '../http/errors.js';
import { MAX_BATCH, MAX_NAME_LENGTH, REDEMPTION_DISABLED, REDEMPTION_UNUSED } from './schemas.js';

/** Quota above this could not be added to a balance exactly. */
const MAX_QUOTA = 1e15;

export function checkName(input: string | undefined): string {
  const name = (input ?? '').trim();
  // Characters, not UTF-16 units: a 20-character Chinese name is fine.
  const length = [...name].length;
  if (length < 1 || length > MAX_NAME_LENGTH) throw fail('redemption.name_length', { max: MAX_NAME_LENGTH });
  return name;
}

export function checkQuota(quota: number): number {
  if (!Number.isInteger(quota) || quota < 1 || quota > MAX_QUOTA) throw fail('redemption.quota_invalid');
  return quota;
}

export function checkCount(count: number): number {
  if (!Number.isInteger(count) || count < 1) throw fail('redemption.count_not_positive');
  if (count > MAX_BATCH) throw fail('redemption.count_too_large', { max: MAX_BATCH });
  return count;
}

/** Empty means any group; anything else must be a group that exists. */
export function checkGroup(input: string | undefined, groups: readonly string[]): string {
  const group = (input ?? '').trim();
  if (group !== '' && !groups.includes(group)) throw fail('redemption.group_missing', { group });
  return group;
}

/** An admin may enable or disable a code; the "used" state only comes from redeeming it. */
export function checkStatus(status: number | undefined): number {
  if (status !== REDEMPTION_UNUSED && status !== REDEMPTION_DISABLED) throw fail('redemption.status_invalid');
  return status;
}

/** 0 never expires; anything else is a whole Unix second not before `now`. */
export function checkExpiry(expiredTime: number, now: number): number {
  // A safe integer: a larger one is stored as REAL by SQLite and overflows PostgreSQL's and MySQL's bigint.
  if (!Number.isSafeInteger(expiredTime) || expiredTime < 0) throw fail('redemption.expiry_invalid');
  if (expiredTime !== 0 && expiredTime < now) throw fail('redemption.expiry_past');
  return expiredTime;
}

/** Whether a code with this expiry can no longer be redeemed at `now`. */
export function isExpired(expiredTime: number, now: number): boolean {
  return expiredTime !== 0 && expiredTime < now;
}
