/**
 * Where session pins live: in Redis when REDIS_CONN_STRING is set (every gateway process sees the
 * same pins; each pin a key with its own expiry), else in this process's memory (at most
 * `max_entries`, the least recently used going first). Keys are `<rule name>\u0000<rest>` inside
 * the store, so pins can be counted and cleared per rule. Needs Redis 6.2 or later (GETEX).
 */
import type { Redis } from 'ioredis';

export interface Pin {
  channelId: number;
  /** The hash of the key of a multi-key channel; '' for a channel with one key. */
  keyHash: string;
}

export interface AffinityStore {
  /** The pin, its lifetime renewed to `ttlSeconds` (a session in use keeps its pin). */
  get(rule: string, key: string, ttlSeconds: number): Promise<Pin | null>;
  set(rule: string, key: string, pin: Pin, ttlSeconds: number): void;
  delete(rule: string, key: string): void;
  /** Pins by rule name. */
  counts(): Promise<Map<string, number>>;
  /** Removes the pins of `rule`, or every pin; how many. */
  clear(rule?: string): Promise<number>;
}

const SEP = '\u0000';

/** `s` matched literally by a Redis SCAN pattern. */
const globEscape = (s: string) => s.replace(/[*?[\]\\]/g, '\\$&');

const parse = (text: string | null): Pin | null => {
  if (!text) return null;
  const [id, hash = ''] = text.split(':');
  const channelId = Number(id);
  return Number.isSafeInteger(channelId) && channelId > 0 ? { channelId, keyHash: hash } : null;
};

export class MemoryAffinityStore implements AffinityStore {
  private readonly pins = new Map<string, { pin: Pin; expires: number }>();

  constructor(
    private readonly maxEntries: () => number,
    private readonly clock: () => number = Date.now,
  ) {}

  async get(rule: string, key: string, ttlSeconds: number): Promise<Pin | null> {
    const k = rule + SEP + key;
    const hit = this.pins.get(k);
    if (!hit) return null;
    const now = this.clock();
    if (hit.expires <= now) {
      this.pins.delete(k);
      return null;
    }
    // Most recently used last: Map keeps insertion order.
    this.pins.delete(k);
    this.pins.set(k, { pin: hit.pin, expires: now + ttlSeconds * 1000 });
    return hit.pin;
  }

  set(rule: string, key: string, pin: Pin, ttlSeconds: number): void {
    const k = rule + SEP + key;
    this.pins.delete(k);
    this.pins.set(k, { pin, expires: this.clock() + ttlSeconds * 1000 });
    const max = Math.max(1, this.maxEntries());
    for (const oldest of this.pins.keys()) {
      if (this.pins.size <= max) break;
      this.pins.delete(oldest);
    }
  }

  delete(rule: string, key: string): void {
    this.pins.delete(rule + SEP + key);
  }

  async counts(): Promise<Map<string, number>> {
    const now = this.clock();
    const out = new Map<string, number>();
    for (const [k, v] of this.pins) {
      if (v.expires <= now) continue;
      const rule = k.slice(0, k.indexOf(SEP));
      out.set(rule, (out.get(rule) ?? 0) + 1);
    }
    return out;
  }

  async clear(rule?: string): Promise<number> {
    let n = 0;
    for (const k of [...this.pins.keys()]) {
      if (rule === undefined || k.startsWith(rule + SEP)) {
        this.pins.delete(k);
        n++;
      }
    }
    return n;
  }
}

export class RedisAffinityStore implements AffinityStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  private key(rule: string, key: string): string {
    return `${this.prefix}${encodeURIComponent(rule)}:${key}`;
  }

  async get(rule: string, key: string, ttlSeconds: number): Promise<Pin | null> {
    try {
      return parse(await this.redis.getex(this.key(rule, key), 'EX', ttlSeconds));
    } catch (err) {
      this.onError(err);
      return null;
    }
  }

  set(rule: string, key: string, pin: Pin, ttlSeconds: number): void {
    this.redis.set(this.key(rule, key), `${pin.channelId}:${pin.keyHash}`, 'EX', ttlSeconds).catch(this.onError);
  }

  delete(rule: string, key: string): void {
    this.redis.del(this.key(rule, key)).catch(this.onError);
  }

  private async *scan(match: string): AsyncGenerator<string[]> {
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', match, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) yield keys;
    } while (cursor !== '0');
  }

  async counts(): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for await (const keys of this.scan(`${globEscape(this.prefix)}*`)) {
      for (const k of keys) {
        const rest = k.slice(this.prefix.length);
        const rule = decodeURIComponent(rest.slice(0, rest.indexOf(':')));
        out.set(rule, (out.get(rule) ?? 0) + 1);
      }
    }
    return out;
  }

  async clear(rule?: string): Promise<number> {
    const match = rule === undefined ? `${globEscape(this.prefix)}*` : `${globEscape(this.prefix + encodeURIComponent(rule))}:*`;
    let n = 0;
    for await (const keys of this.scan(match)) n += await this.redis.del(...keys);
    return n;
  }
}
