/**
 * The limits' counters in Redis, shared by every gateway process: each step is one Lua script, so
 * one round trip and atomic (two processes never both take the last slot). Times are Redis's own
 * (TIME), so the processes' clocks need not agree. Sliding minutes are hashes of one-second buckets
 * (field: Unix second, value: amount) pruned as they are read; calls in flight are sorted sets of
 * leases scored by their expiry (milliseconds), renewed by the process holding them, so the leases
 * of a process that died lapse within LEASE_TTL_MS. Needs Redis 5 or later (scripts that write
 * after reading TIME).
 *
 * A Redis that cannot be reached limits nothing: the calls are served, unlimited, and the error is
 * counted (`onError`), rather than the gateway refusing every call while Redis is away.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import {
  LEASE_TTL_MS,
  newLease,
  type Acquired,
  type Admission,
  type CallerWindows,
  type ChannelLimits,
  type Lease,
  type LimitStore,
  type Usage,
} from './limit-store.js';

const MINUTE = `
local function minute(key, now)
  local all = redis.call('HGETALL', key)
  local sum, stale = 0, {}
  for i = 1, #all, 2 do
    if tonumber(all[i]) <= now - 60 then stale[#stale + 1] = all[i] else sum = sum + tonumber(all[i + 1]) end
  end
  if #stale > 0 then redis.call('HDEL', key, unpack(stale)) end
  return sum
end
`;

/** KEYS: successes, requests, token minutes…; ARGV: successes max, requests max, requests window, token maxima… */
const ADMIT = `${MINUTE}
local now = tonumber(redis.call('TIME')[1])
local okMax = tonumber(ARGV[1])
if okMax > 0 and tonumber(redis.call('GET', KEYS[1]) or '0') >= okMax then return -1 end
for i = 3, #KEYS do
  local max = tonumber(ARGV[i + 1])
  if max > 0 and minute(KEYS[i], now) >= max then return i - 2 end
end
local rqMax = tonumber(ARGV[2])
if rqMax > 0 then
  local count = redis.call('INCR', KEYS[2])
  if count == 1 then redis.call('EXPIRE', KEYS[2], tonumber(ARGV[3])) end
  if count > rqMax then return -2 end
end
return 0
`;

/** KEYS: [successes,] token minutes…; ARGV: successes window (0: no successes key), tokens. */
const RECORD = `
local now = redis.call('TIME')[1]
local first = 1
local window = tonumber(ARGV[1])
if window > 0 then
  if redis.call('INCR', KEYS[1]) == 1 then redis.call('EXPIRE', KEYS[1], window) end
  first = 2
end
local amount = tonumber(ARGV[2])
if amount > 0 then
  for i = first, #KEYS do
    redis.call('HINCRBY', KEYS[i], now, amount)
    redis.call('EXPIRE', KEYS[i], 61)
  end
end
return 0
`;

/** KEYS: channel minute, channel leases; ARGV: rpm, concurrency, lease id, lease ttl (ms). 0 ok, 1 rpm, 2 concurrency. */
const ACQUIRE = `${MINUTE}
local t = redis.call('TIME')
local now = tonumber(t[1])
local nowMs = now * 1000 + math.floor(tonumber(t[2]) / 1000)
local rpm, cc, ttl = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[4])
if cc > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', nowMs)
  if redis.call('ZCARD', KEYS[2]) >= cc then return 2 end
end
if rpm > 0 then
  if minute(KEYS[1], now) >= rpm then return 1 end
  redis.call('HINCRBY', KEYS[1], now, 1)
  redis.call('EXPIRE', KEYS[1], 61)
end
if cc > 0 then
  redis.call('ZADD', KEYS[2], nowMs + ttl, ARGV[3])
  redis.call('PEXPIRE', KEYS[2], ttl)
end
return 0
`;

/** KEYS: the leases set of each lease; ARGV: ttl (ms), lease ids in the order of KEYS. */
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

/** KEYS: leases set. The leases not yet lapsed. */
const COUNT = `
local t = redis.call('TIME')
return redis.call('ZCOUNT', KEYS[1], '(' .. (tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)), '+inf')
`;

interface Script {
  lua: string;
  sha: string;
}

const script = (lua: string): Script => ({ lua, sha: createHash('sha1').update(lua).digest('hex') });
const SCRIPTS = {
  admit: script(ADMIT),
  record: script(RECORD),
  acquire: script(ACQUIRE),
  renew: script(RENEW),
  count: script(COUNT),
};

/** Leases renewed per round trip. */
const RENEW_BATCH = 500;

export class RedisLimitStore implements LimitStore {
  private readonly node = randomBytes(6).toString('hex');
  /** Leases this process holds, renewed until released. */
  private readonly live = new Map<string, Lease>();
  private readonly renewer = setInterval(() => void this.renew(), LEASE_TTL_MS / 3).unref();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  private async run(s: Script, keys: readonly string[], args: ReadonlyArray<string | number>): Promise<unknown> {
    try {
      return await this.redis.evalsha(s.sha, keys.length, ...keys, ...args);
    } catch (err) {
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return this.redis.eval(s.lua, keys.length, ...keys, ...args);
    }
  }

  private leasesKey(channelId: number): string {
    return `${this.prefix}ch:cc:${channelId}`;
  }

  async admit(windows: CallerWindows): Promise<Admission> {
    try {
      return await this.tryAdmit(windows);
    } catch (err) {
      this.onError(err);
      return { ok: true };
    }
  }

  private async tryAdmit(windows: CallerWindows): Promise<Admission> {
    const { successes, requests, tokens } = windows;
    const keys = [successes?.key ?? 'none', requests?.key ?? 'none', ...tokens.map((t) => t.key)].map((k) => this.prefix + k);
    const args = [successes?.max ?? 0, requests?.max ?? 0, requests?.windowSeconds ?? 0, ...tokens.map((t) => t.max)];
    const answer = Number(await this.run(SCRIPTS.admit, keys, args));
    if (answer === 0) return { ok: true };
    if (answer === -1) return { ok: false, limit: 'successes' };
    if (answer === -2) return { ok: false, limit: 'requests' };
    return { ok: false, limit: 'tokens', index: answer - 1 };
  }

  async record(usage: Usage): Promise<void> {
    const tokenKeys = usage.tokens && usage.tokens.amount > 0 ? usage.tokens.keys : [];
    if (!usage.successes && tokenKeys.length === 0) return;
    const keys = [...(usage.successes ? [usage.successes.key] : []), ...tokenKeys].map((k) => this.prefix + k);
    await this.run(SCRIPTS.record, keys, [usage.successes?.windowSeconds ?? 0, usage.tokens?.amount ?? 0]).catch(this.onError);
  }

  async acquire(channel: ChannelLimits): Promise<Acquired> {
    const counted = channel.concurrency > 0;
    const lease = newLease(channel.id, this.node, counted);
    const keys = [`${this.prefix}ch:rpm:${channel.id}`, this.leasesKey(channel.id)];
    let answer: number;
    try {
      answer = Number(await this.run(SCRIPTS.acquire, keys, [channel.rpm, channel.concurrency, lease.id, LEASE_TTL_MS]));
    } catch (err) {
      this.onError(err);
      return { ok: true, lease: { ...lease, counted: false } };
    }
    if (answer === 1) return { ok: false, reason: 'rpm' };
    if (answer === 2) return { ok: false, reason: 'concurrency' };
    if (counted) this.live.set(lease.id, lease);
    return { ok: true, lease };
  }

  release(lease: Lease): void {
    if (lease.released) return;
    lease.released = true;
    if (!lease.counted) return;
    this.live.delete(lease.id);
    // Not awaited: the next command on the connection runs after it, and a lost release lapses.
    this.redis.zrem(this.leasesKey(lease.channelId), lease.id).catch(this.onError);
  }

  async inFlight(channelId: number): Promise<number> {
    return Number(await this.run(SCRIPTS.count, [this.leasesKey(channelId)], []));
  }

  private async renew(): Promise<void> {
    const leases = [...this.live.values()];
    for (let i = 0; i < leases.length; i += RENEW_BATCH) {
      const batch = leases.slice(i, i + RENEW_BATCH);
      const keys = batch.map((l) => this.leasesKey(l.channelId));
      await this.run(SCRIPTS.renew, keys, [LEASE_TTL_MS, ...batch.map((l) => l.id)]).catch(this.onError);
    }
  }

  close(): void {
    clearInterval(this.renewer);
  }
}
