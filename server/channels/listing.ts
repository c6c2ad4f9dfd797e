/**
 * Channel lists and searches. The filters run in SQL (list-repository.ts); ordering, paging (by
 * channel, or in tag mode by tag) and the per-type counts happen on the narrow (id, tag, priority,
 * type) rows, then only the page's channels are read in full. Channel tables hold hundreds to a few
 * thousand rows, so this stays cheap.
 *
 * Tag mode answers as the family does: a page of tags, each with all its matching channels, as one
 * flat list of channels (untagged channels are not part of it); the console groups them by tag.
 */
import type { Db } from '../db/index.js';
import { findChannelViews, findMatchingChannels, type ChannelFilter, type ChannelSlim } from './list-repository.js';
import type { ChannelPage, ChannelView } from './schemas.js';

export interface ListOptions {
  idSort: boolean;
  tagMode: boolean;
  /** Only channels of this type; the counts per type ignore it. */
  type: number | undefined;
  page: number;
  pageSize: number;
  offset: number;
}

type Ordered = Pick<ChannelSlim, 'priority' | 'id'>;

function byOrder(idSort: boolean) {
  return (a: Ordered, b: Ordered) => (idSort ? b.id - a.id : b.priority - a.priority || b.id - a.id);
}

/** Channel type → how many of the rows have it. */
function countTypes(rows: ChannelSlim[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of rows) counts[r.type] = (counts[r.type] ?? 0) + 1;
  return counts;
}

/**
 * The tagged rows grouped by tag, tags in list order (a tag ranks by its best channel: highest
 * priority, then newest), each tag's rows in list order.
 */
function tagGroups(rows: ChannelSlim[], idSort: boolean): ChannelSlim[][] {
  const order = byOrder(idSort);
  const groups = new Map<string, ChannelSlim[]>();
  for (const r of [...rows].sort(order)) {
    if (r.tag === null) continue;
    const group = groups.get(r.tag);
    if (group) group.push(r);
    else groups.set(r.tag, [r]);
  }
  // Rows are sorted, so each group's first row is its best.
  return [...groups.values()].sort((a, b) => order(a[0] as Ordered, b[0] as Ordered));
}

export async function listChannels(db: Db, filter: ChannelFilter, opts: ListOptions): Promise<ChannelPage> {
  const matching = await findMatchingChannels(db, filter);
  const type_counts = countTypes(matching);
  const rows = opts.type === undefined ? matching : matching.filter((r) => r.type === opts.type);
  let ids: number[];
  let total: number;
  if (opts.tagMode) {
    const groups = tagGroups(rows, opts.idSort);
    total = groups.length;
    ids = groups.slice(opts.offset, opts.offset + opts.pageSize).flatMap((group) => group.map((r) => r.id));
  } else {
    total = rows.length;
    ids = [...rows]
      .sort(byOrder(opts.idSort))
      .slice(opts.offset, opts.offset + opts.pageSize)
      .map((r) => r.id);
  }
  const views = await findChannelViews(db, ids);
  const items = ids.map((id) => views.get(id)).filter((v): v is ChannelView => v !== undefined);
  return { items, total, page: opts.page, page_size: opts.pageSize, type_counts };
}
