import type { MigrationDb } from '../types.js';
import type { DbKind } from '../dsn.js';

/**
 * Card payments (Stripe, Creem) beside EPay. `top_ups.gateway_ref` holds the provider's id of the
 * money movement (Stripe's PaymentIntent, Creem's order) so a refund or dispute, which names only
 * that, finds its order. `payment_events` keeps every provider event taken, once per event id.
 */
export async function up(db: MigrationDb, kind: DbKind): Promise<void> {
  await db.schema.alterTable('top_ups').addColumn('gateway_ref', 'varchar(191)').execute();
  await db.schema.createIndex('top_ups_gateway_ref').on('top_ups').column('gateway_ref').execute();
  const table =
    kind === 'postgres'
      ? db.schema.createTable('payment_events').addColumn('id', 'serial', (c) => c.primaryKey())
      : db.schema.createTable('payment_events').addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  await table
    .addColumn('provider', 'varchar(16)', (c) => c.notNull())
    .addColumn('event_id', 'varchar(191)', (c) => c.notNull())
    .addColumn('event_type', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('trade_no', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('outcome', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('payment_events_provider_event')
    .unique()
    .on('payment_events')
    .columns(['provider', 'event_id'])
    .execute();
}
