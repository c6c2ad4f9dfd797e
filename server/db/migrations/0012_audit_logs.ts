import { sql } from 'kysely';
import type { MigrationDb } from '../types.js';
import type { DbKind } from '../dsn.js';

// The admin audit log: one row per subject an admin or root changed through the console API, with
// who, when, from where, under which request id, and what changed (secrets masked). `changes`
// holds a whole option price map before and after a reset: MySQL's TEXT (64 KB) is too small.
export async function up(db: MigrationDb, kind: DbKind): Promise<void> {
  const str = (n: number) => `varchar(${n})` as const;
  const table = db.schema.createTable('audit_logs');
  await (
    kind === 'postgres'
      ? table.addColumn('id', 'serial', (c) => c.primaryKey())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
  )
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('request_id', str(64), (c) => c.notNull())
    .addColumn('actor_id', 'integer', (c) => c.notNull())
    .addColumn('actor_username', str(64), (c) => c.notNull())
    .addColumn('actor_role', 'integer', (c) => c.notNull())
    .addColumn('ip', str(64), (c) => c.notNull().defaultTo(''))
    .addColumn('route', str(160), (c) => c.notNull())
    .addColumn('subject', str(32), (c) => c.notNull())
    .addColumn('subject_id', str(128), (c) => c.notNull().defaultTo(''))
    .addColumn('action', str(32), (c) => c.notNull())
    .addColumn('outcome', str(16), (c) => c.notNull())
    .addColumn('changes', kind === 'mysql' ? sql`mediumtext` : 'text', (c) => c.notNull())
    .execute();
  // The screen lists newest first, narrowed by one of these.
  await db.schema.createIndex('audit_logs_created').on('audit_logs').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('audit_logs_subject').on('audit_logs').columns(['subject', 'subject_id']).execute();
  await db.schema.createIndex('audit_logs_actor').on('audit_logs').columns(['actor_id', 'created_at']).execute();
  await db.schema.createIndex('audit_logs_request').on('audit_logs').column('request_id').execute();
}
