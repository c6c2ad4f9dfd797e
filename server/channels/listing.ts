/**
 * Channel lists and searches. The filters run in SQL (list-repository.ts); ordering, tag grouping
 * and paging happen on the narrow (id, tag, priority) rows, then only the page's channels are read
 * in full. Channel tables hold hundreds to a few thousand rows, so this stays cheap while tag mode
 * can page over tags and channels alike.
 */
import type { Db } from '../db/index.js';
import type { Page } from '../http/envelope.js';
import { splitList } from './input.js';
import { findChannelViews, findMatchingChannels, type ChannelFilter, type ChannelSlim } from './list-repository.js';
import { CHANNEL_ENABLED, CHANNEL_MANUALLY_DISABLED } from './types.js';
import type { ChannelListItem, ChannelTagRow, ChannelView } from './schemas.js';

export interface ListOptions {
  idSort: boolean;
  tagMode: boolean;
  page: number;
  pageSize: number;
  offset: number;
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

function entries(rows: ChannelSlim[], opts: ListOptions): Entry[] {
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

export async function listChannels(db: Db, filter: ChannelFilter, opts: ListOptions): Promise<Page<ChannelListItem>> {
  const all = entries(await findMatchingChannels(db, filter), opts);
  const page = all.slice(opts.offset, opts.offset + opts.pageSize);
  const views = await findChannelViews(
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
