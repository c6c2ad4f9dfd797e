/**
 * Per-account lockout, on top of the per-address limit on login: LOGIN_FAILURE_LIMIT failed logins
 * to one account within LOGIN_FAILURE_LIMIT_DURATION seconds lock that account for the same time,
 * whatever address the attempts come from; the right password is refused too until the lock ends.
 * Counts and locks live in the rate-limit and short-lived-value stores (Redis when configured), so
 * every gateway process sees them. Unknown login names are counted and locked the same way (by a
 * digest of the name): locking only real accounts would tell which names exist.
 */
import { createHash } from 'node:crypto';
import type { GatewayContext } from '../context.js';
import type { User } from '../db/types.js';
import { refuse } from '../http/errors.js';

/** The key an attempt is counted under: the account when the name finds one, else the name. */
export function accountKey(user: Pick<User, 'id'> | undefined, login: string): string {
  if (user) return `id:${user.id}`;
  return `name:${createHash('sha256').update(login.toLowerCase()).digest('hex').slice(0, 32)}`;
}

type Ctx = Pick<GatewayContext, 'config' | 'kv' | 'limiter'>;

/** Refuses (429) while the account is locked. */
export async function assertNotLocked(ctx: Ctx, key: string): Promise<void> {
  if ((await ctx.kv.get(`login-lock:${key}`)) === null) return;
  const minutes = Math.ceil(ctx.config.rateLimits.login.windowSeconds / 60);
  throw refuse(429, 'account.locked', { minutes });
}

/** Counts a failed login; the failure that reaches the limit locks the account for one window. */
export async function noteFailure(ctx: Ctx, key: string): Promise<void> {
  const { max, windowSeconds } = ctx.config.rateLimits.login;
  if (await ctx.limiter.hit(`login-fail:${key}`, max - 1, windowSeconds)) return;
  await ctx.kv.set(`login-lock:${key}`, '1', windowSeconds);
}

/** Whether the account is locked now. */
export async function isLocked(ctx: Pick<Ctx, 'kv'>, key: string): Promise<boolean> {
  return (await ctx.kv.get(`login-lock:${key}`)) !== null;
}
