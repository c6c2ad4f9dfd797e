import { sql } from 'kysely';
import type { MigrationDb } from '../types.js';
import type { DbKind } from '../dsn.js';

/**
 * Opt-in body logs: the request and answer bodies of calls, kept apart from the log rows (which
 * they would make wide) in the log database, found by the request id a log row carries, deleted
 * after their own retention. A token's `log_bodies` is its owner's opt-in.
 */
export async function up(db: MigrationDb, kind: DbKind): Promise<void> {
  await db.schema
    .alterTable('tokens')
    .addColumn('log_bodies', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // MySQL's TEXT stops at 64 KiB; a body may be capped higher.
  const body = kind === 'mysql' ? sql`mediumtext` : sql`text`;
  await db.schema
    .createTable('log_bodies')
    .addColumn('id', kind === 'postgres' ? 'serial' : 'integer', (c) =>
      kind === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('request_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('token_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('request_body', body, (c) => c.notNull())
    .addColumn('response_body', body, (c) => c.notNull())
    .addColumn('request_truncated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('response_truncated', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('log_bodies_request').on('log_bodies').column('request_id').execute();
  await db.schema.createIndex('log_bodies_created').on('log_bodies').columns(['created_at', 'id']).execute();
}
