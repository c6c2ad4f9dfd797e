/**
 * Channel lists and searches. Filters run in SQL; exact list-entry matches (group, model) are a
 * LIKE prefilter refined here; ordering, tag grouping and paging happen on the narrow (id, tag,
 * priority) rows, then only the page's channels are read in full. Channel tables hold hundreds to
 * a few thousand rows, so this stays cheap while tag mode can page over tags and channels alike.
 */
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Db } from '../db/index.js';
import { likeExpr } from '../db/helpers.js';
import type { Database } from '../db/types.js';
import type { Page } from '../http/envelope.js';
import { chunks, ID_CHUNK } from './abilities.js';
import { splitList } from './input.js';
import { toChannelView, VIEW_COLUMNS } from './repository.js';
import { CHANNEL_ENABLED, CHANNEL_MANUALLY_DISABLED } from './types.js';
import type { ChannelListItem, ChannelTagRow, ChannelView } from './schemas.js';

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

export interface ListOptions {
  idSort: boolean;
  tagMode: boolean;
  page: number;
  pageSize: number;
  offset: number;
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

interface Slim {
  id: number;
  tag: string | null;
  priority: number;
}

const slim = ({ id, tag, priority }: Slim): Slim => ({ id, tag: tag || null, priority });

/** The (id, tag, priority) of every channel matching the filter, entry matches made exact. */
async function matchingChannels(db: Db, filter: ChannelFilter): Promise<Slim[]> {
  const group = filter.group?.trim() || undefined;
  const model = filter.model?.trim() || undefined;
  const where = matches({ ...filter, group, model });
  if (!group && !model) {
    return (await db.selectFrom('channels').select(['id', 'tag', 'priority']).where(where).execute()).map(slim);
  }
  const rows = await db.selectFrom('channels').select(['id', 'tag', 'priority', 'group', 'models']).where(where).execute();
  return rows
    .filter((r) => (!group || splitList(r.group).includes(group)) && (!model || splitList(r.models).includes(model)))
    .map(slim);
}

/** One line of the list: a channel, or (tag mode) every channel of one tag. */
interface Entry {
  ids: number[];
  tag: string | null;
  priority: number;
  id: number;
}

function byOrder(idSort: boolean) {
  return (a: { priority: number; id: number }, b: { priority: number; id: number }) =>
    idSort ? b.id - a.id : b.priority - a.priority || b.id - a.id;
}

function entries(rows: Slim[], opts: ListOptions): Entry[] {
  const order = byOrder(opts.idSort);
  rows.sort(order);
  if (!opts.tagMode) return rows.map((r) => ({ ids: [r.id], tag: null, priority: r.priority, id: r.id }));
  const out: Entry[] = [];
  const tags = new Map<string, Entry>();
  for (const r of rows) {
    if (r.tag === null) {
      out.push({ ids: [r.id], tag: null, priority: r.priority, id: r.id });
      continue;
    }
    const entry = tags.get(r.tag);
    if (entry) {
      entry.ids.push(r.id);
      entry.priority = Math.max(entry.priority, r.priority);
      entry.id = Math.max(entry.id, r.id);
    } else {
      const created: Entry = { ids: [r.id], tag: r.tag, priority: r.priority, id: r.id };
      tags.set(r.tag, created);
      out.push(created);
    }
  }
  return out.sort(order);
}

function unionList(values: string[]): string {
  return [...new Set(values.flatMap((v) => splitList(v)))].join(',');
}

export function tagRow(tag: string, children: ChannelView[]): ChannelTagRow {
  const first = children[0];
  const tested = children.filter((c) => c.response_time > 0);
  return {
    id: `tag:${tag}`,
    is_tag: true,
    tag,
    name: tag,
    type: first?.type ?? 0,
    status: children.some((c) => c.status === CHANNEL_ENABLED) ? CHANNEL_ENABLED : CHANNEL_MANUALLY_DISABLED,
    priority: first?.priority ?? 0,
    weight: first?.weight ?? 0,
    models: unionList(children.map((c) => c.models)),
    group: unionList(children.map((c) => c.group)),
    used_quota: children.reduce((s, c) => s + c.used_quota, 0),
    balance: children.reduce((s, c) => s + c.balance, 0),
    response_time: tested.length ? Math.round(tested.reduce((s, c) => s + c.response_time, 0) / tested.length) : 0,
    created_time: Math.max(0, ...children.map((c) => c.created_time)),
    children,
  };
}

async function viewsByIds(db: Db, ids: number[]): Promise<Map<number, ChannelView>> {
  const out = new Map<number, ChannelView>();
  for (const part of chunks(ids, ID_CHUNK)) {
    const rows = await db.selectFrom('channels').select(VIEW_COLUMNS).where('id', 'in', part).execute();
    for (const row of rows) out.set(row.id, toChannelView(row));
  }
  return out;
}

export async function listChannels(db: Db, filter: ChannelFilter, opts: ListOptions): Promise<Page<ChannelListItem>> {
  const all = entries(await matchingChannels(db, filter), opts);
  const page = all.slice(opts.offset, opts.offset + opts.pageSize);
  const views = await viewsByIds(
    db,
    page.flatMap((e) => e.ids),
  );
  const items: ChannelListItem[] = [];
  for (const entry of page) {
    const children = entry.ids.map((id) => views.get(id)).filter((v): v is ChannelView => v !== undefined);
    if (entry.tag !== null) items.push(tagRow(entry.tag, children));
    else if (children[0]) items.push(children[0]);
  }
  return { items, total: all.length, page: opts.page, page_size: opts.pageSize };
}
