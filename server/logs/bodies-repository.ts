/** The `log_bodies` table (in the log database): opt-in request and answer bodies by request id. */
import type { Db } from '../db/index.js';
import type { Insertable, Selectable } from 'kysely';
import type { LogBodiesTable } from '../db/types.js';

export type LogBody = Selectable<LogBodiesTable>;

export async function insertLogBody(db: Db, row: Insertable<LogBodiesTable>): Promise<void> {
  await db.insertInto('log_bodies').values(row).execute();
}

/** The bodies of a call, or undefined when none were kept. */
export async function findLogBody(db: Db, requestId: string): Promise<LogBody | undefined> {
  return db.selectFrom('log_bodies').selectAll().where('request_id', '=', requestId).orderBy('id').executeTakeFirst();
}

/** Deletes the bodies kept before `before` (Unix seconds) a batch at a time; returns how many went. */
export async function deleteLogBodiesBefore(db: Db, before: number, batch = 1000): Promise<number> {
  let deleted = 0;
  for (;;) {
    const ids = (await db.selectFrom('log_bodies').select('id').where('created_at', '<', before).limit(batch).execute()).map(
      (r) => r.id,
    );
    if (ids.length === 0) return deleted;
    const result = await db.deleteFrom('log_bodies').where('id', 'in', ids).executeTakeFirst();
    deleted += Number(result.numDeletedRows);
    if (ids.length < batch) return deleted;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
