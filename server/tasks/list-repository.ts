/**
 * Reads of the `midjourneys` and `tasks` tables for the console's task lists, written to use the
 * indexes of migration 0001 (task id; user_id + submit_time) and stay fast on large tables:
 *
 * - A task id filter drives the query through its index; else a user filter through
 *   "user_id, submit_time", newest submission first; else the primary key, newest id first (rows
 *   are inserted at submission, so ids follow submit_time).
 * - A page is read in two steps: the ids of the page (index only), then those rows by primary key,
 *   so the offset of a deep page skips index entries, never whole rows.
 * - `total` counts at most TASK_COUNT_WINDOW rows past the page (see MjPage): an exact count of an
 *   unfiltered table costs as much as reading it.
 */
import { sql, type RawBuilder, type Selectable, type SqlBool } from 'kysely';
import type { Db } from '../db/index.js';
import type { DbKind } from '../db/dsn.js';
import type { MidjourneysTable, TasksTable } from '../db/types.js';
import { TASK_COUNT_WINDOW } from './list-schemas.js';
import type { TaskTable } from './status.js';

/** What a list is narrowed by; absent, empty or 0 means "any". */
export interface TaskListFilter {
  userId?: number;
  channelId?: number;
  /** Exact mj_id (drawing tasks) or task_id (other tasks). */
  taskId?: string;
  /** Inclusive bounds on submit_time, in the table's own unit (ms for drawings, s for tasks). */
  start?: number;
  end?: number;
}

const MJ_COLUMNS = [
  'id',
  'created_at',
  'submit_time',
  'start_time',
  'finish_time',
  'user_id',
  'channel_id',
  'action',
  'mj_id',
  'code',
  'status',
  'progress',
  'image_url',
  'prompt',
  'prompt_en',
  'fail_reason',
] as const;

const TASK_COLUMNS = [
  'id',
  'created_at',
  'submit_time',
  'start_time',
  'finish_time',
  'user_id',
  'channel_id',
  'platform',
  'action',
  'task_id',
  'status',
  'progress',
  'fail_reason',
] as const;

export type MjRecord = Pick<Selectable<MidjourneysTable>, (typeof MJ_COLUMNS)[number]>;
export type TaskRecord = Pick<Selectable<TasksTable>, (typeof TASK_COLUMNS)[number]>;

const ID_COLUMN: Record<TaskTable, string> = { midjourneys: 'mj_id', tasks: 'task_id' };

export interface Slice<T> {
  rows: T[];
  total: number;
  /** `total` stopped at the count window: at least that many rows match. */
  capped: boolean;
}

/**
 * The WHERE clause of `filter` (every value a bound parameter). SQLite keeps no statistics unless
 * ANALYZE ran, so there only the driving filter may use its index: a second equality is written
 * `+column = ?`, SQLite's documented way to keep a term off an index.
 */
function whereOf(table: TaskTable, filter: TaskListFilter, kind: DbKind): RawBuilder<SqlBool> {
  const parts: RawBuilder<unknown>[] = [];
  const byTaskId = Boolean(filter.taskId);
  if (filter.taskId) parts.push(sql`${sql.ref(ID_COLUMN[table])} = ${filter.taskId}`);
  if (filter.userId) {
    parts.push(
      byTaskId && kind === 'sqlite'
        ? sql`+${sql.ref('user_id')} = ${filter.userId}`
        : sql`${sql.ref('user_id')} = ${filter.userId}`,
    );
  }
  if (filter.channelId) parts.push(sql`${sql.ref('channel_id')} = ${filter.channelId}`);
  if (filter.start) parts.push(sql`${sql.ref('submit_time')} >= ${filter.start}`);
  if (filter.end) parts.push(sql`${sql.ref('submit_time')} <= ${filter.end}`);
  return parts.length > 0 ? sql<SqlBool>`${sql.join(parts, sql` and `)}` : sql<SqlBool>`1 = 1`;
}

/** The ids of one page, newest first, and the count of matching rows up to `window` past it. */
async function pageIds(
  db: Db,
  kind: DbKind,
  table: TaskTable,
  filter: TaskListFilter,
  limit: number,
  offset: number,
  window: number,
): Promise<{ ids: number[]; total: number; capped: boolean }> {
  const where = whereOf(table, filter, kind);
  let query = db.selectFrom(table).select('id').where(where);
  // A user's own list walks its "user_id, submit_time" index backwards; the others the primary key.
  query =
    filter.userId && !filter.taskId ? query.orderBy('submit_time', 'desc').orderBy('id', 'desc') : query.orderBy('id', 'desc');
  const ids = (await query.limit(limit).offset(offset).execute()).map((r) => Number(r.id));
  if (ids.length < limit && (ids.length > 0 || offset === 0)) {
    // A short page is the last one: where it ends is the count, without a second pass.
    return { ids, total: offset + ids.length, capped: false };
  }
  const countLimit = offset + limit + window;
  // One row past the limit tells "exactly `countLimit`" from "more than that".
  const counted = await db
    .selectFrom(
      db
        .selectFrom(table)
        .select('id')
        .where(where)
        .limit(countLimit + 1)
        .as('matching'),
    )
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  const n = Number(counted.n);
  return n > countLimit ? { ids, total: countLimit, capped: true } : { ids, total: n, capped: false };
}

/** Rows in the order of `ids` (a row deleted in between is left out). */
function inOrder<T extends { id: number }>(ids: number[], rows: T[]): T[] {
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** One page of the rows `read` returns for the page's ids, newest first. */
async function listPage<T extends { id: number }>(
  db: Db,
  kind: DbKind,
  table: TaskTable,
  filter: TaskListFilter,
  page: { limit: number; offset: number; window: number },
  read: (ids: number[]) => Promise<T[]>,
): Promise<Slice<T>> {
  const { ids, total, capped } = await pageIds(db, kind, table, filter, page.limit, page.offset, page.window);
  if (ids.length === 0) return { rows: [], total, capped };
  return { rows: inOrder(ids, await read(ids)), total, capped };
}

/** One page of drawing tasks matching `filter`, newest first. */
export function listMidjourneys(
  db: Db,
  kind: DbKind,
  filter: TaskListFilter,
  limit: number,
  offset: number,
  window = TASK_COUNT_WINDOW,
): Promise<Slice<MjRecord>> {
  return listPage(db, kind, 'midjourneys', filter, { limit, offset, window }, (ids) =>
    db.selectFrom('midjourneys').select(MJ_COLUMNS).where('id', 'in', ids).execute(),
  );
}

/** One page of other platforms' tasks matching `filter`, newest first. */
export function listTasks(
  db: Db,
  kind: DbKind,
  filter: TaskListFilter,
  limit: number,
  offset: number,
  window = TASK_COUNT_WINDOW,
): Promise<Slice<TaskRecord>> {
  return listPage(db, kind, 'tasks', filter, { limit, offset, window }, (ids) =>
    db.selectFrom('tasks').select(TASK_COLUMNS).where('id', 'in', ids).execute(),
  );
}
