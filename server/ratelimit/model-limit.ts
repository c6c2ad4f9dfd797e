/**
 * The model request rate limit (ModelRequestRateLimit*), per user and cluster-wide when Redis is
 * configured: within each window of DurationMinutes a user may send at most Count requests (0 =
 * no limit; every request counts, refused ones included) and have at most SuccessCount of them
 * answered successfully (counted after the answer). ModelRequestRateLimitGroup overrides both per
 * group: `{"vip": [total, successes]}`. Exceeding either answers 429 in the client's error shape.
 */
import type { Redis } from 'ioredis';
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

/** Successes per user and window: read before a request, added after its answer. */
interface SuccessCounter {
  count(key: string): Promise<number>;
  add(key: string, windowSeconds: number): Promise<void>;
}

class MemorySuccessCounter implements SuccessCounter {
  private windows = new Map<string, { count: number; resetAt: number }>();

  async count(key: string): Promise<number> {
    const w = this.windows.get(key);
    return w && w.resetAt > Date.now() ? w.count : 0;
  }

  async add(key: string, windowSeconds: number): Promise<void> {
    const now = Date.now();
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      if (this.windows.size >= 10_000) for (const [k, old] of this.windows) if (old.resetAt <= now) this.windows.delete(k);
      w = { count: 0, resetAt: now + windowSeconds * 1000 };
      this.windows.set(key, w);
    }
    w.count += 1;
  }
}

class RedisSuccessCounter implements SuccessCounter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async count(key: string): Promise<number> {
    return Number(await this.redis.get(this.prefix + key)) || 0;
  }

  async add(key: string, windowSeconds: number): Promise<void> {
    const k = this.prefix + key;
    const [, [, ttl] = []] = (await this.redis.multi().incr(k).ttl(k).exec()) ?? [];
    if (Number(ttl) < 0) await this.redis.expire(k, windowSeconds);
  }
}

const counters = new WeakMap<GatewayContext, SuccessCounter>();

function successCounter(ctx: GatewayContext): SuccessCounter {
  let counter = counters.get(ctx);
  if (!counter) {
    counter = ctx.redis ? new RedisSuccessCounter(ctx.redis, `${ctx.config.redisPrefix}mrl:`) : new MemorySuccessCounter();
    counters.set(ctx, counter);
  }
  return counter;
}

function tooMany(limits: ModelLimits, max: number, successes: boolean): AppError {
  const minutes = limits.windowSeconds / 60;
  return refuse(429, successes ? 'success_rate_limit_exceeded' : 'rate_limit_exceeded', { minutes, max });
}

/** Whose requests are counted: relayed calls, realtime sessions and task submissions alike. */
export type LimitedCaller = Pick<RelayCaller, 'userId' | 'group'>;

/** Before a relayed request: refuses it (429) when the caller is over either limit, else counts it. */
export async function checkModelRateLimit(ctx: GatewayContext, caller: LimitedCaller): Promise<void> {
  const limits = modelLimitsFor(ctx, caller.group);
  if (!limits) return;
  if (limits.success > 0 && (await successCounter(ctx).count(`ok:${caller.userId}`)) >= limits.success) {
    throw tooMany(limits, limits.success, true);
  }
  if (limits.total > 0 && !(await ctx.limiter.hit(`mrl:${caller.userId}`, limits.total, limits.windowSeconds))) {
    throw tooMany(limits, limits.total, false);
  }
}

/**
 * After a successful answer, before the client sees its end: counts it against the success limit.
 * A counter that cannot be reached loses the count rather than the answer.
 */
export async function recordModelSuccess(ctx: GatewayContext, caller: LimitedCaller): Promise<void> {
  const limits = modelLimitsFor(ctx, caller.group);
  if (!limits || limits.success === 0) return;
  await successCounter(ctx)
    .add(`ok:${caller.userId}`, limits.windowSeconds)
    .catch(() => undefined);
}
