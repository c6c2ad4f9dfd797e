import { sql } from 'kysely';
import type { MigrationDb } from '../types.js';
import type { DbKind } from '../dsn.js';
import { createLogSearchIndex, LOG_SEARCH_INDEXES, sparseIndexes } from '../../logs/search-indexes.js';

/**
 * The logs' type and group indexes become sparse (server/logs/search-indexes.ts): consume rows and
 * rows of the default group leave them. An index that is not there (the table is an outbox while
 * LOG_SQL_DSN is set, see server/logs/outbox.ts) stays absent: the outbox builds it when it ends.
 */
export async function up(db: MigrationDb, kind: DbKind): Promise<void> {
  if (!sparseIndexes(kind)) return;
  for (const index of LOG_SEARCH_INDEXES) {
    if (!index.sparse || !(await exists(db, kind, index.name))) continue;
    await db.schema.dropIndex(index.name).execute();
    await createLogSearchIndex(db, kind, index);
  }
}

async function exists(db: MigrationDb, kind: DbKind, name: string): Promise<boolean> {
  const found =
    kind === 'sqlite'
      ? await sql`select 1 from sqlite_master where type = 'index' and name = ${name}`.execute(db)
      : await sql`select 1 from pg_indexes where schemaname = current_schema() and indexname = ${name}`.execute(db);
  return found.rows.length > 0;
}
