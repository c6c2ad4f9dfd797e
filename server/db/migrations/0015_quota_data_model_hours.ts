import { sql } from 'kysely';
import type { MigrationDb } from '../types.js';
import type { DbKind } from '../dsn.js';

/**
 * quota_data summed over users and channels, per hour and model: the dashboard of all users shows
 * one series per model, so it reads this, one row per model an hour, instead of summing
 * quota_data_models' row per model and channel (a month of 50 models on 20 channels is 720,000 of
 * those for 36,000 answer rows). Written by server/logs/hourly-totals.ts in the transaction of
 * quota_data, so it always equals the sum of quota_data.
 */
export async function up(db: MigrationDb, kind: DbKind): Promise<void> {
  // SQLite: rows stored in key order, so a range of hours is read without a lookup per row.
  await db.schema
    .createTable('quota_data_model_hours')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('model_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('token_used', 'bigint', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull())
    .addColumn('quota', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('quota_data_model_hours_pk', ['created_at', 'model_name'])
    .modifyEnd(kind === 'sqlite' ? sql`without rowid` : sql``)
    .execute();
  await backfill(db);
}

/** The roll-up of the totals already kept (also what bench/logs.mjs runs after filling), in key order (see 0014). */
export async function backfill(db: MigrationDb): Promise<void> {
  await sql`
    insert into quota_data_model_hours (created_at, model_name, token_used, count, quota)
    select created_at, model_name, sum(token_used), sum(count), sum(quota)
    from quota_data group by created_at, model_name
    order by created_at, model_name`.execute(db);
}
