/**
 * Top-up orders (`top_ups`). `amount` is the quota the order credits and `money` the yuan to pay,
 * both fixed when the order is made; an order with a `plan_id` buys that subscription plan instead. An order goes from `pending` to `success` exactly once: the
 * conditional UPDATE decides, so a replayed or concurrent notification credits nothing more.
 */
import { randomBytes } from 'node:crypto';
import { creditUser } from '../billing/ledger.js';
import type { Db } from '../db/index.js';
import type { DbKind } from '../db/dsn.js';
import { likeExpr } from '../db/helpers.js';
import type { TopUp } from '../db/types.js';
import { withText, type LogText } from '../logs/messages.js';
import { recordLog } from '../logs/repository.js';
import { LOG_TOPUP } from '../logs/types.js';
import { findUsername } from '../users/repository.js';
import { subscribeFromOrder } from '../subscriptions/orders.js';

export const ORDER_PENDING = 'pending';
export const ORDER_SUCCESS = 'success';

/** `USR{user}NO{random}{unix seconds}`: unique, and says whose order it is at a glance. */
export function newTradeNo(userId: number, now: number): string {
  return `USR${userId}NO${randomBytes(6).toString('hex')}${now}`;
}

export interface NewOrder {
  userId: number;
  quota: number;
  cents: number;
  tradeNo: string;
  /** The EPay type: alipay or wxpay. */
  paymentMethod: string;
  now: number;
  /** Set for an order that buys this subscription plan (then `quota` is 0). */
  planId?: number;
}

export async function insertOrder(db: Db, order: NewOrder): Promise<void> {
  await db
    .insertInto('top_ups')
    .values({
      user_id: order.userId,
      amount: order.quota,
      money: order.cents / 100,
      trade_no: order.tradeNo,
      payment_method: order.paymentMethod,
      status: ORDER_PENDING,
      create_time: order.now,
      plan_id: order.planId ?? null,
    })
    .execute();
}

export type PaidOutcome =
  { kind: 'credited'; userId: number; quota: number } | { kind: 'already' } | { kind: 'unknown' } | { kind: 'mismatch' };

/**
 * Completes the order paid for: checks the amount, marks it done, credits its quota and writes
 * the top-up log row, all or nothing. `describe` words the log line.
 */
export async function completeOrder(
  db: Db,
  kind: DbKind,
  tradeNo: string,
  paidCents: number,
  now: number,
  describe: (quota: number, cents: number) => LogText,
): Promise<PaidOutcome> {
  return db.transaction().execute(async (trx): Promise<PaidOutcome> => {
    const order = await trx
      .selectFrom('top_ups')
      .select(['id', 'user_id', 'amount', 'money', 'status', 'plan_id'])
      .where('trade_no', '=', tradeNo)
      .executeTakeFirst();
    if (!order) return { kind: 'unknown' };
    if (Math.round(Number(order.money) * 100) !== paidCents) return { kind: 'mismatch' };
    const done = await trx
      .updateTable('top_ups')
      .set({ status: ORDER_SUCCESS, complete_time: now })
      .where('id', '=', order.id)
      .where('status', '=', ORDER_PENDING)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) return { kind: 'already' };
    if (order.plan_id !== null) {
      await subscribeFromOrder(
        trx,
        kind,
        { id: order.id, user_id: order.user_id, plan_id: order.plan_id, money: Number(order.money) },
        now,
      );
      return { kind: 'credited', userId: order.user_id, quota: 0 };
    }
    const quota = Number(order.amount);
    await creditUser(trx, order.user_id, quota);
    await recordLog(trx, kind, {
      user_id: order.user_id,
      username: (await findUsername(trx, order.user_id)) ?? '',
      created_at: now,
      type: LOG_TOPUP,
      quota,
      ...withText(describe(quota, paidCents)),
    });
    return { kind: 'credited', userId: order.user_id, quota };
  });
}

export interface OrderFilter {
  /** One user's orders; all when absent. */
  userId?: number;
  /** Part of the order number; empty matches all. */
  keyword: string;
  /** Only orders paid by this method (stripe, creem, alipay…). */
  method?: string;
  /** Only orders in this state. */
  status?: string;
}

function orders(db: Db, filter: OrderFilter) {
  let query = db.selectFrom('top_ups');
  if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
  if (filter.keyword !== '') query = query.where(likeExpr('trade_no', filter.keyword));
  if (filter.method) query = query.where('payment_method', '=', filter.method);
  if (filter.status) query = query.where('status', '=', filter.status);
  return query;
}

export async function countOrders(db: Db, filter: OrderFilter): Promise<number> {
  const row = await orders(db, filter)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Orders matching the filter, newest first. */
export async function listOrders(db: Db, filter: OrderFilter, limit: number, offset: number): Promise<TopUp[]> {
  return orders(db, filter).selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute();
}
