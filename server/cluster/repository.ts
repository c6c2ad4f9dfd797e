/** The `nodes` table (one row per gateway process, its heartbeat in `seen_at`, milliseconds) and `leases`. */
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/index.js';
import type { NodesTable } from '../db/types.js';
import { isUniqueViolation } from '../db/errors.js';

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

/**
 * Takes or renews the lease `name` for `holder` until `now + ttlMs`, if it is free, lapsed or already
 * the holder's: a conditional update, so of processes trying at once exactly one gets it.
 */
export async function claimLease(db: Db, name: string, holder: string, now: number, ttlMs: number): Promise<boolean> {
  const result = await db
    .updateTable('leases')
    .set({ holder, expires_at: now + ttlMs })
    .where('name', '=', name)
    .where((eb) => eb.or([eb('holder', '=', holder), eb('expires_at', '<', now)]))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) > 0) return true;
  try {
    // The first claim ever: of processes inserting at once, the key lets one row in.
    await db
      .insertInto('leases')
      .values({ name, holder, expires_at: now + ttlMs })
      .execute();
    return true;
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}

/** Gives the lease up at once (a clean shutdown), so another process need not wait for it to lapse. */
export async function releaseLease(db: Db, name: string, holder: string): Promise<void> {
  await db.updateTable('leases').set({ expires_at: 0 }).where('name', '=', name).where('holder', '=', holder).execute();
}
