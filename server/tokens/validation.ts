/** The rules a token's fields and status changes obey. Each refusal throws `fail` before anything is written. */
import type { Token } from '../db/types.js';
import { fail } from '../http/errors.js';
import { parseAllowIps } from './allow-ips.js';
import { normalizeModelLimits } from './model-limits.js';
import type { TokenFields } from './repository.js';
import { isExhausted, isExpired, NEVER_EXPIRES, TOKEN_DISABLED, TOKEN_ENABLED } from './status.js';
import { INT32_MAX } from '../http/schemas.js';

export const NAME_MAX_LENGTH = 30;

export interface ValidationContext {
  now: number;
  usableGroups: ReadonlySet<string>;
  /**
   * The stored values when updating. An unchanged expiry, quota or group is not judged again (against
   * the clock, the relay's deductions, today's group list), so an old token can still be renamed.
   */
  previous?: TokenFields;
}

/** Checks and normalizes the fields of a new or edited token. */
export function validateTokenFields(input: TokenFields, context: ValidationContext): TokenFields {
  const name = input.name.trim();
  if (!name) throw fail('token.name_required');
  if ([...name].length > NAME_MAX_LENGTH) throw fail('token.name_too_long');

  const quota = input.remain_quota;
  if (quota !== context.previous?.remain_quota) {
    if (!Number.isInteger(quota)) throw fail('token.quota_not_integer');
    if (quota < 0) throw fail('token.quota_negative');
    if (quota > Number.MAX_SAFE_INTEGER) throw fail('token.quota_too_large');
  }

  const expiry = input.expired_time;
  if (!Number.isSafeInteger(expiry) || (expiry < 0 && expiry !== NEVER_EXPIRES)) throw fail('token.expiry_invalid');
  if (expiry !== context.previous?.expired_time && isExpired(expiry, context.now)) throw fail('token.expiry_past');

  const group = input.group.trim();
  if (group && group !== context.previous?.group && !context.usableGroups.has(group))
    throw fail('token.group_unusable', { group });

  const tpm = input.tpm_limit;
  if (!Number.isInteger(tpm) || tpm < 0 || tpm > INT32_MAX) throw fail('token.tpm_limit_invalid', { max: INT32_MAX });

  for (const name of ['max_concurrency', 'rpm_limit', 'rpd_limit'] as const) {
    const n = input[name];
    if (!Number.isInteger(n) || n < 0 || n > INT32_MAX) throw fail('token.request_limit_invalid', { max: INT32_MAX });
  }

  const ips = parseAllowIps(input.allow_ips);
  if (!ips.ok) throw fail('token.ip_invalid', { line: ips.line });

  return {
    name,
    remain_quota: quota,
    expired_time: expiry,
    unlimited_quota: input.unlimited_quota,
    model_limits_enabled: input.model_limits_enabled,
    model_limits: normalizeModelLimits(input.model_limits),
    allow_ips: ips.lines.join('\n'),
    group,
    tpm_limit: tpm,
    max_concurrency: input.max_concurrency,
    rpm_limit: input.rpm_limit,
    rpd_limit: input.rpd_limit,
    log_bodies: input.log_bodies,
  };
}

/**
 * A user may set 1 (enabled) or 2 (disabled). Enabling needs a token that is neither past its
 * expiry nor out of quota, whatever its current status says.
 */
export function checkStatusChange(token: Token, status: number | undefined, now: number): number {
  if (status !== TOKEN_ENABLED && status !== TOKEN_DISABLED) throw fail('token.status_invalid');
  if (status === TOKEN_ENABLED) {
    if (isExpired(token.expired_time, now)) throw fail('token.enable_expired');
    if (isExhausted({ remain_quota: token.remain_quota, unlimited_quota: token.unlimited_quota === 1 })) {
      throw fail('token.enable_exhausted');
    }
  }
  return status;
}
