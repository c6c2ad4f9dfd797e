/**
 * What card payments add to the orders of `top_ups`: the provider's id of a payment
 * (`gateway_ref`), the end of an order that was never paid (failed, expired), the reversal of a paid
 * one (refunded, disputed) and the provider events taken (`payment_events`). Crediting stays with
 * `completeOrder`. Each move is one conditional UPDATE from the state it leaves, so a replayed or
 * concurrent event moves nothing a second time:
 *
 *   pending → success → refunded | disputed
 *   pending → failed | expired | refunded | disputed (reversed before it was credited: nothing to take back)
 */
import { takeBackCredit } from '../billing/ledger.js';
import type { Db } from '../db/index.js';
import type { DbKind } from '../db/dsn.js';
import type { LogText } from '../logs/messages.js';
import { withText } from '../logs/messages.js';
import { recordLog } from '../logs/repository.js';
import { LOG_SYSTEM } from '../logs/types.js';
import { findUsername } from '../users/repository.js';
import { ORDER_PENDING, ORDER_SUCCESS } from './repository.js';
import { endOrderSubscription } from '../subscriptions/repository.js';

export const ORDER_FAILED = 'failed';
export const ORDER_EXPIRED = 'expired';
export const ORDER_REFUNDED = 'refunded';
export const ORDER_DISPUTED = 'disputed';
export const ORDER_STATUSES = [
  ORDER_PENDING,
  ORDER_SUCCESS,
  ORDER_FAILED,
  ORDER_EXPIRED,
  ORDER_REFUNDED,
  ORDER_DISPUTED,
] as const;

export interface OrderRow {
  id: number;
  user_id: number;
  amount: number;
  money: number;
  trade_no: string;
  payment_method: string;
  status: string;
  gateway_ref: string | null;
  /** Set when the order bought a subscription plan. */
  plan_id: number | null;
}

const COLUMNS = ['id', 'user_id', 'amount', 'money', 'trade_no', 'payment_method', 'status', 'gateway_ref', 'plan_id'] as const;

const toRow = (r: OrderRow): OrderRow => ({ ...r, amount: Number(r.amount), money: Number(r.money) });

export async function findOrder(db: Db, tradeNo: string): Promise<OrderRow | undefined> {
  const row = await db.selectFrom('top_ups').select(COLUMNS).where('trade_no', '=', tradeNo).executeTakeFirst();
  return row && toRow(row);
}

export async function findOrderByRef(db: Db, method: string, ref: string): Promise<OrderRow | undefined> {
  const row = await db
    .selectFrom('top_ups')
    .select(COLUMNS)
    .where('payment_method', '=', method)
    .where('gateway_ref', '=', ref)
    .executeTakeFirst();
  return row && toRow(row);
}

/** Notes the provider's id of the order's payment, once (a later, different one is not taken). */
export async function setGatewayRef(db: Db, id: number, ref: string): Promise<void> {
  await db.updateTable('top_ups').set({ gateway_ref: ref }).where('id', '=', id).where('gateway_ref', 'is', null).execute();
}

/** Ends a pending order that will not be paid; false when it was no longer pending. */
export async function closeOrder(db: Db, id: number, status: typeof ORDER_FAILED | typeof ORDER_EXPIRED, now: number) {
  const done = await db
    .updateTable('top_ups')
    .set({ status, complete_time: now })
    .where('id', '=', id)
    .where('status', '=', ORDER_PENDING)
    .executeTakeFirst();
  return Number(done.numUpdatedRows) === 1;
}

export type ReversalOutcome =
  | { kind: 'reversed'; userId: number; quota: number }
  /** Reversed before it was credited: marked, nothing taken back. */
  | { kind: 'closed' }
  | { kind: 'already' };

/**
 * Takes back what a paid order credited — its status, the debit and its log row in one
 * transaction. The balance may go below zero: that negative balance is the person's debt, shown
 * as such, and paid off by their next top-up before anything can be spent.
 */
export async function reverseOrder(
  db: Db,
  kind: DbKind,
  order: OrderRow,
  status: typeof ORDER_REFUNDED | typeof ORDER_DISPUTED,
  now: number,
  describe: (quota: number) => LogText,
): Promise<ReversalOutcome> {
  return db.transaction().execute(async (trx): Promise<ReversalOutcome> => {
    const fromPending = await trx
      .updateTable('top_ups')
      .set({ status, complete_time: now })
      .where('id', '=', order.id)
      .where('status', '=', ORDER_PENDING)
      .executeTakeFirst();
    if (Number(fromPending.numUpdatedRows) === 1) return { kind: 'closed' };
    const done = await trx
      .updateTable('top_ups')
      .set({ status })
      .where('id', '=', order.id)
      .where('status', '=', ORDER_SUCCESS)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) return { kind: 'already' };
    const quota = order.amount;
    // A plan bought by the order ends with it (its group upgrade too); a top-up's quota is taken back.
    if (order.plan_id !== null) await endOrderSubscription(trx, order.id, now);
    await takeBackCredit(trx, order.user_id, quota);
    await recordLog(trx, kind, {
      user_id: order.user_id,
      username: (await findUsername(trx, order.user_id)) ?? '',
      created_at: now,
      type: LOG_SYSTEM,
      quota,
      ...withText(describe(quota)),
    });
    return { kind: 'reversed', userId: order.user_id, quota };
  });
}

export interface PaymentEvent {
  provider: string;
  eventId: string;
  type: string;
  tradeNo: string;
  outcome: string;
  now: number;
}

export async function eventTaken(db: Db, provider: string, eventId: string): Promise<boolean> {
  const row = await db
    .selectFrom('payment_events')
    .select('id')
    .where('provider', '=', provider)
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Records an event once its effect is committed. Two deliveries racing both get here; the unique
 * key keeps one row (the order's conditional UPDATE already kept one effect).
 */
export async function recordEvent(db: Db, event: PaymentEvent): Promise<void> {
  if (await eventTaken(db, event.provider, event.eventId)) return;
  try {
    await db
      .insertInto('payment_events')
      .values({
        provider: event.provider,
        event_id: event.eventId,
        event_type: event.type.slice(0, 64),
        trade_no: event.tradeNo.slice(0, 128),
        outcome: event.outcome,
        created_at: event.now,
      })
      .execute();
  } catch (err) {
    if (!(await eventTaken(db, event.provider, event.eventId))) throw err;
  }
}
