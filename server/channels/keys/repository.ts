/**
 * The channel_keys table: the keys of multi-key channels disabled on their own, by hash. A key
 * absent here is enabled. Rows of keys no longer in their channel's key field are pruned when the
 * field is edited, and every row of a channel goes with it.
 */
import type { Kysely, Selectable } from 'kysely';
import type { Db } from '../../db/index.js';
import { nowSeconds } from '../../db/index.js';
import type { ChannelKeysTable, Database } from '../../db/types.js';
import { chunks, ID_CHUNK } from '../abilities-repository.js';

export type DisabledKey = Selectable<ChannelKeysTable>;

const REASON_MAX = 512;

export async function findDisabledKeys(db: Db): Promise<DisabledKey[]> {
  return db.selectFrom('channel_keys').selectAll().execute();
}

export async function findDisabledKeysOf(db: Db, channelId: number): Promise<DisabledKey[]> {
  return db.selectFrom('channel_keys').selectAll().where('channel_id', '=', channelId).execute();
}

/** The disabled keys of these channels. */
export async function findDisabledKeysIn(db: Db, channelIds: readonly number[]): Promise<DisabledKey[]> {
  const out: DisabledKey[] = [];
  for (const part of chunks(channelIds, ID_CHUNK)) {
    out.push(...(await db.selectFrom('channel_keys').selectAll().where('channel_id', 'in', part).execute()));
  }
  return out;
}

/**
 * Marks a key disabled. Returns false when it already was (another process, or an earlier call,
 * got there first): the first reason stands.
 */
export async function disableKey(db: Db, channelId: number, hash: string, status: number, reason: string): Promise<boolean> {
  try {
    await db
      .insertInto('channel_keys')
      .values({ channel_id: channelId, key_hash: hash, status, reason: reason.slice(0, REASON_MAX), disabled_time: nowSeconds() })
      .execute();
    return true;
  } catch (err) {
    const exists = await db
      .selectFrom('channel_keys')
      .select('key_hash')
      .where('channel_id', '=', channelId)
      .where('key_hash', '=', hash)
      .executeTakeFirst();
    if (exists) return false;
    throw err;
  }
}

/** Enables keys again (every key of the channel when `hashes` is null); returns how many were disabled. */
export async function enableKeys(db: Db, channelId: number, hashes: readonly string[] | null): Promise<number> {
  let query = db.deleteFrom('channel_keys').where('channel_id', '=', channelId);
  if (hashes !== null) {
    if (hashes.length === 0) return 0;
    query = query.where('key_hash', 'in', hashes);
  }
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Forgets the disabled keys of a channel that its key field no longer holds. */
export async function pruneKeys(db: Db, channelId: number, kept: readonly string[]): Promise<void> {
  let query = db.deleteFrom('channel_keys').where('channel_id', '=', channelId);
  if (kept.length > 0) query = query.where('key_hash', 'not in', kept);
  await query.execute();
}

/** Deletes the key rows of deleted channels, in the transaction that deletes them. */
export async function deleteKeysOf(trx: Kysely<Database>, channelIds: readonly number[]): Promise<void> {
  for (const part of chunks(channelIds, ID_CHUNK)) await trx.deleteFrom('channel_keys').where('channel_id', 'in', part).execute();
}
