/**
 * Request limits of a token (calls in flight, requests per clock minute and per UTC day) and of a
 * user (requests per UTC day), checked and counted in one step: every limit is checked first and
 * only an admitted call is counted, so a limit of N admits exactly N. In memory for one process;
 * in Redis (one Lua script, one round trip, Redis's own clock) when REDIS_CONN_STRING is set, so
 * every gateway process counts against the same limits. Calls in flight are leases in a sorted set
 * scored by expiry and renewed while their call runs, as channel slots are (limit-store.ts), so the
 * leases of a process that died lapse by themselves.
 *
 * A Redis that cannot be reached limits nothing (the call is served and the error counted), as for
 * the other limits.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { LEASE_TTL_MS } from './limit-store.js';

/** The limits one call is checked against; 0 = no limit. */
export interface GateLimits {
  tokenId: number;
  userId: number;
  concurrency: number;
  rpm: number;
  tokenRpd: number;
  userRpd: number;
}

export type GateRefusal = 'concurrency' | 'rpm' | 'token_rpd' | 'user_rpd';

/** A call admitted; `release` gives its place among the calls in flight back, once. */
export interface GatePass {
  release(): void;
}

export type GateAnswer = { ok: true; pass: GatePass } | { ok: false; limit: GateRefusal; retryAfter: number };

export interface CallerGate {
  enter(limits: GateLimits): Promise<GateAnswer>;
  close(): void;
}

const REFUSALS: readonly GateRefusal[] = ['concurrency', 'rpm', 'token_rpd', 'user_rpd'];
const DAY = 86_400;

/** Seconds until the end of the current minute and UTC day, at `nowMs`. */
function resets(nowMs: number): { minute: number; day: number } {
  const s = Math.floor(nowMs / 1000);
  return { minute: 60 - (s % 60), day: DAY - (s % DAY) };
}

export const NO_PASS: GatePass = { release: () => undefined };

interface Window {
  count: number;
  resetAt: number;
}

export class MemoryCallerGate implements CallerGate {
  private readonly windows = new Map<string, Window>();
  private readonly flying = new Map<number, number>();
  private readonly sweeper = setInterval(() => this.sweep(), 60_000).unref();

  constructor(private readonly clock: () => number = Date.now) {}

  private count(key: string, now: number): number {
    const w = this.windows.get(key);
    return w && w.resetAt > now ? w.count : 0;
  }

  private bump(key: string, now: number, seconds: number): void {
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) this.windows.set(key, (w = { count: 0, resetAt: now + seconds * 1000 }));
    w.count++;
  }

  async enter(l: GateLimits): Promise<GateAnswer> {
    const now = this.clock();
    const reset = resets(now);
    const flying = this.flying.get(l.tokenId) ?? 0;
    if (l.concurrency > 0 && flying >= l.concurrency) return { ok: false, limit: 'concurrency', retryAfter: 1 };
    const rpm = `rpm:t:${l.tokenId}`;
    const trpd = `rpd:t:${l.tokenId}`;
    const urpd = `rpd:u:${l.userId}`;
    if (l.rpm > 0 && this.count(rpm, now) >= l.rpm) return { ok: false, limit: 'rpm', retryAfter: reset.minute };
    if (l.tokenRpd > 0 && this.count(trpd, now) >= l.tokenRpd) return { ok: false, limit: 'token_rpd', retryAfter: reset.day };
    if (l.userRpd > 0 && this.count(urpd, now) >= l.userRpd) return { ok: false, limit: 'user_rpd', retryAfter: reset.day };
    if (l.rpm > 0) this.bump(rpm, now, reset.minute);
    if (l.tokenRpd > 0) this.bump(trpd, now, reset.day);
    if (l.userRpd > 0) this.bump(urpd, now, reset.day);
    if (l.concurrency === 0) return { ok: true, pass: NO_PASS };
    this.flying.set(l.tokenId, flying + 1);
    let released = false;
    return {
      ok: true,
      pass: {
        release: () => {
          if (released) return;
          released = true;
          const left = (this.flying.get(l.tokenId) ?? 1) - 1;
          if (left > 0) this.flying.set(l.tokenId, left);
          else this.flying.delete(l.tokenId);
        },
      },
    };
  }

  /** Calls in flight of a token (for tests and the console). */
  inFlight(tokenId: number): number {
    return this.flying.get(tokenId) ?? 0;
  }

  private sweep(): void {
    const now = this.clock();
    for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
  }

  close(): void {
    clearInterval(this.sweeper);
  }
}

/**
 * KEYS: leases, rpm, token rpd, user rpd. ARGV: concurrency, rpm, token rpd, user rpd maxima, lease
 * id, lease ttl (ms). Returns {0} or {refusal (1-4), seconds until it resets}.
 */
const ENTER = `
local t = redis.call('TIME')
local now = tonumber(t[1])
local nowMs = now * 1000 + math.floor(tonumber(t[2]) / 1000)
local cc, rpm, trpd, urpd = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local minute, day = 60 - now % 60, 86400 - now % 86400
if cc > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', nowMs)
  if redis.call('ZCARD', KEYS[1]) >= cc then return {1, 1} end
end
if rpm > 0 and tonumber(redis.call('GET', KEYS[2]) or '0') >= rpm then return {2, minute} end
if trpd > 0 and tonumber(redis.call('GET', KEYS[3]) or '0') >= trpd then return {3, day} end
if urpd > 0 and tonumber(redis.call('GET', KEYS[4]) or '0') >= urpd then return {4, day} end
local function bump(key, ttl)
  if redis.call('INCR', key) == 1 then redis.call('EXPIRE', key, ttl) end
end
if rpm > 0 then bump(KEYS[2], minute) end
if trpd > 0 then bump(KEYS[3], day) end
if urpd > 0 then bump(KEYS[4], day) end
if cc > 0 then
  redis.call('ZADD', KEYS[1], nowMs + tonumber(ARGV[6]), ARGV[5])
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[6]))
end
return {0, 0}
`;

const RENEW = `
local t = redis.call('TIME')
local ttl = tonumber(ARGV[1])
local expires = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + ttl
for i = 1, #KEYS do
  redis.call('ZADD', KEYS[i], 'XX', expires, ARGV[i + 1])
  redis.call('PEXPIRE', KEYS[i], ttl)
end
return 0
`;

const SHAS = new Map([ENTER, RENEW].map((lua) => [lua, createHash('sha1').update(lua).digest('hex')]));

export class RedisCallerGate implements CallerGate {
  private readonly node = randomBytes(6).toString('hex');
  private seq = 0;
  /** Leases this process holds (key → lease id), renewed until released. */
  private readonly live = new Map<string, string>();
  private readonly renewer = setInterval(() => void this.renew(), LEASE_TTL_MS / 3).unref();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  private async run(lua: string, keys: readonly string[], args: ReadonlyArray<string | number>): Promise<unknown> {
    const sha = SHAS.get(lua) ?? '';
    try {
      return await this.redis.evalsha(sha, keys.length, ...keys, ...args);
    } catch (err) {
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return this.redis.eval(lua, keys.length, ...keys, ...args);
    }
  }

  private leases(tokenId: number): string {
    return `${this.prefix}cc:t:${tokenId}`;
  }

  async enter(l: GateLimits): Promise<GateAnswer> {
    const lease = `${this.node}:${++this.seq}`;
    const p = this.prefix;
    const keys = [this.leases(l.tokenId), `${p}rpm:t:${l.tokenId}`, `${p}rpd:t:${l.tokenId}`, `${p}rpd:u:${l.userId}`];
    const args = [l.concurrency, l.rpm, l.tokenRpd, l.userRpd, lease, LEASE_TTL_MS];
    let answer: unknown[];
    try {
      answer = (await this.run(ENTER, keys, args)) as unknown[];
    } catch (err) {
      this.onError(err);
      return { ok: true, pass: NO_PASS };
    }
    const [code, seconds] = answer.map(Number) as [number, number];
    if (code !== 0) return { ok: false, limit: REFUSALS[code - 1] ?? 'concurrency', retryAfter: Math.max(1, seconds) };
    if (l.concurrency === 0) return { ok: true, pass: NO_PASS };
    const key = this.leases(l.tokenId);
    const member = `${key}\n${lease}`;
    this.live.set(member, lease);
    return {
      ok: true,
      pass: {
        release: () => {
          if (!this.live.delete(member)) return;
          // Not awaited: a lost release lapses with its lease.
          this.redis.zrem(key, lease).catch(this.onError);
        },
      },
    };
  }

  private async renew(): Promise<void> {
    const members = [...this.live.keys()];
    for (let i = 0; i < members.length; i += 500) {
      const batch = members.slice(i, i + 500).map((m) => m.split('\n') as [string, string]);
      const keys = batch.map(([k]) => k);
      await this.run(RENEW, keys, [LEASE_TTL_MS, ...batch.map(([, id]) => id)]).catch(this.onError);
    }
  }

  close(): void {
    clearInterval(this.renewer);
  }
}
