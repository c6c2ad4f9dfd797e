/**
 * Buying a plan: the checks before an order is made, and what a paid order with a `plan_id` does
 * (a subscription instead of wallet credit), inside the transaction that marks the order paid.
 */
import type { Transaction } from 'kysely';
import type { Database, SubscriptionPlan } from '../db/types.js';
import type { DbKind } from '../db/dsn.js';
import { logText, withText } from '../logs/messages.js';
import { recordLog } from '../logs/repository.js';
import { LOG_TOPUP } from '../logs/types.js';
import { findUsername } from '../users/repository.js';
import { countHeld, createSubscription, findPlan } from './repository.js';

type Db = Transaction<Database> | import('kysely').Kysely<Database>;

export type PurchaseRefusal = 'plan_unknown' | 'plan_disabled' | 'plan_limit' | 'plan_free';

/** Why the user may not buy `planId` now, or the plan. */
export async function purchasable(db: Db, userId: number, planId: number): Promise<SubscriptionPlan | PurchaseRefusal> {
  const plan = await findPlan(db, planId);
  if (!plan) return 'plan_unknown';
  if (plan.enabled !== 1) return 'plan_disabled';
  if (!(Number(plan.price_amount) > 0)) return 'plan_free';
  if (plan.max_purchase_per_user > 0 && (await countHeld(db, userId, planId)) >= plan.max_purchase_per_user) return 'plan_limit';
  return plan;
}

/**
 * The paid order's subscription, with its log row. A plan disabled since the order was made is still
 * delivered (it was paid for); a plan deleted since cannot be, and the order is refused.
 */
export async function subscribeFromOrder(
  trx: Transaction<Database>,
  kind: DbKind,
  order: { id: number; user_id: number; plan_id: number; money: number },
  now: number,
): Promise<number> {
  const plan = await findPlan(trx, order.plan_id);
  if (!plan) throw new Error(`plan ${order.plan_id} of a paid order is gone`);
  const id = await createSubscription(trx, order.user_id, plan, 'order', now, order.id);
  await recordLog(trx, kind, {
    user_id: order.user_id,
    username: (await findUsername(trx, order.user_id)) ?? '',
    created_at: now,
    type: LOG_TOPUP,
    quota: 0,
    ...withText(logText(null, 'subscription_purchased', { plan: plan.title, paid: order.money.toFixed(2) }), {
      subscription_id: id,
      plan_id: plan.id,
    }),
  });
  return id;
}
