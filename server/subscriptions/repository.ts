/**
 * The only way into `subscription_plans`, `user_subscriptions` and a user's billing preference.
 * A subscription ends (expired, cancelled) by a conditional UPDATE on `status = 'active'`, so the
 * group it upgraded is reverted once, whoever ends it.
 */
import { sql, type Insertable, type Kysely, type Transaction, type Updateable } from 'kysely';
import type { Database, SubscriptionPlan, SubscriptionPlansTable, UserSubscription } from '../db/types.js';
import { endOf, periodAt, type DurationUnit, type ResetPeriod } from './periods.js';

type Executor = Kysely<Database> | Transaction<Database>;

export const BILLING_PREFERENCES = ['subscription_first', 'wallet_first', 'subscription_only', 'wallet_only'] as const;
export type BillingPreference = (typeof BILLING_PREFERENCES)[number];

export const SUB_ACTIVE = 'active';
export const SUB_EXPIRED = 'expired';
export const SUB_CANCELLED = 'cancelled';

export type PlanFields = Omit<Insertable<SubscriptionPlansTable>, 'id' | 'created_at' | 'updated_at'>;

export async function listPlans(db: Executor, enabledOnly: boolean): Promise<SubscriptionPlan[]> {
  let q = db.selectFrom('subscription_plans').selectAll();
  if (enabledOnly) q = q.where('enabled', '=', 1);
  return q.orderBy('sort_order', 'desc').orderBy('id', 'asc').execute();
}

export async function findPlan(db: Executor, id: number): Promise<SubscriptionPlan | undefined> {
  return db.selectFrom('subscription_plans').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertPlan(db: Executor, fields: PlanFields, now: number): Promise<number> {
  const values = { ...fields, created_at: now, updated_at: now };
  const inserted = await db.insertInto('subscription_plans').values(values).executeTakeFirst();
  if (inserted.insertId !== undefined) return Number(inserted.insertId);
  const row = await db.selectFrom('subscription_plans').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
  return row.id;
}

export async function updatePlan(
  db: Executor,
  id: number,
  fields: Updateable<SubscriptionPlansTable>,
  now: number,
): Promise<boolean> {
  const r = await db
    .updateTable('subscription_plans')
    .set({ ...fields, updated_at: now })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function listUserSubscriptions(db: Executor, userId: number): Promise<UserSubscription[]> {
  return db
    .selectFrom('user_subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('end_time', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** The user's subscriptions that can pay now, soonest to end first (they are used up first). */
export async function activeSubscriptions(db: Executor, userId: number, now: number): Promise<UserSubscription[]> {
  return db
    .selectFrom('user_subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', '=', SUB_ACTIVE)
    .where('end_time', '>', now)
    .orderBy('end_time', 'asc')
    .orderBy('id', 'asc')
    .execute();
}

export async function findSubscription(db: Executor, id: number): Promise<UserSubscription | undefined> {
  return db.selectFrom('user_subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** How many subscriptions of `planId` the user has ever held (bought or bound). */
export async function countHeld(db: Executor, userId: number, planId: number): Promise<number> {
  const row = await db
    .selectFrom('user_subscriptions')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('user_id', '=', userId)
    .where('plan_id', '=', planId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * A subscription to `plan` for the user from `now`, with its first period full; a plan with an
 * upgrade group moves the user there (the group before is kept to revert to). Returns its id.
 */
export async function createSubscription(
  trx: Transaction<Database>,
  userId: number,
  plan: SubscriptionPlan,
  source: 'order' | 'admin',
  now: number,
  orderId: number | null = null,
): Promise<number> {
  const user = await trx.selectFrom('users').select('group').where('id', '=', userId).executeTakeFirst();
  if (!user) throw new Error(`user ${userId} not found`);
  const period = periodAt(plan.quota_reset_period as ResetPeriod, Number(plan.quota_reset_custom_seconds), now, now);
  const total = Number(plan.total_amount);
  const inserted = await trx
    .insertInto('user_subscriptions')
    .values({
      user_id: userId,
      plan_id: plan.id,
      amount_total: total,
      quota_left: total,
      start_time: now,
      end_time: endOf(plan.duration_unit as DurationUnit, plan.duration_value, Number(plan.custom_seconds), now),
      status: SUB_ACTIVE,
      source,
      quota_reset_period: plan.quota_reset_period,
      quota_reset_custom_seconds: Number(plan.quota_reset_custom_seconds),
      last_reset_time: period.start,
      next_reset_time: period.next,
      upgrade_group: plan.upgrade_group,
      prev_user_group: user.group,
      order_id: orderId,
      created_at: now,
      updated_at: now,
    })
    .executeTakeFirst();
  if (plan.upgrade_group !== '' && plan.upgrade_group !== user.group) {
    await trx.updateTable('users').set({ group: plan.upgrade_group }).where('id', '=', userId).execute();
  }
  if (inserted.insertId !== undefined) return Number(inserted.insertId);
  const row = await trx
    .selectFrom('user_subscriptions')
    .select('id')
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Ends an active subscription (`expired` or `cancelled`) and, when it upgraded the user's group and
 * no other active subscription does, puts the group back. Returns whether this call ended it.
 */
export async function endSubscription(trx: Transaction<Database>, id: number, status: string, now: number): Promise<boolean> {
  const sub = await findSubscription(trx, id);
  if (!sub) return false;
  const r = await trx
    .updateTable('user_subscriptions')
    .set({ status, updated_at: now, ...(status === SUB_CANCELLED ? { end_time: Math.min(now, sub.end_time) } : {}) })
    .where('id', '=', id)
    .where('status', '=', SUB_ACTIVE)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) return false;
  if (sub.upgrade_group !== '') await revertGroup(trx, sub, now);
  return true;
}

async function revertGroup(trx: Transaction<Database>, sub: UserSubscription, now: number): Promise<void> {
  const other = await trx
    .selectFrom('user_subscriptions')
    .select(['id', 'upgrade_group'])
    .where('user_id', '=', sub.user_id)
    .where('status', '=', SUB_ACTIVE)
    .where('end_time', '>', now)
    .where('upgrade_group', '!=', '')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  const next = other ? other.upgrade_group : sub.prev_user_group;
  await trx
    .updateTable('users')
    .set({ group: next })
    .where('id', '=', sub.user_id)
    .where('group', '=', sub.upgrade_group)
    .execute();
}

/** Ends the subscription a refunded or disputed order bought; true when one was active. */
export async function endOrderSubscription(trx: Transaction<Database>, orderId: number, now: number): Promise<boolean> {
  const sub = await trx.selectFrom('user_subscriptions').select('id').where('order_id', '=', orderId).executeTakeFirst();
  return sub ? endSubscription(trx, sub.id, SUB_CANCELLED, now) : false;
}

export async function deleteSubscription(trx: Transaction<Database>, id: number, now: number): Promise<boolean> {
  await endSubscription(trx, id, SUB_CANCELLED, now);
  const r = await trx.deleteFrom('user_subscriptions').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

/** Active subscriptions past their end: the ids, for the sweeper to end one by one. */
export async function dueToExpire(db: Executor, now: number): Promise<Array<{ id: number; user_id: number }>> {
  return db
    .selectFrom('user_subscriptions')
    .select(['id', 'user_id'])
    .where('status', '=', SUB_ACTIVE)
    .where('end_time', '<=', now)
    .limit(500)
    .execute();
}

/**
 * Starts the period containing `now` when the stored one is over: conditional on the period read,
 * so concurrent calls (or processes) reset it once. What the old period left does not carry over.
 */
export async function resetIfDue(db: Executor, sub: UserSubscription, now: number): Promise<boolean> {
  if (sub.next_reset_time <= 0 || sub.next_reset_time > now) return false;
  const p = periodAt(sub.quota_reset_period as ResetPeriod, Number(sub.quota_reset_custom_seconds), sub.start_time, now);
  const r = await db
    .updateTable('user_subscriptions')
    .set({ quota_left: sql`amount_total`, last_reset_time: p.start, next_reset_time: p.next, updated_at: now })
    .where('id', '=', sub.id)
    .where('last_reset_time', '=', sub.last_reset_time)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function billingPreference(db: Executor, userId: number): Promise<BillingPreference> {
  const row = await db.selectFrom('users').select('billing_preference').where('id', '=', userId).executeTakeFirst();
  const p = row?.billing_preference as BillingPreference | undefined;
  return p && BILLING_PREFERENCES.includes(p) ? p : 'subscription_first';
}

export async function setBillingPreference(db: Executor, userId: number, p: BillingPreference): Promise<void> {
  await db.updateTable('users').set({ billing_preference: p }).where('id', '=', userId).execute();
}
