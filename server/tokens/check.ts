/** The relay's checks of a token it has found by key (the lookup itself is TokenCache.get). */
import type { BlockList } from 'node:net';
import { ipAllowed } from './allow-ips.js';
import { isExhausted, isExpired, TOKEN_ENABLED, TOKEN_EXHAUSTED, TOKEN_EXPIRED } from './status.js';

/** What the relay needs of a token, parsed once when cached. */
export interface CachedToken {
  id: number;
  user_id: number;
  name: string;
  /** The stored key, without `sk-`. */
  key: string;
  status: number;
  expired_time: number;
  remain_quota: number;
  unlimited_quota: boolean;
  model_limits_enabled: boolean;
  model_limits: ReadonlySet<string>;
  /** null: every address may use the token. */
  allow_ips: BlockList | null;
  /** Empty: the owner's group. */
  group: string;
}

export const TOKEN_CHECK_MESSAGES = {
  missing: '未提供令牌',
  invalid: '无效的令牌',
  unavailable: '该令牌状态不可用',
  expired: '该令牌已过期',
  exhausted: '该令牌额度已用尽',
  ipNotAllowed: '您的 IP 不在令牌允许访问的列表中',
} as const;

export type TokenCheck =
  | { ok: true }
  /** `mark`: the status the relay should store for the token (3 expired, 4 exhausted). */
  | { ok: false; status: number; message: string; mark?: 3 | 4 };

/**
 * In the reference order: enabled; not expired (else mark 3); quota left unless unlimited (else
 * mark 4); the client address on the allow list when there is one. A token already marked 3 or 4
 * is refused with the matching message.
 */
export function checkToken(token: CachedToken, now: number, clientIp: string): TokenCheck {
  if (token.status !== TOKEN_ENABLED) {
    const message =
      token.status === TOKEN_EXPIRED
        ? TOKEN_CHECK_MESSAGES.expired
        : token.status === TOKEN_EXHAUSTED
          ? TOKEN_CHECK_MESSAGES.exhausted
          : TOKEN_CHECK_MESSAGES.unavailable;
    return { ok: false, status: 401, message };
  }
  if (isExpired(token.expired_time, now)) {
    return { ok: false, status: 401, message: TOKEN_CHECK_MESSAGES.expired, mark: TOKEN_EXPIRED };
  }
  if (isExhausted(token)) {
    return { ok: false, status: 401, message: TOKEN_CHECK_MESSAGES.exhausted, mark: TOKEN_EXHAUSTED };
  }
  if (token.allow_ips && !ipAllowed(token.allow_ips, clientIp)) {
    return { ok: false, status: 403, message: TOKEN_CHECK_MESSAGES.ipNotAllowed };
  }
  return { ok: true };
}
