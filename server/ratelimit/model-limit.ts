/**
 * The caller's limits, per user and cluster-wide when Redis is configured (limit-store.ts):
 *
 * - the model request rate limit (ModelRequestRateLimit*): within each window of DurationMinutes a
 *   user may send at most Count requests (0 = no limit; every request counts, refused ones
 *   included) and have at most SuccessCount of them answered successfully (counted after the
 *   answer). ModelRequestRateLimitGroup overrides both per group: `{"vip": [total, successes]}`;
 * - tokens per minute (TPM): the tokens billed (prompt + completion) in the sliding last minute, of
 *   the user — ModelRequestRateLimitTPM, per group ModelRequestRateLimitTPMGroup `{"vip": 200000}`,
 *   both under the same switch — and of the token (its own `tpm_limit`, whatever the switch). A
 *   call is refused while the minute already holds the limit or more; the call that crosses it is
 *   served whole.
 *
 * Checking costs one round trip to Redis (none while no limit applies to the caller); exceeding a
 * limit answers 429 in the client's error shape.
 */
import type { GatewayContext } from '../context.js';
import type { RelayCaller } from '../relay/types.js';
import { refuse, type AppError } from '../http/errors.js';

export interface ModelLimits {
  /** Requests per window; 0 = no limit. */
  total: number;
  /** Successful requests per window; 0 = no limit. */
  success: number;
  windowSeconds: number;
}

const count = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : null);

/** The limits that apply to `group` now, or null when the limit is off. */
export function modelLimitsFor(ctx: GatewayContext, group: string): ModelLimits | null {
  const o = ctx.options;
  if (!o.bool('ModelRequestRateLimitEnabled')) return null;
  const minutes = o.number('ModelRequestRateLimitDurationMinutes');
  if (!(minutes > 0)) return null;
  let total = Math.max(0, Math.floor(o.number('ModelRequestRateLimitCount')));
  let success = Math.max(0, Math.floor(o.number('ModelRequestRateLimitSuccessCount')));
  const groups = o.json<Record<string, unknown>>('ModelRequestRateLimitGroup');
  const pair = groups && typeof groups === 'object' && Object.hasOwn(groups, group) ? groups[group] : undefined;
  if (Array.isArray(pair) && pair.length === 2 && count(pair[0]) !== null && count(pair[1]) !== null) {
    total = pair[0] as number;
    success = pair[1] as number;
  }
  if (total === 0 && success === 0) return null;
  return { total, success, windowSeconds: Math.round(minutes * 60) };
}

function tooMany(limits: ModelLimits, max: number, successes: boolean): AppError {
  const minutes = limits.windowSeconds / 60;
  return refuse(429, successes ? 'success_rate_limit_exceeded' : 'rate_limit_exceeded', { minutes, max });
}

/** The user's tokens per minute in `group` now; 0 when off. */
export function userTpmLimitFor(ctx: GatewayContext, group: string): number {
  const o = ctx.options;
  if (!o.bool('ModelRequestRateLimitEnabled')) return 0;
  const groups = o.json<Record<string, unknown>>('ModelRequestRateLimitTPMGroup');
  const own = groups && typeof groups === 'object' && Object.hasOwn(groups, group) ? count(groups[group]) : null;
  return own ?? Math.max(0, Math.floor(o.number('ModelRequestRateLimitTPM')));
}

/** Whose requests are counted: relayed calls, realtime sessions and task submissions alike. */
export type LimitedCaller = Pick<RelayCaller, 'userId' | 'group'> & Partial<Pick<RelayCaller, 'tokenId' | 'tokenTpmLimit'>>;

/** The caller's sliding minutes of tokens that have a limit now. */
function tokenWindows(ctx: GatewayContext, caller: LimitedCaller): Array<{ key: string; max: number; who: 'user' | 'token' }> {
  const windows: Array<{ key: string; max: number; who: 'user' | 'token' }> = [];
  const user = userTpmLimitFor(ctx, caller.group);
  if (user > 0) windows.push({ key: `tpm:u:${caller.userId}`, max: user, who: 'user' });
  const token = caller.tokenTpmLimit ?? 0;
  if (token > 0 && caller.tokenId) windows.push({ key: `tpm:t:${caller.tokenId}`, max: token, who: 'token' });
  return windows;
}

/**
 * Before a relayed request: refuses it (429) when the caller is over a limit, else counts it.
 * Undefined when no limit applies: most calls have none, and the relay then waits for nothing.
 */
export function checkModelRateLimit(ctx: GatewayContext, caller: LimitedCaller): Promise<void> | undefined {
  const limits = modelLimitsFor(ctx, caller.group);
  const tokens = tokenWindows(ctx, caller);
  if (!limits && tokens.length === 0) return undefined;
  return admitWithin(ctx, caller, limits, tokens);
}

async function admitWithin(
  ctx: GatewayContext,
  caller: LimitedCaller,
  limits: ModelLimits | null,
  tokens: ReturnType<typeof tokenWindows>,
): Promise<void> {
  const admission = await ctx.limits.admit({
    successes: limits && limits.success > 0 ? { key: `ok:${caller.userId}`, max: limits.success } : undefined,
    requests:
      limits && limits.total > 0
        ? { key: `rq:${caller.userId}`, max: limits.total, windowSeconds: limits.windowSeconds }
        : undefined,
    tokens,
  });
  if (admission.ok) return;
  if (admission.limit === 'tokens') {
    const window = tokens[admission.index];
    throw refuse(429, window?.who === 'token' ? 'token_tpm_limit_exceeded' : 'tpm_limit_exceeded', { max: window?.max ?? 0 });
  }
  if (!limits) return;
  throw admission.limit === 'successes' ? tooMany(limits, limits.success, true) : tooMany(limits, limits.total, false);
}

/**
 * After a successful answer, before the client sees its end: counts it against the success limit
 * and adds its billed tokens to the caller's minutes. A counter that cannot be reached loses the
 * count rather than the answer. Undefined when there is nothing to count.
 */
export function recordModelSuccess(ctx: GatewayContext, caller: LimitedCaller, tokens = 0): Promise<void> | undefined {
  return record(ctx, caller, true, tokens);
}

/** Adds billed tokens (a realtime session's response) to the caller's minutes, without a success. */
export async function recordModelTokens(ctx: GatewayContext, caller: LimitedCaller, tokens: number): Promise<void> {
  await record(ctx, caller, false, tokens);
}

function record(ctx: GatewayContext, caller: LimitedCaller, success: boolean, tokens: number): Promise<void> | undefined {
  const limits = success ? modelLimitsFor(ctx, caller.group) : null;
  const windows = tokens > 0 ? tokenWindows(ctx, caller) : [];
  if ((!limits || limits.success === 0) && windows.length === 0) return undefined;
  return ctx.limits
    .record({
      successes: limits && limits.success > 0 ? { key: `ok:${caller.userId}`, windowSeconds: limits.windowSeconds } : undefined,
      tokens: windows.length > 0 ? { keys: windows.map((w) => w.key), amount: tokens } : undefined,
    })
    .catch(() => undefined);
}
