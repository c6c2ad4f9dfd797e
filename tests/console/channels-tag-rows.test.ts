/** Tag mode's folding of the server's flat answer into one row per tag (src/resources/channel/tagRows.ts). */
import { describe, expect, it } from 'vitest';
import { groupByTag } from '../../src/resources/channel/tagRows';
import type { ChannelTagRow, ChannelView } from '../../src/resources/channel/types';
import { channel } from './channels-fixtures';

describe('groupByTag', () => {
  it('makes one row per tag in the order tags appear, children in list order, sums and unions', () => {
    const rows = groupByTag([
      channel({
        id: 9,
        name: 'n9',
        tag: 'b',
        priority: 4,
        weight: 2,
        type: 14,
        models: 'x,y',
        group: 'vip',
        used_quota: 5,
        balance: 1,
      }),
      channel({ id: 3, name: 'n3', tag: 'a', status: 2, models: 'z', response_time: 100 }),
      channel({
        id: 7,
        name: 'n7',
        tag: 'b',
        status: 2,
        models: 'y,w',
        group: 'default',
        used_quota: 7,
        balance: 2,
        response_time: 300,
      }),
      channel({ id: 5, name: 'n5', tag: 'a', status: 2, models: 'z', response_time: 0 }),
    ]) as ChannelTagRow[];
    expect(rows.map((r) => r.id)).toEqual(['tag:b', 'tag:a']);
    const [b, a] = rows as [ChannelTagRow, ChannelTagRow];
    expect(b.children.map((c: ChannelView) => c.id)).toEqual([9, 7]);
    expect(b).toMatchObject({
      is_tag: true,
      tag: 'b',
      name: 'b',
      type: 14,
      priority: 4,
      weight: 2,
      status: 1,
      models: 'x,y,w',
      group: 'vip,default',
      used_quota: 12,
      balance: 3,
      response_time: 300,
    });
    // Every child disabled: the tag shows disabled; only tested children count toward the mean.
    expect(a).toMatchObject({ status: 2, response_time: 100, models: 'z' });
  });

  it('keeps a channel without a tag as its own row', () => {
    const rows = groupByTag([channel({ id: 1, name: 'solo', tag: '' }), channel({ id: 2, name: 'm', tag: 't' })]);
    expect(rows.map((r) => r.id)).toEqual([1, 'tag:t']);
  });
});
