/**
 * Reads of many channels: the console's list and search (filters run in SQL; exact list-entry
 * matches of group and model are a LIKE prefilter refined here), the relay's channel index, and the
 * balance and test sweeps. Channel tables hold hundreds to a few thousand rows.
 */
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Db } from '../db/index.js';
import { likeExpr } from '../db/helpers.js';
import type { Channel, Database } from '../db/types.js';
import { chunks, ID_CHUNK } from './abilities-repository.js';
import { splitList } from './input.js';
import { toChannelView, VIEW_COLUMNS } from './repository.js';
import type { ChannelView } from './schemas.js';
import { CHANNEL_AUTO_DISABLED, CHANNEL_ENABLED, CHANNEL_MANUALLY_DISABLED } from './types.js';

export interface ChannelFilter {
  /** A channel id (exact), part of the name, or the whole key. */
  keyword?: string | undefined;
  /** One entry of the group list. */
  group?: string | undefined;
  /** One entry of the model list. */
  model?: string | undefined;
  status?: number | undefined;
  /** The whole key. */
  key?: string | undefined;
}

function matches(filter: ChannelFilter) {
  return (eb: ExpressionBuilder<Database, 'channels'>): Expression<SqlBool> => {
    const conditions: Expression<SqlBool>[] = [];
    const keyword = filter.keyword?.trim() ?? '';
    if (keyword) {
      const alternatives = [likeExpr('name', keyword), eb('key', '=', keyword)];
      if (/^\d{1,9}$/.test(keyword)) alternatives.unshift(eb('id', '=', Number(keyword)));
      conditions.push(eb.or(alternatives));
    }
    if (filter.group) conditions.push(likeExpr('group', filter.group));
    if (filter.model) conditions.push(likeExpr('models', filter.model));
    if (filter.status !== undefined) conditions.push(eb('status', '=', filter.status));
    if (filter.key) conditions.push(eb('key', '=', filter.key));
    return eb.and(conditions);
  };
}

/** What the list orders, groups, counts and pages channels by. */
export interface ChannelSlim {
  id: number;
  tag: string | null;
  priority: number;
  type: number;
}

const slim = ({ id, tag, priority, type }: ChannelSlim): ChannelSlim => ({ id, tag: tag || null, priority, type });

/** The (id, tag, priority, type) of every channel matching the filter, entry matches made exact. */
export async function findMatchingChannels(db: Db, filter: ChannelFilter): Promise<ChannelSlim[]> {
  const group = filter.group?.trim() || undefined;
  const model = filter.model?.trim() || undefined;
  const where = matches({ ...filter, group, model });
  if (!group && !model) {
    return (await db.selectFrom('channels').select(['id', 'tag', 'priority', 'type']).where(where).execute()).map(slim);
  }
  const rows = await db
    .selectFrom('channels')
    .select(['id', 'tag', 'priority', 'type', 'group', 'models'])
    .where(where)
    .execute();
  return rows
    .filter((r) => (!group || splitList(r.group).includes(group)) && (!model || splitList(r.models).includes(model)))
    .map(slim);
}

/** The console's view of each of these channels, by id. */
export async function findChannelViews(db: Db, ids: number[]): Promise<Map<number, ChannelView>> {
  const out = new Map<number, ChannelView>();
  for (const part of chunks(ids, ID_CHUNK)) {
    const rows = await db.selectFrom('channels').select(VIEW_COLUMNS).where('id', 'in', part).execute();
    for (const row of rows) out.set(row.id, toChannelView(row));
  }
  return out;
}

/**
 * The key fields of these channels, by id: server-side only, to tell the console how many keys a
 * channel holds and their last characters, never the keys.
 */
export async function findKeyFields(db: Db, ids: readonly number[]): Promise<Map<number, Pick<Channel, 'id' | 'type' | 'key'>>> {
  const out = new Map<number, Pick<Channel, 'id' | 'type' | 'key'>>();
  for (const part of chunks(ids, ID_CHUNK)) {
    const rows = await db.selectFrom('channels').select(['id', 'type', 'key']).where('id', 'in', part).execute();
    for (const row of rows) out.set(row.id, row);
  }
  return out;
}

/** The model list of each channel carrying `tag` (comma-separated names, as stored). */
export async function findTagModelLists(db: Db, tag: string): Promise<string[]> {
  const rows = await db.selectFrom('channels').select('models').where('tag', '=', tag).execute();
  return rows.map((r) => r.models);
}

/** Every channel, whatever its status, with its key: what the relay's channel index is built from. */
export async function findAllChannels(db: Db): Promise<Channel[]> {
  return db.selectFrom('channels').selectAll().execute();
}

/** The enabled channels, full rows, by id. */
export async function findEnabledChannels(db: Db): Promise<Channel[]> {
  return db.selectFrom('channels').selectAll().where('status', '=', CHANNEL_ENABLED).orderBy('id').execute();
}

/** The ids of the channels a test of all channels covers: enabled and automatically disabled ones. */
export async function findTestableChannelIds(db: Db): Promise<number[]> {
  const rows = await db
    .selectFrom('channels')
    .select('id')
    .where('status', 'in', [CHANNEL_ENABLED, CHANNEL_AUTO_DISABLED])
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/** These channels, full rows (the audit's before and after). */
export async function findChannelsByIds(db: Db, ids: readonly number[]): Promise<Channel[]> {
  const out: Channel[] = [];
  for (const part of chunks([...new Set(ids)], ID_CHUNK)) {
    out.push(...(await db.selectFrom('channels').selectAll().where('id', 'in', part).execute()));
  }
  return out;
}

/** The ids of a tag's channels. */
export async function findChannelIdsWithTag(db: Db, tag: string): Promise<number[]> {
  return (await db.selectFrom('channels').select('id').where('tag', '=', tag).orderBy('id').execute()).map((r) => r.id);
}

/** The ids of the channels disabled by hand or automatically. */
export async function findDisabledChannelIds(db: Db): Promise<number[]> {
  const rows = await db
    .selectFrom('channels')
    .select('id')
    .where('status', 'in', [CHANNEL_MANUALLY_DISABLED, CHANNEL_AUTO_DISABLED])
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/** The channels with a base URL, for ratio sync's list of gateways to read prices from. */
export async function findChannelsWithBaseUrl(
  db: Db,
): Promise<Array<Pick<Channel, 'id' | 'name' | 'base_url' | 'status' | 'type'>>> {
  return db
    .selectFrom('channels')
    .select(['id', 'name', 'base_url', 'status', 'type'])
    .where('base_url', 'is not', null)
    .where('base_url', '!=', '')
    .orderBy('id')
    .execute();
}
