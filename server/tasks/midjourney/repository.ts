/** The `midjourneys` table: drawing tasks as submitted, polled and shown to their owner. */
import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../../db/index.js';
import type { Midjourney, MidjourneysTable } from '../../db/types.js';
import { FINISHED } from '../status.js';

/** The caller's own newest task with this midjourney-proxy id. */
export function findOwnTask(db: Db, userId: number, mjId: string): Promise<Midjourney | undefined> {
  return db
    .selectFrom('midjourneys')
    .selectAll()
    .where('mj_id', '=', mjId)
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The caller's own tasks with these midjourney-proxy ids, newest first. */
export function findOwnTasks(db: Db, userId: number, mjIds: string[]): Promise<Midjourney[]> {
  return db
    .selectFrom('midjourneys')
    .selectAll()
    .where('user_id', '=', userId)
    .where('mj_id', 'in', mjIds)
    .orderBy('id', 'desc')
    .execute();
}

/** The image of the newest task with this midjourney-proxy id that has one. */
export async function findImageUrl(db: Db, mjId: string): Promise<string | null | undefined> {
  const row = await db
    .selectFrom('midjourneys')
    .select(['image_url'])
    .where('mj_id', '=', mjId)
    .where('image_url', 'is not', null)
    .where('image_url', '!=', '')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.image_url;
}

export async function insertMidjourney(db: Db, row: Insertable<MidjourneysTable>): Promise<void> {
  await db.insertInto('midjourneys').values(row).execute();
}

/**
 * Writes a modal submission into the unfinished window task it completes, adding `quota` (its
 * charge) to the task's. Returns false when the task has finished meanwhile.
 */
export async function continueTask(
  db: Db,
  id: number,
  fields: Pick<Updateable<MidjourneysTable>, 'code' | 'status' | 'prompt'>,
  quota: number,
): Promise<boolean> {
  const updated = await db
    .updateTable('midjourneys')
    .set((eb) => ({ ...fields, quota: eb('quota', '+', quota), fail_reason: null }))
    .where('id', '=', id)
    .where('status', 'not in', FINISHED)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/** Writes what the upstream reports of an unfinished task (a finished one never changes again). */
export async function updateUnfinishedTask(db: Db, id: number, fields: Updateable<MidjourneysTable>): Promise<void> {
  await db.updateTable('midjourneys').set(fields).where('id', '=', id).where('status', 'not in', FINISHED).execute();
}

/** Up to `limit` unfinished tasks that have an upstream id, with an id above `after`, by id. */
export function listUnfinished(db: Db, after: number, limit: number): Promise<Midjourney[]> {
  return db
    .selectFrom('midjourneys')
    .selectAll()
    .where('status', 'not in', FINISHED)
    .where('mj_id', '!=', '')
    .where('id', '>', after)
    .orderBy('id')
    .limit(limit)
    .execute();
}
