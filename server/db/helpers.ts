import { sql, type Expression, type Insertable, type SqlBool } from 'kysely';
import type { Db } from './index.js';
import type { Database } from './types.js';
import type { DbKind } from './dsn.js';

type TablesWithId = {
  [K in keyof Database]: Database[K] extends { id: unknown } ? K : never;
}[keyof Database];

/** Insert one row and return its generated id on every database (MySQL has no RETURNING). */
export async function insertWithId<T extends TablesWithId>(
  db: Db,
  kind: DbKind,
  table: T,
  values: Insertable<Database[T]>,
): Promise<number> {
  const query = db.insertInto(table).values(values as never);
  if (kind === 'postgres') {
    const row = await query.returning('id' as never).executeTakeFirstOrThrow();
    return Number((row as unknown as { id: number }).id);
  }
  const result = await query.executeTakeFirstOrThrow();
  return Number(result.insertId);
}

/** `column LIKE '%input%'` with the input's wildcards escaped. */
export function likeExpr(column: string, input: string): Expression<SqlBool> {
  const pattern = `%${input.replace(/[!%_]/g, (ch) => `!${ch}`)}%`;
  return sql<SqlBool>`${sql.ref(column)} like ${pattern} escape '!'`;
}
