/** The relay's checks of a token it has found by key (the lookup itself is TokenCache.get). */
import type { BlockList } from 'node:net';
import type { RefusalCode } from '../http/refusals.js';
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
  /** Tokens per minute; 0 = no limit. */
  tpm_limit: number;
  /** Calls in flight, requests per minute and per day; 0 = no limit. */
  max_concurrency: number;
  rpm_limit: number;
  rpd_limit: number;
  /** The bodies of its calls are kept. */
  log_bodies: boolean;
}

export type TokenCheck =
  | { ok: true }
  /** `mark`: the status the relay should store for the token (3 expired, 4 exhausted). */
  | { ok: false; status: number; code: RefusalCode; mark?: 3 | 4 };

/**
 * In the reference order: enabled; not expired (else mark 3); quota left unless unlimited (else
 * mark 4); the client address on the allow list when there is one. A token already marked 3 or 4
 * is refused with the matching message.
 */
export function checkToken(token: CachedToken, now: number, clientIp: string): TokenCheck {
  if (token.status !== TOKEN_ENABLED) {
    const code =
      token.status === TOKEN_EXPIRED
        ? 'token_expired'
        : token.status === TOKEN_EXHAUSTED
          ? 'token_exhausted'
          : 'token_unavailable';
    return { ok: false, status: code === 'token_exhausted' ? 429 : 401, code };
  }
  if (isExpired(token.expired_time, now)) return { ok: false, status: 401, code: 'token_expired', mark: TOKEN_EXPIRED };
  if (isExhausted(token)) return { ok: false, status: 429, code: 'token_exhausted', mark: TOKEN_EXHAUSTED };
  if (token.allow_ips && !ipAllowed(token.allow_ips, clientIp)) return { ok: false, status: 403, code: 'token_ip_not_allowed' };
  return { ok: true };
}
