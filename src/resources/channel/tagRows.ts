/**
 * Tag mode: the server answers a page of tags as the flat list of their channels (the family's
 * contract); the list shows one row per tag, expanding to its channels.
 */
import {
  CHANNEL_ENABLED,
  CHANNEL_MANUALLY_DISABLED,
  splitNames,
  type ChannelRow,
  type ChannelTagRow,
  type ChannelView,
} from './types';

function union(values: string[]): string {
  return [...new Set(values.flatMap(splitNames))].join(',');
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
    models: union(children.map((c) => c.models)),
    group: union(children.map((c) => c.group)),
    used_quota: children.reduce((sum, c) => sum + c.used_quota, 0),
    balance: children.reduce((sum, c) => sum + c.balance, 0),
    response_time: tested.length ? Math.round(tested.reduce((sum, c) => sum + c.response_time, 0) / tested.length) : 0,
    created_time: Math.max(0, ...children.map((c) => c.created_time)),
    children,
  };
}

/**
 * One row per tag, in the order the tags first appear, each with its channels in list order. A
 * channel without a tag (the server leaves them out of tag mode) keeps a row of its own.
 */
export function groupByTag(records: ChannelRow[]): ChannelRow[] {
  const out: Array<ChannelRow | { tag: string; children: ChannelView[] }> = [];
  const groups = new Map<string, ChannelView[]>();
  for (const record of records) {
    if ('is_tag' in record || !record.tag) {
      out.push(record);
      continue;
    }
    const group = groups.get(record.tag);
    if (group) group.push(record);
    else {
      const children = [record];
      groups.set(record.tag, children);
      out.push({ tag: record.tag, children });
    }
  }
  return out.map((entry) => ('id' in entry ? entry : tagRow(entry.tag, entry.children)));
}
