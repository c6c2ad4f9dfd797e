import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { setupRoot, startTestGateway, type ApiClient, type ApiResponse, type TestGateway } from '../helpers/gateway.js';
import { expectFail, expectOk, makeChannelUser, newKey, watch } from '../helpers/channels.js';
import { setChannelStatus } from '../../server/channels/status.js';
import { CHANNEL_TYPES, isChannelType } from '../../server/channels/types.js';

await forEachDatabase('channels', (kind) => {
  let tg: TestGateway;
  let root: ApiClient;
  let admin: ApiClient;
  let user: ApiClient;

  const makeUser = (username: string, promote: boolean) => makeChannelUser(tg, root, username, promote);

  const db = () => tg.gateway.ctx.db;

  async function create(body: Record<string, unknown>): Promise<number> {
    const res = await root.post('/api/channel/', { type: 1, key: newKey(), models: ['gpt-4o'], ...body });
    return expectOk(res).id as number;
  }

  async function abilities(channelId: number) {
    const rows = await db().selectFrom('abilities').selectAll().where('channel_id', '=', channelId).execute();
    return rows
      .map((r) => ({
        group: r.group,
        model: r.model,
        enabled: Number(r.enabled),
        priority: Number(r.priority),
        weight: r.weight,
        tag: r.tag,
      }))
      .sort((a, b) => `${a.group}/${a.model}`.localeCompare(`${b.group}/${b.model}`));
  }

  async function channelCount(): Promise<number> {
    const row = await db()
      .selectFrom('channels')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  beforeAll(async () => {
    tg = await startTestGateway(kind);
    root = watch(await setupRoot(tg));
    admin = await makeUser('chadmin', true);
    user = await makeUser('chuser', false);
  });
  afterAll(async () => tg?.close());

  beforeEach(async () => {
    await db().deleteFrom('abilities').execute();
    await db().deleteFrom('channels').execute();
  });

  it('lists every channel type with a default base URL for the well-known providers', () => {
    expect(CHANNEL_TYPES[1].defaultBaseUrl).toBe('https://api.openai.com');
    expect(CHANNEL_TYPES[14].defaultBaseUrl).toBe('https://api.anthropic.com');
    expect(CHANNEL_TYPES[24].defaultBaseUrl).toBe('https://generativelanguage.googleapis.com');
    expect(CHANNEL_TYPES[43].defaultBaseUrl).toBe('https://api.deepseek.com');
    const specIds = [
      1, 2, 3, 4, 5, 8, 11, 14, 15, 46, 16, 26, 17, 18, 19, 20, 21, 22, 23, 24, 25, 31, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42,
      43, 44, 45, 47, 48, 49, 50, 54, 55,
    ];
    for (const id of specIds) expect(isChannelType(id), `type ${id}`).toBe(true);
    expect(Object.keys(CHANNEL_TYPES)).toHaveLength(specIds.length);
    expect(isChannelType(6)).toBe(false);
  });

  it('creates, reads and lists a channel with normalised fields and never returns its key', async () => {
    const key = newKey();
    const res = await root.post('/api/channel/', {
      name: '  main  ',
      type: 1,
      key,
      base_url: 'https://example.com/v1//',
      models: ['gpt-4o', ' gpt-4o-mini ', 'gpt-4o', ''],
      group: 'default, vip',
      model_mapping: '{"gpt-4o":"gpt-4o-2024-08-06"}',
      priority: '3',
      weight: 7,
    });
    const created = expectOk(res);
    expect(created).toMatchObject({
      name: 'main',
      type: 1,
      base_url: 'https://example.com/v1',
      models: 'gpt-4o,gpt-4o-mini',
      group: 'default,vip',
      priority: 3,
      weight: 7,
      status: 1,
      balance: 0,
      used_quota: 0,
    });
    expect(created).not.toHaveProperty('key');
    expect(created.created_time).toBeGreaterThan(0);
    const stored = await db().selectFrom('channels').select('key').where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(stored.key).toBe(key);

    expect(expectOk(await admin.get(`/api/channel/${created.id}`))).toEqual(created);
    const list = expectOk(await admin.get('/api/channel/?p=1&page_size=10'));
    expect(list).toMatchObject({ total: 1, page: 1, page_size: 10 });
    expect(list.items[0]).toEqual(created);

    expect(await abilities(created.id)).toEqual([
      { group: 'default', model: 'gpt-4o', enabled: 1, priority: 3, weight: 7, tag: null },
      { group: 'default', model: 'gpt-4o-mini', enabled: 1, priority: 3, weight: 7, tag: null },
      { group: 'vip', model: 'gpt-4o', enabled: 1, priority: 3, weight: 7, tag: null },
      { group: 'vip', model: 'gpt-4o-mini', enabled: 1, priority: 3, weight: 7, tag: null },
    ]);
    expectFail(await admin.get('/api/channel/999999'), '渠道不存在');

    // Spellings differing only in case share one ability row (MySQL's key ignores case).
    const cased = await create({ name: 'cased', models: 'GPT-4o,gpt-4o', group: 'default' });
    expect((await abilities(cased)).map((a) => a.model)).toEqual(['GPT-4o']);
  });

  it('asks AWS and Vertex channels for no base URL and Ollama channels for no key', async () => {
    const aws = expectOk(await root.post('/api/channel/', { name: 'aws', type: 33, key: 'ak|sk|us-east-1', models: 'claude-3' }));
    expect(aws.base_url).toBe('');
    const vertex = { type: 'service_account', project_id: 'p', client_email: 'x@p.iam', private_key: 'k' };
    const v = expectOk(
      await root.post('/api/channel/', { name: 'vertex', type: 41, key: JSON.stringify(vertex), models: 'gemini-pro' }),
    );
    expect(v.base_url).toBe('');
    const ollama = expectOk(await root.post('/api/channel/', { name: 'ollama', type: 4, key: '', models: 'llama3' }));
    expect(ollama).toMatchObject({ type: 4, name: 'ollama' });
    const stored = await db().selectFrom('channels').select('key').where('name', '=', 'ollama').executeTakeFirstOrThrow();
    expect(stored.key).toBe('');
  });

  it('fills iFlytek version, defaults the group and creates one channel per key in batch mode', async () => {
    const spark = expectOk(await root.post('/api/channel/', { name: 'spark', type: 18, key: newKey(), models: 'SparkDesk' }));
    expect(spark.other).toBe('v2.1');
    expect(spark.group).toBe('default');

    const [a, b] = [newKey(), newKey()];
    const batch = await root.post('/api/channel/', {
      mode: 'batch',
      name: 'many',
      type: 1,
      key: `${a}\n\n ${b} \n${a}\n`,
      models: 'gpt-4o',
    });
    expectOk(batch);
    const rows = await db().selectFrom('channels').select(['name', 'key']).where('name', '=', 'many').orderBy('id').execute();
    expect(rows.map((r) => r.key)).toEqual([a, b]);
  });

  it('refuses bad input with the spec messages and writes nothing', async () => {
    const good = { name: 'x', type: 1, key: newKey(), models: ['gpt-4o'] };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...good, name: '  ' }, '请填写渠道名称和渠道密钥'],
      [{ ...good, key: '' }, '请填写渠道名称和渠道密钥'],
      [{ ...good, models: [] }, '请至少选择一个模型'],
      [{ ...good, models: ' , ' }, '请至少选择一个模型'],
      [{ ...good, model_mapping: '{bad' }, '模型映射必须是合法的 JSON 格式！'],
      [{ ...good, model_mapping: '[1,2]' }, '模型映射必须是合法的 JSON 格式！'],
      [{ ...good, status_code_mapping: 'nope' }, '状态码映射必须是合法的 JSON 格式！'],
      [{ ...good, setting: '1' }, '渠道额外设置必须是合法的 JSON 格式！'],
      [{ ...good, param_override: '"s"' }, '参数覆盖必须是合法的 JSON 格式！'],
      [{ ...good, priority: 'high' }, '优先级必须是整数！'],
      [{ ...good, priority: 1.5 }, '优先级必须是整数！'],
      [{ ...good, priority: -1000 }, '优先级不能小于 -999'],
      [{ ...good, weight: 'heavy' }, '权重必须是非负整数！'],
      [{ ...good, type: 6 }, '未知的渠道类型'],
      [{ ...good, type: 8 }, '该渠道类型必须填写 Base URL'],
      [{ ...good, type: 33, key: '' }, '请填写渠道名称和渠道密钥'],
      [{ ...good, base_url: 'ftp://example.com' }, 'Base URL 必须以 http:// 或 https:// 开头'],
      [{ ...good, mode: 'batch', key: ' \n ' }, '请填写渠道名称和渠道密钥'],
    ];
    for (const [body, message] of cases) expectFail(await root.post('/api/channel/', body), message);
    expect(await channelCount()).toBe(0);
    expect(await db().selectFrom('abilities').selectAll().execute()).toEqual([]);
    // A negative weight on a single channel becomes 0; priority -999 is allowed.
    const id = await create({ name: 'edge', weight: -4, priority: -999 });
    expect(expectOk(await admin.get(`/api/channel/${id}`))).toMatchObject({ weight: 0, priority: -999 });
  });

  it('applies quick edits of status, priority and weight and keeps abilities in step', async () => {
    const id = await create({ name: 'quick', group: ['default'], models: 'm1' });
    expect(expectOk(await admin.put('/api/channel/', { id, status: 2 })).status).toBe(2);
    expect(await abilities(id)).toEqual([{ group: 'default', model: 'm1', enabled: 0, priority: 0, weight: 0, tag: null }]);
    expectOk(await admin.put('/api/channel/', { id, status: 1 }));
    expect(expectOk(await admin.put('/api/channel/', { id, priority: '12' })).priority).toBe(12);
    expect(expectOk(await admin.put('/api/channel/', { id, weight: -5 })).weight).toBe(0);
    expect(expectOk(await admin.put('/api/channel/', { id, weight: 9 })).weight).toBe(9);
    // Empty priority or weight is ignored.
    expect(expectOk(await admin.put('/api/channel/', { id, priority: '', weight: null }))).toMatchObject({
      priority: 12,
      weight: 9,
    });
    expect(await abilities(id)).toEqual([{ group: 'default', model: 'm1', enabled: 1, priority: 12, weight: 9, tag: null }]);

    expectFail(await admin.put('/api/channel/', { id, status: 3 }), '无效的渠道状态');
    expectFail(await admin.put('/api/channel/', { id, priority: 'x' }), '优先级必须是整数！');
    expectFail(await admin.put('/api/channel/', { id, priority: -1000 }), '优先级不能小于 -999');
    expectFail(await admin.put('/api/channel/', { id: 999999, status: 2 }), '渠道不存在');
    expect(expectOk(await admin.get(`/api/channel/${id}`))).toMatchObject({ status: 1, priority: 12, weight: 9 });
  });

  it('applies a full edit, keeping the key when none is given', async () => {
    const key = newKey();
    const id = await create({ name: 'full', key, models: 'a,b', group: 'default' });
    const row = expectOk(await root.get(`/api/channel/${id}`));
    const edited = expectOk(
      await root.put('/api/channel/', {
        ...row,
        name: 'renamed',
        models: ['b', 'c'],
        group: ['vip'],
        base_url: 'https://up.example/',
      }),
    );
    expect(edited).toMatchObject({ id, name: 'renamed', models: 'b,c', group: 'vip', base_url: 'https://up.example' });
    const stored = await db().selectFrom('channels').select('key').where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored.key).toBe(key);
    expect((await abilities(id)).map((a) => `${a.group}/${a.model}`)).toEqual(['vip/b', 'vip/c']);

    const newer = newKey();
    expectOk(await root.put('/api/channel/', { id, name: 'renamed', key: newer, models: 'c' }));
    const after = await db().selectFrom('channels').select(['key', 'group']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(after).toEqual({ key: newer, group: 'vip' });

    expectFail(await root.put('/api/channel/', { id, name: '' }), '请填写渠道名称和渠道密钥');
    expectFail(await root.put('/api/channel/', { id, models: [] }), '请至少选择一个模型');
    expectFail(await root.put('/api/channel/', { id, model_mapping: 'x' }), '模型映射必须是合法的 JSON 格式！');
    expect(expectOk(await root.get(`/api/channel/${id}`))).toMatchObject({ name: 'renamed', models: 'c', model_mapping: '' });
  });

  it('copies a channel with a suffix, reset counters and the same key', async () => {
    const key = newKey();
    const id = await create({ name: 'orig', key, models: 'm', group: 'default,vip', tag: 't1' });
    await db().updateTable('channels').set({ balance: 12.5, used_quota: 999, response_time: 300 }).where('id', '=', id).execute();

    const copy = expectOk(await root.post(`/api/channel/copy/${id}`));
    expect(copy).toMatchObject({
      name: 'orig_复制',
      balance: 0,
      used_quota: 0,
      response_time: 0,
      group: 'default,vip',
      tag: 't1',
    });
    expect(copy.id).not.toBe(id);
    const custom = expectOk(await root.post(`/api/channel/copy/${id}?suffix=-b`));
    expect(custom.name).toBe('orig-b');
    const keys = await db().selectFrom('channels').select('key').where('id', 'in', [copy.id, custom.id]).execute();
    expect(keys.map((k) => k.key)).toEqual([key, key]);
    expect(await abilities(copy.id)).toHaveLength(2);

    // The console's copy: the row it shows (no key) sent back to POST /api/channel/.
    const row = expectOk(await root.get(`/api/channel/${id}`));
    const viaCreate = expectOk(await root.post('/api/channel/', { ...row, name: `${row.name}_复制`, balance: 0, used_quota: 0 }));
    expect(viaCreate).toMatchObject({ name: 'orig_复制', balance: 0, used_quota: 0 });
    const copied = await db().selectFrom('channels').select('key').where('id', '=', viaCreate.id).executeTakeFirstOrThrow();
    expect(copied.key).toBe(key);
    expectFail(await root.post('/api/channel/copy/999999'), '渠道不存在');
  });

  it('groups channels by tag, edits and switches a tag wholesale', async () => {
    const a = await create({ name: 'a', models: 'm1', priority: 5 });
    const b = await create({ name: 'b', models: 'm2', priority: 1 });
    const c = await create({ name: 'c', models: 'm3', priority: 3 });

    expectFail(await root.post('/api/channel/batch/tag', { ids: [], tag: 't' }), '请至少选择一个渠道');
    expectFail(await root.post('/api/channel/batch/tag', { ids: [a, b], tag: '  ' }), '标签不能为空');
    expect(expectOk(await root.post('/api/channel/batch/tag', { ids: [a, b, 999999], tag: 'team' }))).toBe(2);
    expect((await abilities(a))[0]?.tag).toBe('team');

    // Tag mode pages by tag and answers the tagged channels flat (see channels-tag-mode.test.ts).
    const tagged = expectOk(await admin.get('/api/channel/?tag_mode=true'));
    expect(tagged.total).toBe(1);
    expect(tagged.items.map((ch: { id: number; tag: string }) => [ch.id, ch.tag])).toEqual([
      [a, 'team'],
      [b, 'team'],
    ]);
    expect(tagged.items.map((ch: { id: number }) => ch.id)).not.toContain(c);

    expectFail(await root.put('/api/channel/tag', { tag: 'team' }), '没有修改');
    expectFail(await root.put('/api/channel/tag', { tag: '', priority: 1 }), '标签不能为空');
    expectFail(await root.put('/api/channel/tag', { tag: 'team', priority: 'x' }), '优先级必须是整数！');
    expectFail(await root.put('/api/channel/tag', { tag: 'team', priority: '' }), '优先级必须是整数！');
    expectFail(await root.put('/api/channel/tag', { tag: 'team', weight: -1 }), '权重必须是非负整数！');
    expectFail(await root.put('/api/channel/tag', { tag: 'team', weight: null }), '权重必须是非负整数！');
    expectFail(await root.put('/api/channel/tag', { tag: 'team', model_mapping: '{' }), '模型映射必须是合法的 JSON 格式！');
    expectFail(await root.put('/api/channel/tag', { tag: 'nobody', priority: 1 }), '没有找到带有该标签的渠道');

    const edit = await root.put('/api/channel/tag', {
      tag: 'team',
      new_tag: 'crew',
      priority: 8,
      weight: '4',
      groups: ['vip'],
      models: 'x,y',
      model_mapping: '{"x":"z"}',
    });
    expect(edit.body).toEqual({ success: true, message: '更新成功！', data: 2 });
    for (const id of [a, b]) {
      expect(expectOk(await admin.get(`/api/channel/${id}`))).toMatchObject({
        tag: 'crew',
        priority: 8,
        weight: 4,
        group: 'vip',
        models: 'x,y',
        model_mapping: '{"x":"z"}',
      });
      expect(await abilities(id)).toEqual([
        { group: 'vip', model: 'x', enabled: 1, priority: 8, weight: 4, tag: 'crew' },
        { group: 'vip', model: 'y', enabled: 1, priority: 8, weight: 4, tag: 'crew' },
      ]);
    }

    expect(expectOk(await admin.post('/api/channel/tag/disabled', { tag: 'crew' }))).toBe(2);
    expect((await abilities(a)).every((r) => r.enabled === 0)).toBe(true);
    const off = expectOk(await admin.get('/api/channel/?tag_mode=true'));
    expect(off.items[0]).toMatchObject({ tag: 'crew', status: 2 });
    await db().updateTable('channels').set({ status: 1 }).where('id', '=', b).execute();
    expect(expectOk(await admin.get('/api/channel/?tag_mode=true')).items[0].status).toBe(1);
    expect(expectOk(await admin.post('/api/channel/tag/enabled', { tag: 'crew' }))).toBe(2);
    expect((await abilities(a)).every((r) => r.enabled === 1)).toBe(true);
    expectFail(await admin.post('/api/channel/tag/enabled', { tag: '' }), '标签不能为空');
  });

  it('deletes one, a selection, and all disabled channels with their abilities', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push(await create({ name: `d${i}` }));
    const [d0, d1, d2, d3, d4, d5] = ids as [number, number, number, number, number, number];
    expectOk(await root.delete(`/api/channel/${d0}/`));
    expectOk(await root.delete(`/api/channel/${d1}`));
    expectFail(await root.delete(`/api/channel/${d1}`), '渠道不存在');
    expect(await abilities(d0)).toEqual([]);

    expectFail(await root.post('/api/channel/batch', { ids: [] }), '请至少选择一个渠道');
    expect(expectOk(await root.post('/api/channel/batch', { ids: [d2, 999999] }))).toBe(1);

    expectOk(await admin.put('/api/channel/', { id: d3, status: 2 }));
    await db().updateTable('channels').set({ status: 3 }).where('id', '=', d4).execute();
    expect(expectOk(await root.delete('/api/channel/disabled'))).toBe(2);
    const left = await db().selectFrom('channels').select('id').execute();
    expect(left.map((r) => r.id)).toEqual([d5]);
    const abilityOwners = await db().selectFrom('abilities').select('channel_id').distinct().execute();
    expect(abilityOwners.map((r) => r.channel_id)).toEqual([d5]);
    expect(expectOk(await root.delete('/api/channel/disabled'))).toBe(0);
  });

  it('repairs the abilities table and answers the channels rebuilt and failed', async () => {
    const a = await create({ name: 'a', models: 'm1,m2' });
    const b = await create({ name: 'b', models: 'm3' });
    const c = await create({ name: 'c', models: 'm4' });
    const rebuilt = { success: (await db().selectFrom('channels').select('id').execute()).length, fails: 0 };
    expect(expectOk(await admin.post('/api/channel/fix'))).toEqual(rebuilt);
    await db().deleteFrom('abilities').where('channel_id', '=', a).where('model', '=', 'm2').execute();
    await db().updateTable('abilities').set({ priority: 77 }).where('channel_id', '=', b).execute();
    await db()
      .insertInto('abilities')
      .values({ group: 'default', model: 'ghost', channel_id: 424242, enabled: 1, priority: 0, weight: 0 })
      .execute();
    expect(expectOk(await admin.post('/api/channel/fix'))).toEqual(rebuilt);
    expect((await abilities(a)).map((r) => r.model)).toEqual(['m1', 'm2']);
    expect((await abilities(b))[0]?.priority).toBe(0);
    expect(await abilities(424242)).toEqual([]);
    expect(await abilities(c)).toHaveLength(1);
  });

  it('orders by priority then id, or by id alone, and pages', async () => {
    const low = await create({ name: 'low', priority: 0 });
    const high = await create({ name: 'high', priority: 10 });
    const mid = await create({ name: 'mid', priority: 5 });
    const mid2 = await create({ name: 'mid2', priority: 5 });
    const ids = (res: ApiResponse) => expectOk(res).items.map((i: { id: number }) => i.id);
    expect(ids(await admin.get('/api/channel/'))).toEqual([high, mid2, mid, low]);
    expect(ids(await admin.get('/api/channel/?id_sort=true'))).toEqual([mid2, mid, high, low]);
    const page2 = expectOk(await admin.get('/api/channel/?p=2&page_size=3'));
    expect(page2).toMatchObject({ total: 4, page: 2, page_size: 3 });
    expect(page2.items.map((i: { id: number }) => i.id)).toEqual([low]);
  });

  it('searches by id, name (wildcards taken literally), key, group and model entries', async () => {
    const pct = await create({ name: 'a%b', group: 'a_b', models: 'gpt-4o,claude' });
    const plain = await create({ name: 'axxb', group: 'axb,default', models: 'gpt-4o-mini' });
    const under = await create({ name: 'a_c', group: 'vip', models: 'x' });
    const keyed = newKey();
    const byKey = await create({ name: 'keyed', key: keyed, group: 'default', models: 'gpt-4o' });
    const search = async (query: string, path = '/api/channel/search') =>
      expectOk(await admin.get(`${path}?${query}`))
        .items.map((i: { id: number }) => i.id)
        .sort((x: number, y: number) => x - y);

    expect(await search(`keyword=${under}`)).toEqual([under]);
    expect(await search('keyword=%25')).toEqual([pct]);
    expect(await search('keyword=_')).toEqual([under]);
    expect(await search('keyword=a')).toEqual([pct, plain, under]);
    expect(await search(`keyword=${keyed}`)).toEqual([byKey]);
    expect(await search('group=a_b')).toEqual([pct]);
    expect(await search('group=default')).toEqual([plain, byKey]);
    expect(await search('group=a')).toEqual([]);
    expect(await search('model=gpt-4o')).toEqual([pct, byKey]);
    expect(await search('model=gpt')).toEqual([]);
    expect(await search('keyword=a&model=gpt-4o-mini')).toEqual([plain]);
    expect(await search('keyword=%20%20a%25%20')).toEqual([pct]);

    expectOk(await admin.put('/api/channel/', { id: plain, status: 2 }));
    await db().updateTable('channels').set({ status: 3 }).where('id', '=', under).execute();
    const news = '/api/channel/new/search';
    expect(await search('status=enabled', news)).toEqual([pct, byKey]);
    expect(await search('status=1', news)).toEqual([pct, byKey]);
    expect(await search('status=disabled', news)).toEqual([plain]);
    expect(await search('status=auto_disabled', news)).toEqual([under]);
    expect(await search('status=all', news)).toEqual([pct, plain, under, byKey]);
    expectFail(await admin.get(`${news}?key=${keyed}`), 'KEY查询时请输入模型');
    expect(await search(`key=${keyed}&model=gpt-4o`, news)).toEqual([byKey]);
    expect(await search(`key=${keyed}&model=claude`, news)).toEqual([]);
    const paged = expectOk(await admin.get(`${news}?p=2&page_size=2&id_sort=true`));
    expect(paged.total).toBe(4);
    expect(paged.items.map((i: { id: number }) => i.id)).toEqual([plain, pct]);
  });

  it('lists model names', async () => {
    await create({ name: 'a', models: 'b-model,a-model' });
    const off = await create({ name: 'b', models: 'c-model,a-model' });
    expectOk(await admin.put('/api/channel/', { id: off, status: 2 }));
    expect(expectOk(await admin.get('/api/channel/models_enabled'))).toEqual(['a-model', 'b-model']);
    expect(expectOk(await admin.get('/api/channel/modelNames'))).toEqual(['a-model', 'b-model', 'c-model']);
    expect(expectOk(await admin.get('/api/channel/models'))).toEqual([{ id: 'a-model' }, { id: 'b-model' }, { id: 'c-model' }]);
  });

  it('refuses normal users everywhere and admins the root-only actions', async () => {
    const id = await create({ name: 'guarded', tag: 'g' });
    const denied = '无权进行此操作，权限不足';
    const calls: Array<[string, string, unknown?]> = [
      ['GET', '/api/channel/'],
      ['GET', '/api/channel/search?keyword=a'],
      ['GET', '/api/channel/new/search'],
      ['GET', `/api/channel/${id}`],
      ['GET', '/api/channel/models'],
      ['GET', '/api/channel/models_enabled'],
      ['GET', '/api/channel/modelNames'],
      ['POST', '/api/channel/', { name: 'n', key: 'k', models: 'm' }],
      ['POST', `/api/channel/copy/${id}`],
      ['PUT', '/api/channel/', { id, status: 2 }],
      ['PUT', '/api/channel/', { id, name: 'hijack', models: 'm' }],
      ['DELETE', `/api/channel/${id}/`],
      ['DELETE', '/api/channel/disabled'],
      ['POST', '/api/channel/batch', { ids: [id] }],
      ['POST', '/api/channel/batch/tag', { ids: [id], tag: 'x' }],
      ['PUT', '/api/channel/tag', { tag: 'g', priority: 1 }],
      ['POST', '/api/channel/tag/disabled', { tag: 'g' }],
      ['POST', '/api/channel/fix'],
    ];
    for (const [method, path, body] of calls) {
      expectFail(await user.request(method, path, body ?? (method === 'GET' || method === 'DELETE' ? undefined : {})), denied);
    }
    const anonymous = tg.client();
    expect((await anonymous.get('/api/channel/')).status).toBe(401);

    const rootOnly: Array<[string, string, unknown?]> = [
      ['POST', `/api/channel/copy/${id}`],
      ['POST', '/api/channel/', { id, name: 'copy-by-admin', models: 'm' }],
      ['PUT', '/api/channel/', { id, name: 'hijack', models: 'm' }],
      ['DELETE', `/api/channel/${id}/`],
      ['DELETE', `/api/channel/${id}`],
      ['DELETE', '/api/channel/disabled'],
      ['POST', '/api/channel/batch', { ids: [id] }],
      ['POST', '/api/channel/batch/tag', { ids: [id], tag: 'x' }],
      ['PUT', '/api/channel/tag', { tag: 'g', priority: 1 }],
    ];
    for (const [method, path, body] of rootOnly) {
      expectFail(await admin.request(method, path, body ?? (method === 'DELETE' ? undefined : {})), denied);
    }
    expect(await channelCount()).toBe(1);
    expect(expectOk(await admin.get(`/api/channel/${id}`))).toMatchObject({ name: 'guarded', tag: 'g', status: 1 });

    // What an admin may do.
    expectOk(await admin.get('/api/channel/'));
    const made = expectOk(await admin.post('/api/channel/', { name: 'by-admin', type: 1, key: newKey(), models: 'm' }));
    expect(expectOk(await admin.put('/api/channel/', { id: made.id, priority: 2 })).priority).toBe(2);
    expectOk(await admin.post('/api/channel/tag/disabled', { tag: 'g' }));
    expectOk(await admin.post('/api/channel/fix'));
    // And root does the rest.
    expectOk(await root.put('/api/channel/', { id, name: 'by-root', models: 'm' }));
    expectOk(await root.delete(`/api/channel/${id}/`));
  });

  it('auto-disables and re-enables with a reason, never touching a channel disabled by hand', async () => {
    const ctx = tg.gateway.ctx;
    const a = await create({ name: 'auto', models: 'am' });
    const manual = await create({ name: 'manual', models: 'am' });
    expectOk(await admin.put('/api/channel/', { id: manual, status: 2 }));

    expect(await setChannelStatus(ctx, a, 3, '401: invalid key')).toBe(true);
    expect(await setChannelStatus(ctx, a, 3, 'again')).toBe(false);
    const row = expectOk(await admin.get(`/api/channel/${a}`));
    expect(row.status).toBe(3);
    expect(JSON.parse(row.other_info)).toMatchObject({ status_reason: '401: invalid key' });
    expect((await abilities(a))[0]?.enabled).toBe(0);

    expect(await setChannelStatus(ctx, manual, 3, 'x')).toBe(false);
    expect(await setChannelStatus(ctx, manual, 1, 'x')).toBe(false);
    expect(expectOk(await admin.get(`/api/channel/${manual}`)).status).toBe(2);

    expect(await setChannelStatus(ctx, a, 1, 'test passed')).toBe(true);
    expect((await abilities(a))[0]?.enabled).toBe(1);
  });
});
