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
import type { PreparedStatements } from '../db/prepared.js';
import { SUB_ACTIVE } from '../subscriptions/repository.js';
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

  /**
   * Writes every account, by subscription id; returns the reservations taken. Like the wallet's
   * accounts, the settlements and all the reservations of one account go in one conditional
   * statement when the period covers them all; else the settlements, then each reservation while
   * the period lasts. The statements are compiled once (`st`), as the wallet's are.
   */
  async apply(trx: Trx, st: PreparedStatements, now: number): Promise<Set<ReserveOp>> {
    const taken = new Set<ReserveOp>();
    const accounts =
      this.map.size === 1 ? this.map.values() : [...this.map.values()].sort((a, b) => a.id - b.id || a.period - b.period);
    for (const a of accounts) {
      let held = 0;
      for (const r of a.reserves) held += r.row.amount ?? 0;
      if (held > 0 && (await takeAll(trx, st, a, held, now))) {
        for (const r of a.reserves) taken.add(r);
        continue;
      }
      if (a.delta !== 0 || a.used !== 0) await settle(trx, st, a);
      for (const r of a.reserves) if (await takeOne(trx, st, a, r.row.amount ?? 0, now)) taken.add(r);
    }
    return taken;
  }
}

type Placeholder = (name: string) => never;

/** The update of a subscription still in the period `period`, active and not ended at `now`. */
const open = (trx: Trx, p: Placeholder) =>
  trx
    .updateTable('user_subscriptions')
    .where('id', '=', p('id'))
    .where('last_reset_time', '=', p('period'))
    .where('status', '=', p('active'))
    .where('end_time', '>', p('now'));

const updated = (result: { numAffectedRows?: bigint }): boolean => Number(result.numAffectedRows ?? 0) === 1;

async function takeAll(trx: Trx, st: PreparedStatements, a: SubAccount, held: number, now: number): Promise<boolean> {
  const result = await st.run(
    trx,
    'subscriptions.settle-reserve',
    (p) =>
      open(trx, p)
        .set({ quota_left: sql`quota_left + ${p('change')}`, used_total: sql`used_total + ${p('used')}` })
        .where(sql<boolean>`quota_left + ${p('delta')} >= ${p('held')}`),
    { id: a.id, period: a.period, active: SUB_ACTIVE, now, change: a.delta - held, used: a.used, delta: a.delta, held },
  );
  return updated(result);
}

async function takeOne(trx: Trx, st: PreparedStatements, a: SubAccount, amount: number, now: number): Promise<boolean> {
  const result = await st.run(
    trx,
    'subscriptions.reserve',
    (p) =>
      open(trx, p)
        .set({ quota_left: sql`quota_left - ${p('amount')}` })
        .where('quota_left', '>=', p('amount')),
    { id: a.id, period: a.period, active: SUB_ACTIVE, now, amount },
  );
  return updated(result);
}

async function settle(trx: Trx, st: PreparedStatements, a: SubAccount): Promise<void> {
  await st.run(
    trx,
    'subscriptions.settle',
    (p) =>
      trx
        .updateTable('user_subscriptions')
        .set({
          quota_left: sql`CASE WHEN last_reset_time = ${p('period')} THEN quota_left + ${p('delta')} ELSE quota_left END`,
          used_total: sql`used_total + ${p('used')}`,
        })
        .where('id', '=', p('id')),
    { id: a.id, period: a.period, delta: a.delta, used: a.used },
  );
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

/**
 * The log row of a call a subscription paid: `other` says so (`billing_source`, `subscription_id`),
 * written in front of its fields without parsing them (a row's `other` is always a JSON object).
 */
export function withSource(log: LogRow, payer: Payer): LogRow {
  if (!payer.subscription) return log;
  const head = `{"billing_source":"subscription","subscription_id":${payer.subscription.id}`;
  const other = (log.other ?? '').trim();
  const rest = other.startsWith('{') ? other.slice(1).trim() : '}';
  return { ...log, other: rest === '}' ? `${head}}` : `${head},${rest}` };
}
