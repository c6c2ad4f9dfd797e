/**
 * The counters behind the relay's limits, in memory for one process or in Redis (redis-limit-store.ts)
 * when REDIS_CONN_STRING is set, so that every gateway process counts against one limit:
 *
 * - a caller's admission, in one step: successful requests of the window (refused at the maximum),
 *   tokens billed in the sliding minute of the user and of the token (refused at or over the
 *   maximum), then the request counted in its fixed window (refused past the maximum);
 * - a channel's slot: requests in its sliding minute and calls in flight, each below its maximum,
 *   taken together or not at all. A slot is a lease: released when the call ends, and in Redis it
 *   lapses on its own (LEASE_TTL_MS) unless the process holding it renews it, so the slots of a
 *   process that died come back by themselves;
 * - what an answer adds afterwards: one success, and its billed tokens.
 */
import { SlidingMinute } from './sliding-minute.js';

/** The caller's windows a call is checked against; absent or 0 maxima are not checked. */
export interface CallerWindows {
  /** Requests per fixed window (counted by admission, refused ones included). */
  requests?: { key: string; max: number; windowSeconds: number };
  /** Successful requests per window (counted by `record`). */
  successes?: { key: string; max: number };
  /** Tokens per sliding minute (counted by `record`). */
  tokens: ReadonlyArray<{ key: string; max: number }>;
}

/** Which window refused a call; for `tokens`, the index of the window in `CallerWindows.tokens`. */
export type Admission =
  { ok: true } | { ok: false; limit: 'successes' | 'requests' } | { ok: false; limit: 'tokens'; index: number };

export interface ChannelLimits {
  id: number;
  /** Requests per sliding minute; 0 = no limit. */
  rpm: number;
  /** Calls in flight; 0 = no limit. */
  concurrency: number;
}

/** A channel slot taken by one call. */
export interface Lease {
  channelId: number;
  /** Unique among the leases of every process. */
  id: string;
  /** Whether the slot holds a place among the calls in flight (a channel with a concurrency limit). */
  counted: boolean;
  released: boolean;
}

export type Acquired = { ok: true; lease: Lease } | { ok: false; reason: 'rpm' | 'concurrency' };

export interface Usage {
  /** Counts one success in this window. */
  successes?: { key: string; windowSeconds: number };
  /** Adds `amount` tokens to each of these sliding minutes. */
  tokens?: { keys: readonly string[]; amount: number };
}

export interface LimitStore {
  admit(windows: CallerWindows): Promise<Admission>;
  record(usage: Usage): Promise<void>;
  acquire(channel: ChannelLimits): Promise<Acquired>;
  /** Gives a slot back; a lease already released is left alone. */
  release(lease: Lease): void;
  /** Calls in flight on this channel as this store counts them (every process's, with Redis). */
  inFlight(channelId: number): Promise<number>;
  close(): void;
}

/** How long a Redis lease lives without renewal; renewed every third of it while its call runs. */
export const LEASE_TTL_MS = 10_000;

let leaseSeq = 0;
export function newLease(channelId: number, node: string, counted: boolean): Lease {
  return { channelId, id: `${node}:${++leaseSeq}`, counted, released: false };
}

interface FixedWindow {
  count: number;
  resetAt: number;
}

/** One process's counters. */
export class MemoryLimitStore implements LimitStore {
  private readonly fixed = new Map<string, FixedWindow>();
  private readonly sliding = new Map<string, SlidingMinute>();
  private readonly flying = new Map<number, number>();
  private readonly sweeper = setInterval(() => this.sweep(), 60_000).unref();

  constructor(private readonly clock: () => number = Date.now) {}

  private window(key: string): SlidingMinute {
    let w = this.sliding.get(key);
    if (!w) this.sliding.set(key, (w = new SlidingMinute()));
    return w;
  }

  private count(key: string): number {
    const w = this.fixed.get(key);
    return w && w.resetAt > this.clock() ? w.count : 0;
  }

  private bump(key: string, windowSeconds: number): number {
    const now = this.clock();
    let w = this.fixed.get(key);
    if (!w || w.resetAt <= now) this.fixed.set(key, (w = { count: 0, resetAt: now + windowSeconds * 1000 }));
    return ++w.count;
  }

  async admit(windows: CallerWindows): Promise<Admission> {
    const { successes, requests, tokens } = windows;
    if (successes && successes.max > 0 && this.count(successes.key) >= successes.max) return { ok: false, limit: 'successes' };
    const second = Math.floor(this.clock() / 1000);
    for (const [index, t] of tokens.entries()) {
      if (t.max > 0 && (this.sliding.get(t.key)?.sum(second) ?? 0) >= t.max) return { ok: false, limit: 'tokens', index };
    }
    if (requests && requests.max > 0 && this.bump(requests.key, requests.windowSeconds) > requests.max) {
      return { ok: false, limit: 'requests' };
    }
    return { ok: true };
  }

  async record(usage: Usage): Promise<void> {
    if (usage.successes) this.bump(usage.successes.key, usage.successes.windowSeconds);
    if (usage.tokens && usage.tokens.amount > 0) {
      const second = Math.floor(this.clock() / 1000);
      for (const key of usage.tokens.keys) this.window(key).add(second, usage.tokens.amount);
    }
  }

  async acquire(channel: ChannelLimits): Promise<Acquired> {
    const flying = this.flying.get(channel.id) ?? 0;
    if (channel.concurrency > 0 && flying >= channel.concurrency) return { ok: false, reason: 'concurrency' };
    if (channel.rpm > 0) {
      const second = Math.floor(this.clock() / 1000);
      const w = this.window(`ch:${channel.id}`);
      if (w.sum(second) >= channel.rpm) return { ok: false, reason: 'rpm' };
      w.add(second, 1);
    }
    const counted = channel.concurrency > 0;
    if (counted) this.flying.set(channel.id, flying + 1);
    return { ok: true, lease: newLease(channel.id, 'local', counted) };
  }

  release(lease: Lease): void {
    if (lease.released) return;
    lease.released = true;
    if (!lease.counted) return;
    const left = (this.flying.get(lease.channelId) ?? 1) - 1;
    if (left > 0) this.flying.set(lease.channelId, left);
    else this.flying.delete(lease.channelId);
  }

  async inFlight(channelId: number): Promise<number> {
    return this.flying.get(channelId) ?? 0;
  }

  private sweep(): void {
    const now = this.clock();
    for (const [key, w] of this.fixed) if (w.resetAt <= now) this.fixed.delete(key);
    const second = Math.floor(now / 1000);
    for (const [key, w] of this.sliding) if (w.sum(second) === 0) this.sliding.delete(key);
  }

  close(): void {
    clearInterval(this.sweeper);
  }
}
