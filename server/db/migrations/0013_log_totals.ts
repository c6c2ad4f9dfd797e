import { sql } from 'kysely';
import type { MigrationDb } from '../types.js';
import type { DbKind } from '../dsn.js';

/**
 * Exact hourly totals of the log rows (count, quota, prompt + completion tokens) per type and per
 * "scope": all rows, one user id, one username, one token name, one channel, one group; the scopes
 * `all`, `user` and `channel` also per model. The stat, dashboard and channel statistics routes sum
 * these instead of millions of rows. Every log write adds to them in its own transaction
 * (server/logs/totals.ts); the codes below are that module's.
 */
const SCOPES: ReadonlyArray<{ code: number; column: string | null; perModel: boolean }> = [
  { code: 0, column: null, perModel: true },
  { code: 1, column: 'user_id', perModel: true },
  { code: 2, column: 'username', perModel: false },
  { code: 3, column: 'token_name', perModel: false },
  { code: 4, column: 'channel_id', perModel: true },
  { code: 5, column: 'group', perModel: false },
];

export async function up(db: MigrationDb, kind: DbKind): Promise<void> {
  await db.schema
    .createTable('log_totals')
    .addColumn('scope', 'integer', (c) => c.notNull())
    .addColumn('dim', 'varchar(255)', (c) => c.notNull())
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('bucket', 'bigint', (c) => c.notNull())
    .addColumn('model_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull())
    .addColumn('quota', 'bigint', (c) => c.notNull())
    .addColumn('tokens', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('log_totals_pk', ['scope', 'dim', 'type', 'bucket', 'model_name'])
    // SQLite: rows stored in key order, so a range of hours is read without a lookup per row.
    .modifyEnd(kind === 'sqlite' ? sql`without rowid` : sql``)
    .execute();
  await backfill(db, kind);
}

/** Totals of the rows already logged (also what bench/logs.mjs runs after filling). */
export async function backfill(db: MigrationDb, kind: DbKind): Promise<void> {
  const text = kind === 'mysql' ? sql.raw('char') : sql.raw('text');
  for (const scope of SCOPES) {
    const dim = scope.column ? sql`cast(${sql.ref(scope.column)} as ${text})` : sql`''`;
    const model = scope.perModel ? sql.ref('model_name') : sql`''`;
    const bucket = sql`created_at - created_at % 3600`;
    // PostgreSQL refuses a constant in GROUP BY: group by the columns the scope keeps.
    const groups = [...(scope.column ? [dim] : []), sql.ref('type'), bucket, ...(scope.perModel ? [model] : [])];
    await sql`
      insert into log_totals (scope, dim, type, bucket, model_name, count, quota, tokens)
      select ${sql.lit(scope.code)}, ${dim}, type, ${bucket}, ${model}, count(*), sum(quota),
        sum(prompt_tokens + completion_tokens)
      from logs
      group by ${sql.join(groups)}`.execute(db);
  }
}
