/** The `nodes` table: one row per gateway process, its heartbeat in `seen_at` (milliseconds). */
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/index.js';
import type { NodesTable } from '../db/types.js';

export type NodeRow = Pick<Selectable<NodesTable>, 'id' | 'scope' | 'pid' | 'pid_start' | 'seen_at'>;

export async function insertNode(db: Db, node: Insertable<NodesTable>): Promise<void> {
  await db.insertInto('nodes').values(node).execute();
}

/** Moves the node's heartbeat to `now`; false when its row is gone. */
export async function beat(db: Db, id: string, now: number): Promise<boolean> {
  const result = await db.updateTable('nodes').set({ seen_at: now }).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function listNodes(db: Db): Promise<NodeRow[]> {
  return db.selectFrom('nodes').select(['id', 'scope', 'pid', 'pid_start', 'seen_at']).execute();
}

/** Removes the node's row; with `seenAt`, only while its heartbeat is still that (a live process moved it). */
export async function deleteNode(db: Db, id: string, seenAt?: number): Promise<void> {
  let query = db.deleteFrom('nodes').where('id', '=', id);
  if (seenAt !== undefined) query = query.where('seen_at', '=', seenAt);
  await query.execute();
}
