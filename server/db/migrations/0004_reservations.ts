import { sql } from 'kysely';
import type { MigrationDb } from '../types.js';
import type { DbKind } from '../dsn.js';

// Quota held by calls in flight, written in the same transaction as the debit that holds it, and
// the gateway processes that hold them (their heartbeat tells a live process from a dead one, whose
// holds another process then resolves). Rows of `reservations` live for one call: the table stays
// as small as the calls in flight, so it has no index but its key (on SQLite the rows are stored in
// the key's tree itself: one tree to write per row, not two).
export async function up(db: MigrationDb, kind: DbKind): Promise<void> {
  const big = 'bigint' as const;
  let reservations = db.schema
    .createTable('reservations')
    .addColumn('id', 'varchar(48)', (c) => c.primaryKey())
    .addColumn('node', 'varchar(48)', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('token_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('unlimited_token', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('amount', big, (c) => c.notNull().defaultTo(0))
    .addColumn('delivered', big, (c) => c.notNull().defaultTo(0))
    .addColumn('prompt_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('completion_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('channel_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('record', 'text')
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('updated_at', big, (c) => c.notNull());
  if (kind === 'sqlite') reservations = reservations.modifyEnd(sql`without rowid`);
  await reservations.execute();

  await db.schema
    .createTable('nodes')
    .addColumn('id', 'varchar(48)', (c) => c.primaryKey())
    .addColumn('host', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('scope', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('pid', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pid_start', big, (c) => c.notNull().defaultTo(0))
    .addColumn('started_at', big, (c) => c.notNull())
    .addColumn('seen_at', big, (c) => c.notNull())
    .execute();
}
