import { sql } from 'kysely';
import type { MigrationDb } from '../types.js';
import type { DbKind } from '../dsn.js';

/**
 * The hourly totals of quota_data summed over users (per model and channel) and over models and
 * channels (per username): the dashboard of all users, the channel statistics and the ranking of
 * users read these, a few hundred rows an hour, instead of quota_data's row per user, model and
 * channel. The writer of quota_data (server/logs/hourly-totals.ts) adds to all three in one
 * transaction, so each roll-up always equals the sum of quota_data it stands for.
 */
export async function up(db: MigrationDb, kind: DbKind): Promise<void> {
  // SQLite: rows stored in key order, so a range of hours is read without a lookup per row.
  const clustered = kind === 'sqlite' ? sql`without rowid` : sql``;
  await db.schema
    .createTable('quota_data_models')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('model_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('channel_id', 'integer', (c) => c.notNull())
    .addColumn('token_used', 'bigint', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull())
    .addColumn('quota', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('quota_data_models_pk', ['created_at', 'model_name', 'channel_id'])
    .modifyEnd(clustered)
    .execute();
  // One channel's statistics over any range.
  await db.schema
    .createIndex('quota_data_models_channel')
    .on('quota_data_models')
    .columns(['channel_id', 'created_at'])
    .execute();
  await db.schema
    .createTable('quota_data_users')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('username', 'varchar(64)', (c) => c.notNull())
    .addColumn('token_used', 'bigint', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull())
    .addColumn('quota', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('quota_data_users_pk', ['created_at', 'username'])
    .modifyEnd(clustered)
    .execute();
  // The dashboard of a name no current user has reads quota_data by the stored name.
  await db.schema.createIndex('quota_data_username').on('quota_data').columns(['username', 'created_at']).execute();
  await backfill(db);
}

/**
 * The roll-ups of the totals already kept (also what bench/logs.mjs runs after filling), inserted in
 * key order: PostgreSQL then stores a range of hours together, as the hourly writes do, and reads
 * it a page per hundred rows instead of a page per row.
 */
export async function backfill(db: MigrationDb): Promise<void> {
  await sql`
    insert into quota_data_models (created_at, model_name, channel_id, token_used, count, quota)
    select created_at, model_name, channel_id, sum(token_used), sum(count), sum(quota)
    from quota_data group by created_at, model_name, channel_id
    order by created_at, model_name, channel_id`.execute(db);
  await sql`
    insert into quota_data_users (created_at, username, token_used, count, quota)
    select created_at, username, sum(token_used), sum(count), sum(quota)
    from quota_data group by created_at, username
    order by created_at, username`.execute(db);
}
