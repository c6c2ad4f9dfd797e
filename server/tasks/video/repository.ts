/** Video rows of the `tasks` table (platform `video`): written on submit, refreshed, shown to their owner only. */
import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../../db/index.js';
import type { Task, TasksTable } from '../../db/types.js';
import { FINISHED } from '../status.js';

export const VIDEO_PLATFORM = 'video';

/** The caller's own video with this public id; another user's is as absent as an unknown one. */
export function findOwnVideo(db: Db, userId: number, id: string): Promise<Task | undefined> {
  return db
    .selectFrom('tasks')
    .selectAll()
    .where('platform', '=', VIDEO_PLATFORM)
    .where('task_id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** A video by its public id: anyone's (`userId` null, for admins) or that user's only. */
export function findVideo(db: Db, id: string, userId: number | null): Promise<Task | undefined> {
  const q = db.selectFrom('tasks').selectAll().where('platform', '=', VIDEO_PLATFORM).where('task_id', '=', id);
  return (userId === null ? q : q.where('user_id', '=', userId)).executeTakeFirst();
}

/** The caller's own videos, newest first, `limit` of them after the one with public id `after`. */
export async function listOwnVideos(db: Db, userId: number, limit: number, after?: string): Promise<Task[]> {
  let q = db.selectFrom('tasks').selectAll().where('platform', '=', VIDEO_PLATFORM).where('user_id', '=', userId);
  if (after) {
    const cursor = await findOwnVideo(db, userId, after);
    if (cursor) q = q.where('id', '<', cursor.id);
  }
  return q.orderBy('id', 'desc').limit(limit).execute();
}

export async function insertVideo(db: Db, row: Omit<Insertable<TasksTable>, 'platform'>): Promise<void> {
  await db
    .insertInto('tasks')
    .values({ ...row, platform: VIDEO_PLATFORM })
    .execute();
}

/** Writes progress of an unfinished video (a finished one never changes again). */
export async function updateUnfinishedVideo(db: Db, id: number, fields: Updateable<TasksTable>): Promise<void> {
  await db.updateTable('tasks').set(fields).where('id', '=', id).where('status', 'not in', FINISHED).execute();
}

/** Up to `limit` unfinished videos with a row id above `after`, by id. */
export function listUnfinishedVideos(db: Db, after: number, limit: number): Promise<Task[]> {
  return db
    .selectFrom('tasks')
    .selectAll()
    .where('platform', '=', VIDEO_PLATFORM)
    .where('status', 'not in', FINISHED)
    .where('id', '>', after)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Removes the caller's own finished video row (an unfinished one still has a charge to settle); true when it did. */
export async function deleteOwnVideo(db: Db, userId: number, id: string): Promise<boolean> {
  const r = await db
    .deleteFrom('tasks')
    .where('platform', '=', VIDEO_PLATFORM)
    .where('task_id', '=', id)
    .where('user_id', '=', userId)
    .where('status', 'in', FINISHED)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Finishes an unfinished video with `fields` (inside the settling transaction); true when this call did it. */
export async function finishUnfinishedVideo(db: Db, id: number, fields: Updateable<TasksTable>): Promise<boolean> {
  const r = await db.updateTable('tasks').set(fields).where('id', '=', id).where('status', 'not in', FINISHED).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
