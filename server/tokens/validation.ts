/** The rules a token's fields and status changes obey. Each refusal throws `fail` before anything is written. */
import type { Token } from '../db/types.js';
import { fail } from '../http/errors.js';
import { parseAllowIps } from './allow-ips.js';
import { normalizeModelLimits } from './model-limits.js';
import type { TokenFields } from './repository.js';
import { isExhausted, isExpired, NEVER_EXPIRES, TOKEN_DISABLED, TOKEN_ENABLED } from './status.js';

export const NAME_MAX_LENGTH = 30;

export const MESSAGES = {
  notFound: '令牌不存在',
  nameRequired: '令牌名称不能为空',
  nameTooLong: '令牌名称过长',
  quotaNotInteger: '令牌额度必须是整数',
  quotaNegative: '令牌额度不能小于0',
  quotaTooLarge: '令牌额度过大',
  expiryInvalid: '过期时间格式错误',
  expiryPast: '过期时间必须晚于当前时间，或设为 -1 表示永不过期',
  statusInvalid: '无效的令牌状态',
  enableExpired: '令牌已过期，无法启用，请先修改令牌过期时间，或者设置为永不过期',
  enableExhausted: '令牌可用额度已用尽，无法启用，请先修改令牌剩余额度，或者设置为无限额度',
  groupUnusable: (group: string) => `无权使用分组：${group}`,
  ipInvalid: (line: string) => `IP 白名单格式错误：“${line}”不是有效的 IP 地址或 CIDR（每行一个）`,
} as const;

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
  if (!name) throw fail(MESSAGES.nameRequired);
  if ([...name].length > NAME_MAX_LENGTH) throw fail(MESSAGES.nameTooLong);

  const quota = input.remain_quota;
  if (quota !== context.previous?.remain_quota) {
    if (!Number.isInteger(quota)) throw fail(MESSAGES.quotaNotInteger);
    if (quota < 0) throw fail(MESSAGES.quotaNegative);
    if (quota > Number.MAX_SAFE_INTEGER) throw fail(MESSAGES.quotaTooLarge);
  }

  const expiry = input.expired_time;
  if (!Number.isSafeInteger(expiry) || (expiry < 0 && expiry !== NEVER_EXPIRES)) throw fail(MESSAGES.expiryInvalid);
  if (expiry !== context.previous?.expired_time && isExpired(expiry, context.now)) throw fail(MESSAGES.expiryPast);

  const group = input.group.trim();
  if (group && group !== context.previous?.group && !context.usableGroups.has(group)) throw fail(MESSAGES.groupUnusable(group));

  const ips = parseAllowIps(input.allow_ips);
  if (!ips.ok) throw fail(MESSAGES.ipInvalid(ips.line));

  return {
    name,
    remain_quota: quota,
    expired_time: expiry,
    unlimited_quota: input.unlimited_quota,
    model_limits_enabled: input.model_limits_enabled,
    model_limits: normalizeModelLimits(input.model_limits),
    allow_ips: ips.lines.join('\n'),
    group,
  };
}

/**
 * A user may set 1 (enabled) or 2 (disabled). Enabling needs a token that is neither past its
 * expiry nor out of quota, whatever its current status says.
 */
export function checkStatusChange(token: Token, status: number | undefined, now: number): number {
  if (status !== TOKEN_ENABLED && status !== TOKEN_DISABLED) throw fail(MESSAGES.statusInvalid);
  if (status === TOKEN_ENABLED) {
    if (isExpired(token.expired_time, now)) throw fail(MESSAGES.enableExpired);
    if (isExhausted({ remain_quota: token.remain_quota, unlimited_quota: token.unlimited_quota === 1 })) {
      throw fail(MESSAGES.enableExhausted);
    }
  }
  return status;
}
