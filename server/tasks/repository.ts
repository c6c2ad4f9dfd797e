/**
 * What both task tables share: moving a row to FAILURE exactly once. Each platform's own reads and
 * writes are in its folder (midjourney/repository.ts, suno/repository.ts); the console's lists in
 * list-repository.ts.
 */
import type { Transaction } from 'kysely';
import type { Database } from '../db/types.js';
import { FINISHED, STATUS_FAILURE, type TaskTable } from './status.js';

export interface FailedTask {
  id: number;
  user_id: number;
  quota: number;
  channel_id: number;
  properties: string | null;
  /** Seconds. */
  submitted: number;
}

/**
 * Moves an unfinished task to FAILURE with `fields` (columns of `table`) by a conditional UPDATE; returns the row as it
 * now is, or null when it had already finished (then nothing changed).
 */
export async function markFailed(
  trx: Transaction<Database>,
  table: TaskTable,
  id: number,
  fields: object,
): Promise<FailedTask | null> {
  const result = await trx
    .updateTable(table)
    .set({ ...fields, status: STATUS_FAILURE } as never)
    .where('id', '=', id)
    .where('status', 'not in', FINISHED)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return null;
  // Read after the change: a finished row's quota can no longer move.
  const row = await trx
    .selectFrom(table)
    .select(['id', 'user_id', 'quota', 'channel_id', 'properties', 'submit_time'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const submitted = table === 'midjourneys' ? Math.floor(Number(row.submit_time) / 1000) : Number(row.submit_time);
  return { ...row, quota: Number(row.quota), submitted };
}
