/**
 * Writes of the `logs` table (and its `log_extends` rows): every log row goes in through
 * `recordLog`, or, for the journal's batches, `insertLogRows`; the cleanup deletes old rows. The
 * console's reads are in server/logs/list-repository.ts.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Db } from '../db/index.js';
import type { DbKind } from '../db/dsn.js';
import type { PreparedStatements } from '../db/prepared.js';
import type { Database, Log, LogExtend, NewLog } from '../db/types.js';
import { addLogTotals } from './totals.js';

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * Writes one log row and adds it to its totals: in the caller's transaction when it records a
 * balance change, else in one of its own (row and totals stay equal).
 */
export async function recordLog(executor: Executor, kind: DbKind, row: NewLog): Promise<void> {
  const write = async (trx: Executor) => {
    await trx.insertInto('logs').values(row).execute();
    await addLogTotals(trx, kind, [row]);
  };
  if (executor.isTransaction) await write(executor);
  else await (executor as Kysely<Database>).transaction().execute(write);
}

/** The columns of a batched insert: every row names all of them (see completeLog). */
const LOG_COLUMNS = [
  'user_id',
  'created_at',
  'type',
  'content',
  'username',
  'token_name',
  'token_id',
  'model_name',
  'quota',
  'prompt_tokens',
  'completion_tokens',
  'use_time',
  'is_stream',
  'channel_id',
  'group',
  'ip',
  'other',
] as const;

// Rows inserted together must name the same columns (SQLite has no DEFAULT in a VALUES list).
const LOG_DEFAULTS = {
  content: '',
  username: '',
  token_name: '',
  token_id: 0,
  model_name: '',
  quota: 0,
  prompt_tokens: 0,
  completion_tokens: 0,
  use_time: 0,
  is_stream: 0,
  channel_id: 0,
  group: '',
  ip: '',
  other: '',
} satisfies Partial<NewLog>;

/**
 * Fills the columns a row for `insertLogRows` leaves out with their defaults, in place (rows are
 * handed over, not shared), so that the hot path builds no second object per row.
 */
export function completeLog(row: NewLog): NewLog {
  const r = row as Record<string, unknown>;
  for (const key in LOG_DEFAULTS) {
    const value = r[key];
    if (value === undefined) r[key] = LOG_DEFAULTS[key as keyof typeof LOG_DEFAULTS];
    // Text from a client or an upstream (a model name, an error message) may hold a NUL, which
    // PostgreSQL refuses: the row would fail, and a settlement's with it.
    else if (typeof value === 'string' && value.includes('\u0000')) r[key] = value.replaceAll('\u0000', '');
  }
  return row;
}

/** Rows per statement: 17 parameters each keeps every database well under its parameter limit. */
const INSERT_CHUNK = 200;

/**
 * Inserts completed rows (see completeLog) a chunk per statement, each statement compiled once per
 * row count by `statements` (the journal's batches run this thousands of times), and adds them to
 * their totals. The caller's transaction holds both.
 */
export async function insertLogRows(
  executor: Executor,
  kind: DbKind,
  statements: PreparedStatements,
  rows: readonly NewLog[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await statements.insertRows(executor, 'logs', LOG_COLUMNS, rows.slice(i, i + INSERT_CHUNK));
  }
  // Last: the busiest totals rows are locked for the shortest time.
  await addLogTotals(executor, kind, rows, statements);
}

/** The oldest rows of the main database's outbox (LOG_SQL_DSN, server/logs/shipper.ts), with their extends. */
export async function oldestLogs(db: Db, limit: number): Promise<{ rows: Log[]; extras: LogExtend[] }> {
  const rows = await db.selectFrom('logs').selectAll().orderBy('id').limit(limit).execute();
  const ids = rows.map((r) => r.id);
  const extras = ids.length > 0 ? await db.selectFrom('log_extends').selectAll().where('log_id', 'in', ids).execute() : [];
  return { rows, extras };
}

/** Rows per statement of a copy: 18 parameters each keeps every database under its limit. */
const COPY_CHUNK = 200;

/**
 * Inserts copies of rows under their own ids, in one transaction, skipping the ids (and extends)
 * `db` already holds: a copy made twice lands once.
 */
export async function insertLogCopies(
  db: Db,
  kind: DbKind,
  { rows, extras }: { rows: readonly Log[]; extras: readonly LogExtend[] },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += COPY_CHUNK) {
      const insert = trx.insertInto('logs').values(rows.slice(i, i + COPY_CHUNK) as NewLog[]);
      await (
        kind === 'mysql'
          ? insert.onDuplicateKeyUpdate((eb) => ({ id: eb.ref('logs.id') }))
          : insert.onConflict((oc) => oc.column('id').doNothing())
      ).execute();
    }
    if (extras.length === 0) return;
    const ids = extras.map((e) => e.log_id);
    const have = new Set(
      (await trx.selectFrom('log_extends').select('log_id').where('log_id', 'in', ids).execute()).map((r) => r.log_id),
    );
    const missing = extras.filter((e) => !have.has(e.log_id));
    if (missing.length > 0) await trx.insertInto('log_extends').values(missing).execute();
  });
}

/** Deletes log rows and their extends by id, in one transaction. */
export async function deleteLogsById(db: Db, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('log_extends').where('log_id', 'in', ids).execute();
    await trx.deleteFrom('logs').where('id', 'in', ids).execute();
  });
}

/**
 * A cleanup's batches are sized to hold the write lock about this long: deleting a row touches each
 * of the table's eight indexes, which at 10M rows costs SQLite some 0.1–0.2 ms a row (5,000 rows:
 * half a second of refused writes) and PostgreSQL about a tenth of that.
 */
const BATCH_TARGET_MS = 50;
const FIRST_BATCH = 500;
const MIN_BATCH = 100;
export const MAX_CLEANUP_BATCH = 5_000;

/** Between two batches of a cleanup: let waiting requests in (better-sqlite3 runs each statement synchronously). */
const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface CleanupPace {
  /** The most rows one batch deletes. */
  maxBatch?: number;
  /** Awaited after each full batch. */
  between?: () => Promise<void>;
}

/**
 * Deletes the rows created before `before` (and their log_extends rows) in batches, each in its own
 * short transaction sized from the last one's time to take about BATCH_TARGET_MS, with `between`
 * awaited after it, so the relay's log writes interleave with a large cleanup instead of waiting
 * for all of it. Returns the number of log rows deleted. Their totals (log_totals) stay.
 */
export async function deleteLogsBefore(db: Db, before: number, pace: CleanupPace = {}): Promise<number> {
  const max = pace.maxBatch ?? MAX_CLEANUP_BATCH;
  const min = Math.min(MIN_BATCH, max);
  let size = Math.min(FIRST_BATCH, max);
  let deleted = 0;
  for (;;) {
    const ids = (await db.selectFrom('logs').select('id').where('created_at', '<', before).limit(size).execute()).map(
      (r) => r.id,
    );
    if (ids.length === 0) return deleted;
    const started = performance.now();
    deleted += await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('log_extends').where('log_id', 'in', ids).execute();
      const result = await trx.deleteFrom('logs').where('id', 'in', ids).executeTakeFirst();
      return Number(result.numDeletedRows);
    });
    if (ids.length < size) return deleted;
    const ms = Math.max(1, performance.now() - started);
    size = Math.max(min, Math.min(max, Math.round((size * BATCH_TARGET_MS) / ms)));
    await (pace.between ?? yieldTurn)();
  }
}
