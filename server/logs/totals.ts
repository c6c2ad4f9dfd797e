/**
 * The exact hourly totals of the log rows (`log_totals`, migration 0013): count, quota and prompt +
 * completion tokens per type, hour and scope. They are added in the transaction that writes the
 * rows (server/logs/repository.ts is the only writer of both), so a total always equals the sum
 * over the rows it covers; the log cleanup and the retention job delete rows but keep the totals.
 * The log stat reads its whole hours here (server/logs/list-repository.ts).
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DbKind } from '../db/dsn.js';
import type { PreparedStatements } from '../db/prepared.js';
import type { Db } from '../db/index.js';
import type { Database, LogTotalsTable, NewLog } from '../db/types.js';

type Executor = Kysely<Database> | Transaction<Database>;

interface ScopeDef {
  /** The stored code (migration 0013 uses the same). */
  code: number;
  /** The scope's value for a row. */
  dim: (row: NewLog) => string;
  /** Kept per model: the filter may also name a model, and the dashboard groups by it. */
  perModel: boolean;
}

export const LOG_TOTAL_SCOPES = {
  all: { code: 0, dim: () => '', perModel: true },
  user: { code: 1, dim: (r) => String(r.user_id ?? 0), perModel: true },
  username: { code: 2, dim: (r) => r.username ?? '', perModel: false },
  token: { code: 3, dim: (r) => r.token_name ?? '', perModel: false },
  channel: { code: 4, dim: (r) => String(r.channel_id ?? 0), perModel: true },
  group: { code: 5, dim: (r) => r.group ?? '', perModel: false },
} satisfies Record<string, ScopeDef>;

export type LogTotalScope = keyof typeof LOG_TOTAL_SCOPES;

const SCOPES: readonly ScopeDef[] = Object.values(LOG_TOTAL_SCOPES);

export const HOUR = 3600;

/** Rows per upsert statement: 8 parameters each. */
const UPSERT_CHUNK = 250;

/** Rows alike in every dimension a scope reads, added up. */
interface Alike {
  row: NewLog;
  bucket: number;
  count: number;
  quota: number;
  tokens: number;
}

/**
 * The rows' totals, one entry per key, sorted so that concurrent writers lock them in one order.
 * The rows of a batch mostly share every dimension: they are added up by all of them first, so that
 * each scope's key is made once per kind of row rather than once per row.
 */
function totalsOf(rows: readonly NewLog[]): LogTotalsTable[] {
  const alike = new Map<string, Alike>();
  for (const row of rows) {
    const bucket = row.created_at - (row.created_at % HOUR);
    const tokens = (row.prompt_tokens ?? 0) + (row.completion_tokens ?? 0);
    // Each text preceded by its length: no name, whatever it holds, makes two kinds of row one.
    const model = row.model_name ?? '';
    let kind = `${row.type}:${bucket}:${model.length}:${model}`;
    for (const scope of SCOPES) {
      const dim = scope.dim(row);
      kind += `${dim.length}:${dim}`;
    }
    const sum = alike.get(kind);
    if (sum) {
      sum.count += 1;
      sum.quota += row.quota ?? 0;
      sum.tokens += tokens;
    } else alike.set(kind, { row, bucket, count: 1, quota: row.quota ?? 0, tokens });
  }
  const byKey = new Map<string, LogTotalsTable>();
  for (const { row, bucket, count, quota, tokens } of alike.values()) {
    for (const scope of SCOPES) {
      const dim = scope.dim(row);
      const model = scope.perModel ? (row.model_name ?? '') : '';
      const key = `${scope.code}\u0000${dim}\u0000${row.type}\u0000${bucket}\u0000${model}`;
      const total = byKey.get(key);
      if (total) {
        total.count += count;
        total.quota += quota;
        total.tokens += tokens;
      } else byKey.set(key, { scope: scope.code, dim, type: row.type, bucket, model_name: model, count, quota, tokens });
    }
  }
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, t]) => t);
}

const COLUMNS = ['scope', 'dim', 'type', 'bucket', 'model_name', 'count', 'quota', 'tokens'] as const;
type Column = (typeof COLUMNS)[number];

/** The upsert of `n` rows, each value given by `value(row, column)`. */
function upsert(executor: Executor, kind: DbKind, n: number, value: (i: number, column: Column) => unknown) {
  const rows = Array.from({ length: n }, (_, i) => Object.fromEntries(COLUMNS.map((c) => [c, value(i, c)])));
  const insert = executor.insertInto('log_totals').values(rows as never);
  if (kind === 'mysql') {
    return insert.onDuplicateKeyUpdate({
      count: sql<number>`count + values(count)`,
      quota: sql<number>`quota + values(quota)`,
      tokens: sql<number>`tokens + values(tokens)`,
    });
  }
  return insert.onConflict((oc) =>
    oc.columns(['scope', 'dim', 'type', 'bucket', 'model_name']).doUpdateSet({
      count: sql<number>`log_totals.count + excluded.count`,
      quota: sql<number>`log_totals.quota + excluded.quota`,
      tokens: sql<number>`log_totals.tokens + excluded.tokens`,
    }),
  );
}

/**
 * Adds `rows` (about to be inserted in the same transaction) to their totals. With `statements`
 * (the journal's batches) each statement shape is compiled once.
 */
export async function addLogTotals(
  executor: Executor,
  kind: DbKind,
  rows: readonly NewLog[],
  statements?: PreparedStatements,
): Promise<void> {
  const totals = totalsOf(rows);
  for (let i = 0; i < totals.length; i += UPSERT_CHUNK) {
    const chunk = totals.slice(i, i + UPSERT_CHUNK);
    if (statements) {
      await statements.run(
        executor,
        `log_totals:${kind}:${chunk.length}`,
        (p) => upsert(executor, kind, chunk.length, (row, column) => p(`${row}.${column}`)),
        (name) => {
          const dot = name.indexOf('.');
          return chunk[Number(name.slice(0, dot))]![name.slice(dot + 1) as Column];
        },
      );
    } else {
      await upsert(executor, kind, chunk.length, (row, column) => chunk[row]![column]).execute();
    }
  }
}

export interface TotalsSelection {
  scope: LogTotalScope;
  dim: string;
  /** Only in a scope kept per model. */
  model?: string | undefined;
  type: number;
  /** Inclusive bounds on the bucket (the start of its hour); absent: unbounded. */
  from?: number | undefined;
  to?: number | undefined;
}

/** The quota of the rows in the selection. */
export async function sumTotalsQuota(db: Db, q: TotalsSelection): Promise<number> {
  const row = await db
    .selectFrom('log_totals')
    .select((eb) => eb.fn.sum<number | string>('quota').as('quota'))
    .where((eb) => {
      const c = [eb('scope', '=', LOG_TOTAL_SCOPES[q.scope].code), eb('dim', '=', q.dim), eb('type', '=', q.type)];
      if (q.from !== undefined) c.push(eb('bucket', '>=', q.from));
      if (q.to !== undefined) c.push(eb('bucket', '<=', q.to));
      if (q.model) c.push(eb('model_name', '=', q.model));
      return eb.and(c);
    })
    .executeTakeFirst();
  return Number(row?.quota ?? 0);
}
