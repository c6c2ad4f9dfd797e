/** Suno's rows of the `tasks` table (platform `suno`): submitted, polled and shown to their owner. */
import type { Insertable, SelectQueryBuilder, Updateable } from 'kysely';
import type { Db } from '../../db/index.js';
import type { Database, Task, TasksTable } from '../../db/types.js';
import { FINISHED } from '../status.js';

const SUNO_PLATFORM = 'suno';

/** The caller's own newest task with this upstream id. */
export function findOwnSunoTask(db: Db, userId: number, taskId: string): Promise<Task | undefined> {
  return db
    .selectFrom('tasks')
    .selectAll()
    .where('platform', '=', SUNO_PLATFORM)
    .where('task_id', '=', taskId)
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The caller's own tasks with these upstream ids, newest first. */
export function findOwnSunoTasks(db: Db, userId: number, taskIds: string[]): Promise<Task[]> {
  return db
    .selectFrom('tasks')
    .selectAll()
    .where('platform', '=', SUNO_PLATFORM)
    .where('user_id', '=', userId)
    .where('task_id', 'in', taskIds)
    .orderBy('id', 'desc')
    .execute();
}

export async function insertSunoTask(db: Db, row: Omit<Insertable<TasksTable>, 'platform'>): Promise<void> {
  await db
    .insertInto('tasks')
    .values({ ...row, platform: SUNO_PLATFORM })
    .execute();
}

/** Writes what the upstream reports of an unfinished task (a finished one never changes again). */
export async function updateUnfinishedSunoTask(db: Db, id: number, fields: Updateable<TasksTable>): Promise<void> {
  await db.updateTable('tasks').set(fields).where('id', '=', id).where('status', 'not in', FINISHED).execute();
}

function unfinished(db: Db): SelectQueryBuilder<Database, 'tasks', Task> {
  return db.selectFrom('tasks').selectAll().where('platform', '=', SUNO_PLATFORM).where('status', 'not in', FINISHED);
}

/** Up to `limit` unfinished tasks submitted before `before` (seconds), by id. */
export function listSubmittedBefore(db: Db, before: number, limit: number): Promise<Task[]> {
  return unfinished(db).where('submit_time', '<', before).orderBy('id').limit(limit).execute();
}

/** Up to `limit` unfinished tasks that have an upstream id, with an id above `after`, by id. */
export function listUnfinishedSuno(db: Db, after: number, limit: number): Promise<Task[]> {
  return unfinished(db).where('task_id', '!=', '').where('id', '>', after).orderBy('id').limit(limit).execute();
}
