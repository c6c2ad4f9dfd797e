import type { Redis } from 'ioredis';

/**
 * Short-lived values (verification codes, reset tokens): in memory for one process, in Redis when
 * several gateway processes must see the same values.
 */
export interface KvStore {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  /** Sets the value only when the key holds none; true when this call set it (one winner across processes). */
  setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean>;
  delete(key: string): Promise<void>;
}

/** Sets between two sweeps of expired values (kept values such as thought signatures are rarely read again). */
const SWEEP_EVERY = 1000;

export class MemoryKv implements KvStore {
  private items = new Map<string, { value: string; expiresAt: number }>();
  private setsSinceSweep = 0;

  /** Drops expired values now and then, so values never read again do not pile up. */
  private sweep(): void {
    if (++this.setsSinceSweep < SWEEP_EVERY) return;
    this.setsSinceSweep = 0;
    const now = Date.now();
    for (const [key, item] of this.items) if (item.expiresAt <= now) this.items.delete(key);
  }

  async get(key: string): Promise<string | null> {
    const item = this.items.get(key);
    if (!item) return null;
    if (item.expiresAt <= Date.now()) {
      this.items.delete(key);
      return null;
    }
    return item.value;
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    this.sweep();
    this.items.set(key, { value, expiresAt: Date.now() + ttlSeconds * 1000 });
  }

  async setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean> {
    const item = this.items.get(key);
    if (item && item.expiresAt > Date.now()) return false;
    this.items.set(key, { value, expiresAt: Date.now() + ttlSeconds * 1000 });
    return true;
  }

  async delete(key: string): Promise<void> {
    this.items.delete(key);
  }
}

export class RedisKv implements KvStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'kv:',
  ) {}

  get(key: string): Promise<string | null> {
    return this.redis.get(this.prefix + key);
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    await this.redis.set(this.prefix + key, value, 'EX', ttlSeconds);
  }

  async setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean> {
    return (await this.redis.set(this.prefix + key, value, 'EX', ttlSeconds, 'NX')) === 'OK';
  }

  async delete(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }
}
