import type { Redis } from 'ioredis';

/**
 * Fixed-window counters. In memory for a single process; in Redis when REDIS_CONN_STRING is set,
 * so that every gateway process shares one count per key.
 */
export interface RateLimiter {
  /** Counts one hit; true while the key stays within `max` hits per `windowSeconds`. */
  hit(key: string, max: number, windowSeconds: number): Promise<boolean>;
  close(): void;
}

export class MemoryRateLimiter implements RateLimiter {
  private windows = new Map<string, { count: number; resetAt: number }>();
  private sweeper = setInterval(() => this.sweep(), 60_000).unref();

  async hit(key: string, max: number, windowSeconds: number): Promise<boolean> {
    const now = Date.now();
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + windowSeconds * 1000 };
      this.windows.set(key, w);
    }
    w.count += 1;
    return w.count <= max;
  }

  private sweep(): void {
    const now = Date.now();
    for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
  }

  close(): void {
    clearInterval(this.sweeper);
  }
}

export class RedisRateLimiter implements RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'rl:',
  ) {}

  async hit(key: string, max: number, windowSeconds: number): Promise<boolean> {
    const k = this.prefix + key;
    const [[, count] = [], [, ttl] = []] = (await this.redis.multi().incr(k).ttl(k).exec()) ?? [];
    if (Number(ttl) < 0) await this.redis.expire(k, windowSeconds);
    return Number(count) <= max;
  }

  close(): void {}
}

/**
 * The console API's default limits (requests per window, per client address; `login` counts failed
 * logins per account, see accounts/lockout.ts).
 */
export const API_LIMITS = {
  global: { max: 180, windowSeconds: 180 },
  critical: { max: 20, windowSeconds: 20 * 60 },
  search: { max: 10, windowSeconds: 60 },
  login: { max: 10, windowSeconds: 15 * 60 },
} as const;

export type ApiLimit = keyof typeof API_LIMITS;
export type ApiLimits = Record<ApiLimit, { max: number; windowSeconds: number }>;
