/**
 * The channel list as the family's consoles read it: tag mode pages by tag and answers the tagged
 * channels flat (untagged ones left out), every list answers `type_counts` (channels per type over
 * the other filters) and takes `type`, and GET /api/channel/tag/models answers the longest model
 * list among a tag's channels.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { setupRoot, startTestGateway, type ApiClient, type TestGateway } from '../helpers/gateway.js';

interface Listed {
  id: number;
  name: string;
  tag: string;
}

await forEachDatabase('channel tag mode', (kind) => {
  let tg: TestGateway;
  let root: ApiClient;
  const ids: Record<string, number> = {};

  const list = async (query: string) => {
    const res = await root.get(`/api/channel/?${query}`);
    expect(res.body.success, res.body.message).toBe(true);
    return res.body.data as { items: Listed[]; total: number; type_counts: Record<string, number> };
  };
  const names = (items: Listed[]) => items.map((c) => c.name);

  beforeAll(async () => {
    tg = await startTestGateway(kind);
    root = await setupRoot(tg);
    const channels: Array<[string, number, number, string, string]> = [
      // name, type, priority, tag, models
      ['a1', 1, 5, 'alpha', 'm1,m2'],
      ['a2', 14, 1, 'alpha', 'm1,m2,m3'],
      ['b1', 1, 9, 'beta', 'm4'],
      ['c1', 24, 3, 'gamma', 'm5'],
      ['plain', 1, 20, '', 'm6'],
    ];
    for (const [name, type, priority, tag, models] of channels) {
      const res = await root.post('/api/channel/', { name, type, key: `k-${name}`, models, group: 'default', priority, tag });
      expect(res.body.success, res.body.message).toBe(true);
      ids[name] = res.body.data.id ?? res.body.data[0]?.id;
    }
  });
  afterAll(async () => tg?.close());

  it('pages by tag and answers the tagged channels flat, leaving untagged ones out', async () => {
    const first = await list('tag_mode=true&p=1&page_size=2');
    expect(first.total).toBe(3);
    // Tags rank by their best channel (priority 9 beta, 5 alpha, 3 gamma); channels by priority.
    expect(names(first.items)).toEqual(['b1', 'a1', 'a2']);
    expect(first.items.every((c) => typeof c.id === 'number' && c.tag !== '')).toBe(true);
    const second = await list('tag_mode=true&p=2&page_size=2');
    expect(names(second.items)).toEqual(['c1']);
    const byId = await list('tag_mode=true&id_sort=true&page_size=10');
    expect(names(byId.items)).toEqual(['c1', 'b1', 'a2', 'a1']);
    expect(names((await list('page_size=10')).items)).toContain('plain');
  });

  it('searches in tag mode the same way', async () => {
    const res = await root.get('/api/channel/new/search?keyword=a&tag_mode=true');
    expect(res.body.data.total).toBe(1);
    expect(names(res.body.data.items)).toEqual(['a1', 'a2']);
    const search = await root.get('/api/channel/search?model=m4&tag_mode=true');
    expect(names(search.body.data.items)).toEqual(['b1']);
  });

  it('counts channels per type over the other filters, and filters by type', async () => {
    expect((await list('')).type_counts).toEqual({ '1': 3, '14': 1, '24': 1 });
    const claude = await list('type=14');
    expect(names(claude.items)).toEqual(['a2']);
    expect(claude.total).toBe(1);
    expect(claude.type_counts).toEqual({ '1': 3, '14': 1, '24': 1 });
    const searched = await root.get('/api/channel/search?model=m1&type=1');
    expect(searched.body.data.type_counts).toEqual({ '1': 1, '14': 1 });
    expect(names(searched.body.data.items)).toEqual(['a1']);
    expect((await list('tag_mode=true&type=1')).total).toBe(2);
  });

  it("answers the longest model list of a tag's channels", async () => {
    expect((await root.get('/api/channel/tag/models?tag=alpha')).body).toEqual({ success: true, message: '', data: 'm1,m2,m3' });
    expect((await root.get('/api/channel/tag/models?tag=nobody')).body.data).toBe('');
    expect((await root.get('/api/channel/tag/models')).body).toMatchObject({ success: false, code: 'channel.tag_required' });
  });
});
