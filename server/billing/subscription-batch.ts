/**
 * The subscriptions' part of a journal batch (server/billing/journal-batch.ts), between the users
 * and the tokens in the lock order. A subscription pays from what its current period has left
 * (`quota_left`), like a wallet: a reservation is conditional on the period it was drawn from being
 * still the current one, the subscription active and enough left; a settlement is not. A settlement
 * changes `quota_left` only while the period it reserved in is current (a reset in between closed
 * that period, and nothing carries over), but `used_total` always takes the charge, so the logs of
 * a subscription always sum to its `used_total`.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/types.js';
import type { LogRow, Payer, ReserveOp } from './journal-ops.js';

type Trx = Transaction<Database>;

interface SubAccount {
  id: number;
  period: number;
  delta: number;
  used: number;
  reserves: ReserveOp[];
}

export class SubscriptionAccounts {
  private readonly map = new Map<string, SubAccount>();

  private at(sub: NonNullable<Payer['subscription']>): SubAccount {
    const key = `${sub.id}:${sub.period}`;
    let a = this.map.get(key);
    if (!a) this.map.set(key, (a = { id: sub.id, period: sub.period, delta: 0, used: 0, reserves: [] }));
    return a;
  }

  settle(sub: NonNullable<Payer['subscription']>, delta: number, charge: number): void {
    const a = this.at(sub);
    a.delta += delta;
    a.used += charge;
  }

  reserve(sub: NonNullable<Payer['subscription']>, op: ReserveOp): void {
    this.at(sub).reserves.push(op);
  }

  get size(): number {
    return this.map.size;
  }

  /** Writes every account, by subscription id; returns the reservations taken. */
  async apply(trx: Trx, now: number): Promise<Set<ReserveOp>> {
    const taken = new Set<ReserveOp>();
    const accounts = [...this.map.values()].sort((a, b) => a.id - b.id || a.period - b.period);
    for (const a of accounts) {
      if (a.delta !== 0 || a.used !== 0) {
        await trx
          .updateTable('user_subscriptions')
          .set({
            quota_left: sql`CASE WHEN last_reset_time = ${a.period} THEN quota_left + ${a.delta} ELSE quota_left END`,
            used_total: sql`used_total + ${a.used}`,
          })
          .where('id', '=', a.id)
          .execute();
      }
      for (const r of a.reserves) {
        const amount = r.row.amount ?? 0;
        const result = await trx
          .updateTable('user_subscriptions')
          .set({ quota_left: sql`quota_left - ${amount}` })
          .where('id', '=', a.id)
          .where('last_reset_time', '=', a.period)
          .where('status', '=', 'active')
          .where('end_time', '>', now)
          .where('quota_left', '>=', amount)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 1) taken.add(r);
      }
    }
    return taken;
  }
}

/** Gives back a reservation the token refused (its subscription part was taken). */
export async function returnReservation(trx: Trx, sub: NonNullable<Payer['subscription']>, amount: number): Promise<void> {
  await trx
    .updateTable('user_subscriptions')
    .set({ quota_left: sql`quota_left + ${amount}` })
    .where('id', '=', sub.id)
    .where('last_reset_time', '=', sub.period)
    .execute();
}

/**
 * Moves a charge of `charged` out of a hold of `reserved` on a subscription outside the journal (a
 * recovery of a dead process's hold, or a task's refund with `charged` negative): used_total takes
 * the charge, and what the period gets back only while that period is current.
 */
export async function moveSubscription(
  trx: Trx | Kysely<Database>,
  sub: NonNullable<Payer['subscription']>,
  reserved: number,
  charged: number,
): Promise<void> {
  await trx
    .updateTable('user_subscriptions')
    .set({
      quota_left: sql`CASE WHEN last_reset_time = ${sub.period} THEN quota_left + ${reserved - charged} ELSE quota_left END`,
      used_total: sql`used_total + ${charged}`,
    })
    .where('id', '=', sub.id)
    .execute();
}

/** The log row of a call a subscription paid: `other` says so (`billing_source`, `subscription_id`). */
export function withSource(log: LogRow, payer: Payer): LogRow {
  if (!payer.subscription) return log;
  let other: Record<string, unknown> = {};
  try {
    other = JSON.parse(log.other ?? '{}') as Record<string, unknown>;
  } catch {
    other = {};
  }
  other.billing_source = 'subscription';
  other.subscription_id = payer.subscription.id;
  return { ...log, other: JSON.stringify(other) };
}
