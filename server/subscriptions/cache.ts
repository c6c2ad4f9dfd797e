/**
 * What the relay needs of a user's subscriptions, held in memory so that choosing who pays a call
 * does no database work: the billing preference and the active subscriptions with what their
 * period had left when read (a hint: the reservation itself is conditional in the database).
 * Entries expire after half a minute and are dropped at once on the bus topic 'subscription'
 * (payload: the user id) whenever a subscription or preference changes; a period or subscription
 * found over makes the entry be read again. A period found over is reset (conditionally, once across processes) as
 * the entry is loaded.
 */
import type { Bus } from '../cache/bus.js';
import type { Db } from '../db/index.js';
import type { Clock } from './clock.js';
import { activeSubscriptions, billingPreference, resetIfDue, type BillingPreference } from './repository.js';

export const SUBSCRIPTION_TOPIC = 'subscription';

export interface SubState {
  id: number;
  /** What the current period had left when read. */
  quotaLeft: number;
  /** The current period's start (`last_reset_time`): reservations are drawn from it. */
  period: number;
  /** When the period ends (0: never). */
  nextReset: number;
  endTime: number;
}

export interface UserSubs {
  preference: BillingPreference;
  subs: SubState[];
}

const TTL_MS = 30_000;

export function publishSubscriptionChange(bus: Bus, userId: number): void {
  bus.publish(SUBSCRIPTION_TOPIC, String(userId));
}

export class SubscriptionCache {
  private entries = new Map<number, { value: UserSubs; expires: number }>();
  private pending = new Map<number, Promise<UserSubs>>();

  constructor(
    private readonly db: Db,
    bus: Bus,
    private readonly clock: Clock,
  ) {
    bus.on(SUBSCRIPTION_TOPIC, (payload) => {
      if (payload === '') {
        this.entries.clear();
        this.pending.clear();
      } else this.drop(Number(payload));
    });
  }

  /** The entry as last read, even expired, without loading (undefined: never read). */
  peek(userId: number): UserSubs | undefined {
    return this.entries.get(userId)?.value;
  }

  drop(userId: number): void {
    this.entries.delete(userId);
    this.pending.delete(userId);
  }

  /**
   * After a reservation from `tried` fell short: reads the user's subscriptions again (one read
   * shared by the calls that fell short together) and returns that subscription's newer period
   * when it has one with something left.
   */
  async renewed(
    userId: number,
    tried: { id: number; period: number },
    now: number,
  ): Promise<{ id: number; period: number } | undefined> {
    const held = this.entries.get(userId)?.value;
    if (held?.subs.some((s) => s.id === tried.id && s.period === tried.period)) this.entries.delete(userId);
    const fresh = (await this.get(userId)).subs.find((s) => s.id === tried.id);
    return fresh && fresh.period > tried.period && fresh.quotaLeft > 0 && fresh.endTime > now
      ? { id: fresh.id, period: fresh.period }
      : undefined;
  }

  /** The entry while it is fresh and none of its periods is due, without loading (undefined: `get` it). */
  current(userId: number): UserSubs | undefined {
    const held = this.entries.get(userId);
    const hit = held && held.expires > Date.now() ? held.value : undefined;
    if (!hit) return undefined;
    const now = this.clock.now();
    return hit.subs.some((s) => due(s, now)) ? undefined : hit;
  }

  async get(userId: number): Promise<UserSubs> {
    const hit = this.current(userId);
    if (hit) return hit;
    const running = this.pending.get(userId);
    if (running) return running;
    const load = this.load(userId);
    this.pending.set(userId, load);
    try {
      const value = await load;
      if (this.pending.get(userId) === load) this.entries.set(userId, { value, expires: Date.now() + TTL_MS });
      return value;
    } finally {
      if (this.pending.get(userId) === load) this.pending.delete(userId);
    }
  }

  private async load(userId: number): Promise<UserSubs> {
    const now = this.clock.now();
    let rows = await activeSubscriptions(this.db, userId, now);
    if (rows.some((r) => r.next_reset_time > 0 && r.next_reset_time <= now)) {
      for (const r of rows) await resetIfDue(this.db, r, now);
      rows = await activeSubscriptions(this.db, userId, now);
    }
    const preference = await billingPreference(this.db, userId);
    return {
      preference,
      subs: rows.map((r) => ({
        id: r.id,
        quotaLeft: Number(r.quota_left),
        period: Number(r.last_reset_time),
        nextReset: Number(r.next_reset_time),
        endTime: Number(r.end_time),
      })),
    };
  }
}

const due = (s: SubState, now: number): boolean => (s.nextReset > 0 && s.nextReset <= now) || s.endTime <= now;
