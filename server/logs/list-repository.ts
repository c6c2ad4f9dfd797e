/**
 * Reads of the `logs` table for the console (the writes are in server/logs/repository.ts), written
 * to stay fast at millions of rows:
 *
 * - Every filter is an exact match or a created_at range, so each list walks one of the
 *   "column, created_at" indexes of migration 0001 newest first and stops after the page.
 * - A page is read in two steps (a "deferred join"): the ids of the page from the index alone
 *   (SQLite and InnoDB indexes carry the row id), then those rows by primary key. Skipping the
 *   offset of a deep page therefore touches index entries, never whole rows.
 * - `total` counts at most LOG_COUNT_WINDOW rows past the page (see LogListPage): an exact count of
 *   an unfiltered table costs as much as reading it.
 * - The stat's quota reads the exact hourly totals (server/logs/totals.ts) for the whole hours of
 *   its range and the rows only for the partial hours at its ends.
 */
import { sql, type Expression, type ExpressionBuilder, type Selectable, type SqlBool } from 'kysely';
import type { Db } from '../db/index.js';
import type { DbKind } from '../db/dsn.js';
import type { Database, LogsTable } from '../db/types.js';
import { LOG_COUNT_WINDOW, type LogStat } from './schemas.js';
import { HOUR, LOG_TOTAL_SCOPES, sumTotalsQuota, type LogTotalScope } from './totals.js';
import { LOG_CONSUME } from './types.js';
import { SPARSE_LOG_COLUMNS, sparseIndexes, sparseTerm, type SparseColumn } from './search-indexes.js';

/** What a list, a count or a stat is narrowed by; absent, empty or 0 means "any". */
export interface LogFilter {
  userId?: number;
  /** 0 = every type. */
  type?: number;
  username?: string;
  tokenName?: string;
  tokenId?: number;
  modelName?: string;
  /** Inclusive bounds on created_at (Unix seconds). */
  start?: number;
  end?: number;
  channelId?: number;
  group?: string;
}

export type LogRecord = Pick<
  Selectable<LogsTable>,
  | 'id'
  | 'created_at'
  | 'type'
  | 'content'
  | 'username'
  | 'user_id'
  | 'token_name'
  | 'token_id'
  | 'model_name'
  | 'quota'
  | 'prompt_tokens'
  | 'completion_tokens'
  | 'use_time'
  | 'is_stream'
  | 'channel_id'
  | 'group'
  | 'other'
>;

const COLUMNS = [
  'id',
  'created_at',
  'type',
  'content',
  'username',
  'user_id',
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
  'other',
] as const;

type LogsEb = ExpressionBuilder<Database, 'logs'>;

type LogColumn = 'user_id' | 'username' | 'token_name' | 'channel_id' | 'model_name' | 'type' | 'group';

/**
 * The indexed equality filters, most selective first. The first one present drives the query (its
 * "column, created_at" index gives the rows newest first); see `matches` for why the order matters.
 */
const INDEXED: readonly {
  column: LogColumn;
  value: (f: LogFilter) => string | number | undefined;
  sparse?: SparseColumn;
}[] = [
  { column: 'user_id', value: (f) => f.userId },
  { column: 'username', value: (f) => f.username },
  { column: 'token_name', value: (f) => f.tokenName },
  { column: 'channel_id', value: (f) => f.channelId },
  { column: 'model_name', value: (f) => f.modelName },
  { column: 'type', value: (f) => f.type, sparse: 'type' },
  { column: 'group', value: (f) => f.group, sparse: 'group' },
];

const present = (v: string | number | undefined): v is string | number => v !== undefined && v !== '' && v !== 0;

/**
 * The WHERE clause of `filter`. PostgreSQL and MySQL choose among the indexes from their
 * statistics; SQLite keeps none unless ANALYZE ran, and may then walk e.g. the `type` index for a
 * query that also names a user: 380 ms instead of 0.1 ms at 2M rows for a user without rows. So
 * on SQLite only the most selective filter may use its index: the others are written
 * `+column = ?`, which SQLite documents as the way to keep a term off an index.
 *
 * The type and group indexes are sparse (server/logs/search-indexes.ts): the value they leave out
 * (consume rows, the default group) never drives, and a value they hold drives with the index's
 * condition beside it.
 */
function matches(filter: LogFilter, kind: DbKind) {
  return (eb: LogsEb): Expression<SqlBool> => {
    const conditions: Expression<SqlBool>[] = [];
    let driving = true;
    const add = (column: LogColumn, v: string | number, sparse?: SparseColumn) => {
      const skipped = sparse !== undefined && sparseIndexes(kind) && SPARSE_LOG_COLUMNS[sparse] === v;
      const drives = driving && !skipped;
      if (drives || kind !== 'sqlite') conditions.push(eb(column, '=', v));
      else conditions.push(sql<SqlBool>`+${sql.ref(column)} = ${v}`);
      if (drives && sparse !== undefined && sparseIndexes(kind)) conditions.push(sparseTerm(sparse));
      if (drives) driving = false;
    };
    for (const { column, value, sparse } of INDEXED) {
      const v = value(filter);
      if (present(v)) add(column, v, sparse);
    }
    if (present(filter.tokenId)) conditions.push(eb('token_id', '=', filter.tokenId));
    if (filter.start) conditions.push(eb('created_at', '>=', filter.start));
    if (filter.end) conditions.push(eb('created_at', '<=', filter.end));
    return eb.and(conditions);
  };
}

export interface LogSlice {
  rows: LogRecord[];
  total: number;
  /** `total` stopped at the count window: at least that many rows match. */
  capped: boolean;
}

/**
 * One page of matching rows, newest first (created_at, then id, descending), and their count up to
 * `window` rows past the page.
 */
export async function listLogs(
  db: Db,
  kind: DbKind,
  filter: LogFilter,
  limit: number,
  offset: number,
  window = LOG_COUNT_WINDOW,
): Promise<LogSlice> {
  const where = matches(filter, kind);
  const ids = (
    await db
      .selectFrom('logs')
      .select('id')
      .where(where)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute()
  ).map((r) => r.id);
  const { total, capped } =
    ids.length < limit && (ids.length > 0 || offset === 0)
      ? // A short page is the last one: where it ends is the count, without a second pass.
        { total: offset + ids.length, capped: false }
      : await countWindow(db, where, offset + limit + window);
  if (ids.length === 0) return { rows: [], total, capped };
  const found = await db.selectFrom('logs').select(COLUMNS).where('id', 'in', ids).execute();
  const byId = new Map(found.map((r) => [r.id, r]));
  const rows = ids.flatMap((id) => byId.get(id) ?? []);
  return { rows, total, capped };
}

/** The number of matching rows, counting no further than `limit`. */
async function countWindow(
  db: Db,
  where: (eb: LogsEb) => Expression<SqlBool>,
  limit: number,
): Promise<{ total: number; capped: boolean }> {
  // One row past the limit tells "exactly `limit`" from "more than that".
  const counted = await db
    .selectFrom((qb) =>
      qb
        .selectFrom('logs')
        .select('id')
        .where(where)
        .limit(limit + 1)
        .as('matching'),
    )
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  const n = Number(counted.n);
  return n > limit ? { total: limit, capped: true } : { total: n, capped: false };
}

/**
 * The scope of log_totals that holds the rows `filter` names (time aside), or null when only the
 * rows themselves can answer: a key (token id), two narrowing columns at once, or a model in a
 * scope kept without models.
 */
function totalsScope(f: LogFilter): { scope: LogTotalScope; dim: string } | null {
  if (present(f.tokenId)) return null;
  const named = (
    [
      ['user', f.userId],
      ['username', f.username],
      ['token', f.tokenName],
      ['channel', f.channelId],
      ['group', f.group],
    ] as const
  ).filter(([, v]) => present(v));
  if (named.length > 1) return null;
  const [scope, value] = named[0] ?? ['all', ''];
  if (present(f.modelName) && !LOG_TOTAL_SCOPES[scope].perModel) return null;
  return { scope, dim: String(value) };
}

async function rowsQuota(db: Db, kind: DbKind, filter: LogFilter): Promise<number> {
  const spent = await db
    .selectFrom('logs')
    .select((eb) => eb.fn.sum<number | string>('quota').as('quota'))
    .where(matches(filter, kind))
    .executeTakeFirst();
  return Number(spent?.quota ?? 0);
}

/**
 * Where a stat reads: the rows (with LOG_SQL_DSN, in the log database) and their hourly totals
 * (always in the main database, written with the quota movement; see server/logs/shipper.ts).
 */
export interface LogStatSources {
  rows: Db;
  rowsKind: DbKind;
  totals: Db;
}

/**
 * The quota of the rows matching `filter` (which names a type): the whole hours of its range from
 * their totals, the partial hours at either end from the rows, so the sum is exact whatever the
 * bounds. At 10M rows a sum over the rows of all time takes seconds; over the totals, milliseconds.
 */
async function quotaOf(src: LogStatSources, f: LogFilter): Promise<number> {
  const scope = totalsScope(f);
  const rows = (filter: LogFilter) => rowsQuota(src.rows, src.rowsKind, filter);
  // The whole hours: buckets from `from` up to, not including, `until`.
  const from = f.start ? Math.ceil(f.start / HOUR) * HOUR : undefined;
  const until = f.end ? Math.floor((f.end + 1) / HOUR) * HOUR : undefined;
  if (!scope || (from !== undefined && until !== undefined && from >= until)) return rows(f);
  const parts = [
    sumTotalsQuota(src.totals, {
      ...scope,
      model: f.modelName || undefined,
      type: f.type ?? LOG_CONSUME,
      from,
      to: until === undefined ? undefined : until - HOUR,
    }),
  ];
  if (f.start && from !== undefined && from > f.start) parts.push(rows({ ...f, end: from - 1 }));
  if (f.end && until !== undefined && until <= f.end) parts.push(rows({ ...f, start: until }));
  return (await Promise.all(parts)).reduce((a, b) => a + b, 0);
}

/**
 * quota: spend of the consume rows matching `filter` (its type is ignored); rpm and tpm: consume
 * rows and their prompt + completion tokens in the 60 s up to `now`, under the same filters except
 * the time range.
 */
export async function logStat(src: LogStatSources, filter: LogFilter, now: number): Promise<LogStat> {
  const consume = { ...filter, type: LOG_CONSUME };
  const quota = await quotaOf(src, consume);
  const recent = await src.rows
    .selectFrom('logs')
    .select((eb) => [
      eb.fn.countAll().as('requests'),
      eb.fn.sum<number | string>(eb('prompt_tokens', '+', eb.ref('completion_tokens'))).as('tokens'),
    ])
    .where(matches({ ...consume, start: now - 60, end: undefined }, src.rowsKind))
    .executeTakeFirst();
  return {
    quota,
    rpm: Number(recent?.requests ?? 0),
    tpm: Number(recent?.tokens ?? 0),
  };
}

export async function findLogOwner(db: Db, id: number): Promise<number | undefined> {
  const row = await db.selectFrom('logs').select('user_id').where('id', '=', id).executeTakeFirst();
  return row?.user_id;
}

/** The owner of a log row and the request id its `other` names (empty when none). */
export async function findLogRequest(db: Db, id: number): Promise<{ userId: number; requestId: string } | undefined> {
  const row = await db.selectFrom('logs').select(['user_id', 'other']).where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  let requestId = '';
  try {
    const other = JSON.parse(row.other ?? '') as { request_id?: unknown };
    if (typeof other?.request_id === 'string') requestId = other.request_id;
  } catch {
    // Not JSON: no request id.
  }
  return { userId: row.user_id, requestId };
}

export async function findLogExtend(db: Db, logId: number): Promise<{ prompt: string; completion: string }> {
  const row = await db.selectFrom('log_extends').select(['prompt', 'completion']).where('log_id', '=', logId).executeTakeFirst();
  return { prompt: row?.prompt ?? '', completion: row?.completion ?? '' };
}

/** What the user (or one token of theirs) was charged by consume rows since `since`: what a spend cap measures. */
export async function spentSince(logDb: Db, userId: number, tokenId: number | null, since: number): Promise<number> {
  let q = logDb
    .selectFrom('logs')
    .select(sql<number>`coalesce(sum(quota), 0)`.as('spent'))
    .where('user_id', '=', userId)
    .where('type', '=', LOG_CONSUME)
    .where('created_at', '>=', since);
  if (tokenId !== null) q = q.where('token_id', '=', tokenId);
  const row = await q.executeTakeFirst();
  return Number(row?.spent ?? 0);
}
