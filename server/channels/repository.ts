/**
 * Channel rows, one at a time, and every write. Writes of the columns abilities derive from rewrite
 * the written channels' ability rows in the same transaction. Reads for the console never select
 * the key; `toChannelView` is the one mapper to the answer shape. Reads of many channels are in
 * list-repository.ts; used_quota moves only through server/billing.
 */
import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Db } from '../db/index.js';
import type { DbKind } from '../db/dsn.js';
import { insertWithId } from '../db/helpers.js';
import { nowSeconds } from '../db/index.js';
import type { Channel, ChannelsTable, Database } from '../db/types.js';
import { chunks, deleteAbilitiesOf, ID_CHUNK, rebuildAbilities, rebuildAbilitiesOf } from './abilities-repository.js';
import { splitList } from './input.js';
import type { ChannelView } from './schemas.js';
import { deleteKeysOf } from './keys/repository.js';
import { CHANNEL_AUTO_DISABLED, CHANNEL_ENABLED, CHANNEL_MANUALLY_DISABLED } from './types.js';

/** Every column but the key. */
export const VIEW_COLUMNS = [
  'id',
  'type',
  'name',
  'openai_organization',
  'test_model',
  'status',
  'weight',
  'priority',
  'created_time',
  'test_time',
  'response_time',
  'base_url',
  'other',
  'balance',
  'balance_updated_time',
  'models',
  'group',
  'used_quota',
  'model_mapping',
  'status_code_mapping',
  'auto_ban',
  'other_info',
  'tag',
  'setting',
  'param_override',
  'max_input_tokens',
  'expired_time',
  'multi_key_mode',
  'rpm_limit',
  'max_concurrency',
  'remark',
  'settings',
  'header_override',
] as const satisfies ReadonlyArray<Exclude<keyof Channel, 'key'>>;

/**
 * The console's view of a channel: picks the view columns, so a full row's key is dropped too.
 * Every nullable column of a channel is text, answered as "" when unset: clients of this family
 * send back what they were given, and `null` would come back as the text "null".
 */
export function toChannelView(row: Omit<Channel, 'key'>): ChannelView {
  const view = {} as Record<string, unknown>;
  for (const column of VIEW_COLUMNS) view[column] = row[column] ?? '';
  return view as ChannelView;
}

export async function findChannelView(db: Db, id: number): Promise<ChannelView | undefined> {
  const row = await db.selectFrom('channels').select(VIEW_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row && toChannelView(row);
}

/** The full row, key included: server-side use only. */
export async function findChannel(db: Db, id: number): Promise<Channel | undefined> {
  return db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The columns of a new channel but its key and creation time. */
export type NewChannel = Omit<Insertable<ChannelsTable>, 'id' | 'key' | 'created_time'> &
  Pick<Channel, 'group' | 'models' | 'status' | 'priority' | 'weight' | 'tag'>;

/** Inserts channels (one per key of a batch) and their abilities; returns the new ids. */
export async function insertChannels(db: Db, kind: DbKind, base: NewChannel, keys: string[]): Promise<number[]> {
  return db.transaction().execute(async (trx) => {
    const now = nowSeconds();
    const ids: number[] = [];
    for (const key of keys) {
      const values = { ...base, key, created_time: now };
      const id = await insertWithId(trx, kind, 'channels', values);
      await rebuildAbilities(trx, [{ ...values, id }]);
      ids.push(id);
    }
    return ids;
  });
}

/** Writes changed columns of one channel and rebuilds its abilities; false when it does not exist. */
export async function updateChannel(db: Db, id: number, changes: Updateable<ChannelsTable>): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const result = await trx.updateTable('channels').set(changes).where('id', '=', id).executeTakeFirst();
    // MySQL counts only rows whose values changed: existence is checked separately.
    if (Number(result.numUpdatedRows) === 0) {
      const exists = await trx.selectFrom('channels').select('id').where('id', '=', id).executeTakeFirst();
      if (!exists) return false;
    }
    await rebuildAbilitiesOf(trx, [id]);
    return true;
  });
}

async function deleteIds(trx: Kysely<Database>, ids: readonly number[]): Promise<number> {
  let deleted = 0;
  for (const part of chunks(ids, ID_CHUNK)) {
    const result = await trx.deleteFrom('channels').where('id', 'in', part).executeTakeFirst();
    deleted += Number(result.numDeletedRows);
  }
  await deleteAbilitiesOf(trx, ids);
  await deleteKeysOf(trx, ids);
  return deleted;
}

/** Deletes channels and their abilities; returns how many channels were deleted. */
export async function deleteChannels(db: Db, ids: readonly number[]): Promise<number> {
  return db.transaction().execute((trx) => deleteIds(trx, [...new Set(ids)]));
}

/** Deletes every channel disabled by hand or automatically. */
export async function deleteDisabledChannels(db: Db): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('channels')
      .select('id')
      .where('status', 'in', [CHANNEL_MANUALLY_DISABLED, CHANNEL_AUTO_DISABLED])
      .execute();
    return deleteIds(
      trx,
      rows.map((r) => r.id),
    );
  });
}

async function updateWhere(
  db: Db,
  select: (trx: Kysely<Database>) => Promise<number[]>,
  changes: Updateable<ChannelsTable>,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const ids = await select(trx);
    for (const part of chunks(ids, ID_CHUNK)) await trx.updateTable('channels').set(changes).where('id', 'in', part).execute();
    await rebuildAbilitiesOf(trx, ids);
    return ids.length;
  });
}

async function idsWithTag(trx: Kysely<Database>, tag: string): Promise<number[]> {
  const rows = await trx.selectFrom('channels').select('id').where('tag', '=', tag).execute();
  return rows.map((r) => r.id);
}

/** Sets the tag of these channels; returns how many exist. */
export async function setTag(db: Db, ids: readonly number[], tag: string): Promise<number> {
  return updateWhere(
    db,
    async (trx) => {
      const found: number[] = [];
      for (const part of chunks([...new Set(ids)], ID_CHUNK)) {
        found.push(...(await trx.selectFrom('channels').select('id').where('id', 'in', part).execute()).map((r) => r.id));
      }
      return found;
    },
    { tag },
  );
}

/** Changes every channel of a tag; returns how many there were. */
export async function updateTag(db: Db, tag: string, changes: Updateable<ChannelsTable>): Promise<number> {
  return updateWhere(db, (trx) => idsWithTag(trx, tag), changes);
}

export async function setTagStatus(db: Db, tag: string, enabled: boolean): Promise<number> {
  return updateTag(db, tag, { status: enabled ? CHANNEL_ENABLED : CHANNEL_MANUALLY_DISABLED });
}

/**
 * The automatic status change (server/channels/status.ts): `status` with its `other_info`, only
 * while the channel is still `from`, and the channel's abilities rebuilt. Returns whether it changed.
 */
export async function changeStatusFrom(db: Db, id: number, from: number, status: number, otherInfo: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('channels')
      .set({ status, other_info: otherInfo })
      .where('id', '=', id)
      .where('status', '=', from)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    await rebuildAbilitiesOf(trx, [id]);
    return true;
  });
}

/** The balance read from the channel's upstream, with the time it was read. */
export async function setChannelBalance(db: Db, id: number, balance: number, updatedTime: number): Promise<void> {
  await db.updateTable('channels').set({ balance, balance_updated_time: updatedTime }).where('id', '=', id).execute();
}

/** A channel test's outcome: when it ran and, for a success, how long the answer took (ms). */
export async function recordTestResult(db: Db, id: number, result: { test_time: number; response_time?: number }): Promise<void> {
  await db.updateTable('channels').set(result).where('id', '=', id).execute();
}

/** Distinct model names of the channels (only enabled ones when asked), sorted. */
export async function channelModels(db: Db, enabledOnly: boolean): Promise<string[]> {
  let query = db.selectFrom('channels').select('models');
  if (enabledOnly) query = query.where('status', '=', CHANNEL_ENABLED);
  const rows = await query.execute();
  return [...new Set(rows.flatMap((r) => splitList(r.models)))].sort();
}
