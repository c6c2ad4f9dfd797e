/**
 * The indexes of `logs` that serve the console's searches. Each list is "newest first within a time
 * window", optionally narrowed by one column, so each index leads with the narrowing column and
 * ends with created_at.
 *
 * Two of them are sparse on SQLite and PostgreSQL: the type index leaves out consume rows and the
 * group index rows of the default group. Nearly every row is both, and every index a row joins costs
 * the relay's billing writer a B-tree insert and a page written per commit (1-2 µs a row each on
 * SQLite). A filter on consume rows or on the default group matches most rows, so it reads the
 * created_at index and filters as it goes; a filter on any other type or group is written with the
 * sparse index's own condition beside it (`sparseTerm`), which is how SQLite knows the index serves
 * it. MySQL has no partial indexes: there both stay whole.
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import type { DbKind } from '../db/dsn.js';
import type { MigrationDb } from '../db/types.js';
import { LOG_CONSUME } from './types.js';

/** The value a sparse index leaves out, by column. */
export const SPARSE_LOG_COLUMNS = { type: LOG_CONSUME, group: 'default' } as const;

export type SparseColumn = keyof typeof SPARSE_LOG_COLUMNS;

export interface LogSearchIndex {
  name: string;
  columns: string[];
  sparse?: SparseColumn;
}

export const LOG_SEARCH_INDEXES: readonly LogSearchIndex[] = [
  { name: 'logs_created_at', columns: ['created_at', 'id'] },
  { name: 'logs_user_created', columns: ['user_id', 'created_at'] },
  { name: 'logs_type_created', columns: ['type', 'created_at'], sparse: 'type' },
  { name: 'logs_username_created', columns: ['username', 'created_at'] },
  { name: 'logs_model_created', columns: ['model_name', 'created_at'] },
  { name: 'logs_token_created', columns: ['token_name', 'created_at'] },
  { name: 'logs_channel_created', columns: ['channel_id', 'created_at'] },
  { name: 'logs_group_created', columns: ['group', 'created_at'], sparse: 'group' },
];

export const sparseIndexes = (kind: DbKind): boolean => kind !== 'mysql';

/** The condition of `column`'s sparse index, as the index is created and as a query names it. */
export function sparseTerm(column: SparseColumn): Expression<SqlBool> {
  // A literal, not a parameter: SQLite matches a query's term to the index's condition as written.
  return sql<SqlBool>`${sql.ref(column)} <> ${sql.lit(SPARSE_LOG_COLUMNS[column])}`;
}

/** Creates `index` on `logs`, sparse where the database allows. */
export async function createLogSearchIndex(db: MigrationDb, kind: DbKind, index: LogSearchIndex): Promise<void> {
  let create = db.schema.createIndex(index.name).on('logs').columns(index.columns);
  if (index.sparse && sparseIndexes(kind)) create = create.where(sparseTerm(index.sparse));
  await create.execute();
}
