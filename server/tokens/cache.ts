/**
 * The relay's token lookup: tokens by key, held in memory so the hot path rarely reaches the
 * database. Entries live `ttlMs` (counters such as remain_quota catch up within that time) and
 * are dropped at once when any process publishes the key on the bus topic 'token'.
 */
import { BlockList } from 'node:net';
import type { Bus } from '../cache/bus.js';
import type { Config } from '../config.js';
import type { Db } from '../db/index.js';
import type { Token } from '../db/types.js';
import { parseAllowIps } from './allow-ips.js';
import type { CachedToken } from './check.js';
import { storedKey } from './keys.js';
import { parseModelLimits } from './model-limits.js';
import { findLiveTokenByKey } from './repository.js';

export { checkToken, type CachedToken, type TokenCheck } from './check.js';

/** Bus topic of token changes; the payload is the stored key (empty: every token). */
export const TOKEN_TOPIC = 'token';

/** Tells every process's cache that the token with this stored key changed or is gone. */
export function publishTokenChange(bus: Bus, key: string): void {
  bus.publish(TOKEN_TOPIC, key);
}

export interface TokenCacheOptions {
  /** Lifetime of a found token. Default 60 s. */
  ttlMs?: number;
  /** Lifetime of "no such key", short so a new token works at once elsewhere, long enough to blunt guessing. Default 5 s. */
  negativeTtlMs?: number;
  /** Entries kept at most; the oldest go first, so a flood of guessed keys cannot grow memory. Default 100 000. */
  maxEntries?: number;
  /** Milliseconds; replaceable in tests. */
  clock?: () => number;
}

// Keys are generated as 48 characters of [A-Za-z0-9]; anything else is refused without a query.
const KEY_SHAPE = /^[A-Za-z0-9]{1,64}$/;

export function toCachedToken(row: Token): CachedToken {
  const ips = parseAllowIps(row.allow_ips);
  return {
    id: row.id,
    user_id: row.user_id,
    name: row.name,
    key: row.key,
    status: row.status,
    expired_time: row.expired_time,
    remain_quota: row.remain_quota,
    unlimited_quota: row.unlimited_quota === 1,
    model_limits_enabled: row.model_limits_enabled === 1,
    model_limits: new Set(parseModelLimits(row.model_limits)),
    // A stored list that no longer parses (written outside the console) admits nobody rather than everybody.
    allow_ips: ips.ok ? ips.list : new BlockList(),
    group: row.group,
    tpm_limit: row.tpm_limit,
    max_concurrency: row.max_concurrency,
    rpm_limit: row.rpm_limit,
    rpd_limit: row.rpd_limit,
    log_bodies: row.log_bodies === 1,
  };
}

interface Entry {
  token: CachedToken | null;
  expires: number;
}

export class TokenCache {
  private readonly entries = new Map<string, Entry>();
  /** Stored key by token id, for updates that know only the id. */
  private readonly keys = new Map<number, string>();
  private readonly pending = new Map<string, Promise<CachedToken | null>>();
  private readonly ttlMs: number;
  private readonly negativeTtlMs: number;
  private readonly maxEntries: number;
  private readonly clock: () => number;

  constructor(
    private readonly db: Db,
    options: TokenCacheOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 60_000;
    this.negativeTtlMs = options.negativeTtlMs ?? 5_000;
    this.maxEntries = options.maxEntries ?? 100_000;
    this.clock = options.clock ?? Date.now;
  }

  /** The cached answer for this key while it is fresh (null: no such token), undefined when not cached. */
  peek(input: string): CachedToken | null | undefined {
    const entry = this.entries.get(storedKey(input));
    return entry && entry.expires > this.clock() ? entry.token : undefined;
  }

  /** The live token with this key (`sk-` optional), or null when there is none. */
  async get(input: string): Promise<CachedToken | null> {
    const key = storedKey(input);
    if (!KEY_SHAPE.test(key)) return null;
    const cached = this.peek(key);
    if (cached !== undefined) return cached;
    // Concurrent misses share one query.
    const running = this.pending.get(key);
    if (running) return running;
    const load = findLiveTokenByKey(this.db, key).then((row) => (row ? toCachedToken(row) : null));
    this.pending.set(key, load);
    try {
      const token = await load;
      // An invalidation while the query ran removed (or replaced) our pending entry: the answer
      // may predate the change, so the callers waiting get it but it is not kept.
      if (this.pending.get(key) === load) this.remember(key, token);
      return token;
    } finally {
      if (this.pending.get(key) === load) this.pending.delete(key);
    }
  }

  /**
   * Sets the cached remain_quota of a token to what a write of this process left. Returns the key and
   * the value it replaced, or null when the token is not cached.
   */
  setRemain(id: number, remain: number): { key: string; before: number } | null {
    const key = this.keys.get(id);
    const token = key === undefined ? null : this.entries.get(key)?.token;
    if (!key || !token) return null;
    const before = token.remain_quota;
    token.remain_quota = remain;
    return { key, before };
  }

  private remember(key: string, token: CachedToken | null): void {
    if (token) this.keys.set(token.id, key);
    this.entries.delete(key);
    this.entries.set(key, { token, expires: this.clock() + (token ? this.ttlMs : this.negativeTtlMs) });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.entries().next();
      if (!oldest.done) {
        this.entries.delete(oldest.value[0]);
        if (oldest.value[1].token) this.keys.delete(oldest.value[1].token.id);
      }
    }
  }

  /** Forgets one key (stored form), or every key when given ''. */
  invalidate(key: string): void {
    if (key === '') {
      this.entries.clear();
      this.keys.clear();
      this.pending.clear();
      return;
    }
    const stored = storedKey(key);
    this.entries.delete(stored);
    this.pending.delete(stored);
  }

  /** Entries currently held (found and not found). */
  get size(): number {
    return this.entries.size;
  }
}

/**
 * The app's token cache: lifetime SYNC_FREQUENCY seconds, invalidated through the bus. Build it once
 * per process (the bus subscription lasts as long as the bus); it needs only these parts of the
 * context, so app.ts can build it while assembling the context.
 */
export function createTokenCache(
  ctx: { db: Db; bus: Bus; config: Pick<Config, 'syncFrequency'> },
  options: TokenCacheOptions = {},
): TokenCache {
  const cache = new TokenCache(ctx.db, { ttlMs: ctx.config.syncFrequency * 1000, ...options });
  ctx.bus.on(TOKEN_TOPIC, (key) => cache.invalidate(key));
  return cache;
}
