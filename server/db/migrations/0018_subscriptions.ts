import type { CreateTableBuilder } from 'kysely';
import type { MigrationDb } from '../types.js';
import type { DbKind } from '../dsn.js';

type Table = CreateTableBuilder<string, never>;

/**
 * Subscription plans, the subscriptions users hold, and where a call's charge is drawn from.
 *
 * A subscription's `quota_left` is what its current period has left: reservations and settlements
 * move it by conditional UPDATEs like a wallet, and a reset (conditional on `last_reset_time`, so
 * two processes reset a period once) sets it back to `amount_total`. `used_total` only grows with
 * what was charged to it, so logs can be reconciled with it across resets. A reservation row says
 * which subscription and which period it was taken from, so a recovery returns it there.
 * A spend cap limits what a token or a user spends per day, week or month.
 */
export async function up(db: MigrationDb, kind: DbKind): Promise<void> {
  const id = (t: Table): Table =>
    kind === 'postgres'
      ? t.addColumn('id', 'serial', (c) => c.primaryKey())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  const text = (n: number) => `varchar(${n})` as const;
  await id(db.schema.createTable('subscription_plans'))
    .addColumn('title', text(128), (c) => c.notNull())
    .addColumn('subtitle', text(255), (c) => c.notNull().defaultTo(''))
    .addColumn('price_amount', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('currency', text(8), (c) => c.notNull().defaultTo('USD'))
    .addColumn('duration_unit', text(16), (c) => c.notNull().defaultTo('month'))
    .addColumn('duration_value', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('custom_seconds', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('stripe_price_id', text(128), (c) => c.notNull().defaultTo(''))
    .addColumn('creem_product_id', text(128), (c) => c.notNull().defaultTo(''))
    .addColumn('max_purchase_per_user', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_amount', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('upgrade_group', text(64), (c) => c.notNull().defaultTo(''))
    .addColumn('quota_reset_period', text(16), (c) => c.notNull().defaultTo('never'))
    .addColumn('quota_reset_custom_seconds', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();

  await id(db.schema.createTable('user_subscriptions'))
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('plan_id', 'integer', (c) => c.notNull())
    .addColumn('amount_total', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('quota_left', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('used_total', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('start_time', 'bigint', (c) => c.notNull())
    .addColumn('end_time', 'bigint', (c) => c.notNull())
    .addColumn('status', text(16), (c) => c.notNull().defaultTo('active'))
    .addColumn('source', text(16), (c) => c.notNull().defaultTo('order'))
    .addColumn('quota_reset_period', text(16), (c) => c.notNull().defaultTo('never'))
    .addColumn('quota_reset_custom_seconds', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_reset_time', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('next_reset_time', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('upgrade_group', text(64), (c) => c.notNull().defaultTo(''))
    .addColumn('prev_user_group', text(64), (c) => c.notNull().defaultTo(''))
    // The paid order it came from (null: bound by an admin), so a refunded order ends it.
    .addColumn('order_id', 'integer')
    .addColumn('created_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('user_subscriptions_user').on('user_subscriptions').columns(['user_id', 'status']).execute();

  await db.schema
    .alterTable('users')
    .addColumn('billing_preference', text(24), (c) => c.notNull().defaultTo('subscription_first'))
    .execute();
  await db.schema.alterTable('top_ups').addColumn('plan_id', 'integer').execute();
  await db.schema
    .alterTable('reservations')
    .addColumn('subscription_id', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('reservations')
    .addColumn('subscription_period', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();

  // Spend caps of tokens and users: at most `cap_limit` quota per day, week or month.
  await id(db.schema.createTable('spend_caps'))
    .addColumn('subject', text(8), (c) => c.notNull())
    .addColumn('subject_id', 'integer', (c) => c.notNull())
    .addColumn('period', text(16), (c) => c.notNull())
    .addColumn('cap_limit', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('spend_caps_subject').unique().on('spend_caps').columns(['subject', 'subject_id']).execute();
}
