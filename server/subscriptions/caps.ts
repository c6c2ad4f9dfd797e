/**
 * Spend caps of tokens and users: at most `cap_limit` quota per day, week or month (periods in the
 * site's time zone, as subscription resets). Checked before a call from memory: each process holds
 * the caps it met (re-read every CONFIG_MS, dropped at once on the bus topic 'spend_cap') and what
 * each capped token or user spent this period — counted from the consume log rows when first
 * needed and every RESEED_MS (so the other processes' spend is seen), and raised by this process's
 * own settlements meanwhile. A call past a cap is refused with 429 and Retry-After at the period's end.
 */
import type { Bus } from '../cache/bus.js';
import type { Db } from '../db/index.js';
import type { Clock } from './clock.js';
import type { SpendCap } from '../db/types.js';
import { relayErrors } from '../relay/errors.js';
import { spentSince } from '../logs/list-repository.js';
import { findCaps, type CapPeriod, type CapSubject } from './caps-repository.js';
import { periodAt } from './periods.js';

export const SPEND_CAP_TOPIC = 'spend_cap';
const CONFIG_MS = 30_000;
const RESEED_MS = 15_000;

interface Counter {
  start: number;
  next: number;
  spent: number;
  seededAt: number;
}

export function publishCapChange(bus: Bus): void {
  bus.publish(SPEND_CAP_TOPIC, '');
}

export class SpendCaps {
  private configs = new Map<string, { caps: SpendCap[]; expires: number }>();
  private counters = new Map<string, Counter>();

  constructor(
    private readonly db: Db,
    private readonly logDb: Db,
    bus: Bus,
    private readonly clock: Clock,
  ) {
    bus.on(SPEND_CAP_TOPIC, () => this.configs.clear());
  }

  /**
   * Refuses the call when the token or the user has spent its cap this period. Undefined when it is
   * known at once that neither has a cap (most callers): nothing to wait for.
   */
  check(userId: number, tokenId: number): Promise<void> | undefined {
    return this.cachedCaps(userId, tokenId)?.length === 0 ? undefined : this.checkCaps(userId, tokenId);
  }

  private async checkCaps(userId: number, tokenId: number): Promise<void> {
    const caps = await this.capsOf(userId, tokenId);
    if (caps.length === 0) return;
    const now = this.clock.now();
    for (const cap of caps) {
      const counter = await this.counter(cap, userId, tokenId, now);
      if (counter.spent >= Number(cap.cap_limit)) {
        throw relayErrors.spendCap(cap.subject as CapSubject, cap.period, Math.max(1, counter.next - now));
      }
    }
  }

  /** A settled charge, counted against the caps held for its token and user. */
  record(userId: number, tokenId: number, quota: number): void {
    if (quota === 0) return;
    for (const key of [`user:${userId}`, `token:${tokenId}`]) {
      const c = this.counters.get(key);
      if (c) c.spent += quota;
    }
  }

  /** The caps of the token and its user while the cached read of them is fresh. */
  private cachedCaps(userId: number, tokenId: number): SpendCap[] | undefined {
    const hit = this.configs.get(`${userId}:${tokenId}`);
    return hit && hit.expires > Date.now() ? hit.caps : undefined;
  }

  private async capsOf(userId: number, tokenId: number): Promise<SpendCap[]> {
    const cached = this.cachedCaps(userId, tokenId);
    if (cached) return cached;
    const caps = await findCaps(this.db, userId, tokenId);
    if (this.configs.size > 100_000) this.configs.clear();
    this.configs.set(`${userId}:${tokenId}`, { caps, expires: Date.now() + CONFIG_MS });
    return caps;
  }

  private async counter(cap: SpendCap, userId: number, tokenId: number, now: number): Promise<Counter> {
    const key = `${cap.subject}:${cap.subject_id}`;
    const held = this.counters.get(key);
    if (held && now < held.next && Date.now() - held.seededAt < RESEED_MS) return held;
    const period = periodAt(cap.period as CapPeriod, 0, 0, now);
    const spent = await spentSince(this.logDb, userId, cap.subject === 'token' ? tokenId : null, period.start);
    const counter = { start: period.start, next: period.next, spent, seededAt: Date.now() };
    this.counters.set(key, counter);
    return counter;
  }
}
