/**
 * The channel fields this family's console sends (remark, settings, header_override, rpm_limit,
 * max_concurrency) and the user's remark, through the real console API: stored, returned, checked
 * before anything is written — and header_override applied to the channel's upstream requests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayFixture, RELAY_MODELS, type RelayFixture } from '../helpers/relay-fixture.js';
import { startGauge, type Gauge } from '../helpers/upstreams/gauge.js';

describe('channel fields kept and applied', () => {
  let f: RelayFixture;
  let gauge: Gauge;
  beforeAll(async () => {
    f = await startRelayFixture('sqlite');
    gauge = await startGauge(f.upstream.url);
  });
  afterAll(async () => {
    await f?.close();
    await gauge?.close();
  });

  const create = (fields: Record<string, unknown>) =>
    f.root.post('/api/channel/', {
      type: 1,
      name: 'fields',
      key: 'sk-upstream-good',
      base_url: `${gauge.url}/h`,
      models: 'gpt-4o-mini',
      group: 'lim',
      ...fields,
    });

  it('stores and returns remark, settings, header_override and the limits; a full edit changes them', async () => {
    const created = await create({
      remark: 'team A, renews in May',
      settings: '{"azure_responses_version":"preview"}',
      header_override: '{"X-Tenant":"acme","Authorization":"Token {api_key}"}',
      rpm_limit: 600,
      max_concurrency: 8,
    });
    expect(created.body.success).toBe(true);
    const id = created.body.data.id as number;
    const read = (await f.root.get(`/api/channel/${id}`)).body.data;
    expect(read).toMatchObject({
      remark: 'team A, renews in May',
      settings: '{"azure_responses_version":"preview"}',
      header_override: '{"X-Tenant":"acme","Authorization":"Token {api_key}"}',
      rpm_limit: 600,
      max_concurrency: 8,
    });
    expect(read.key).toBeUndefined();
    const edited = await f.root.put('/api/channel/', {
      ...read,
      remark: '',
      rpm_limit: 0,
      max_concurrency: 2,
      header_override: '',
    });
    expect(edited.body.success).toBe(true);
    expect(edited.body.data).toMatchObject({ remark: '', rpm_limit: 0, max_concurrency: 2, header_override: '' });
    // A channel made before these fields, or without them, answers "" and 0, never null.
    const plain = (await create({ name: 'plain' })).body.data;
    expect(plain).toMatchObject({ remark: '', settings: '', header_override: '', rpm_limit: 0, max_concurrency: 0 });
  });

  it('refuses a bad header_override, settings or limit and writes nothing', async () => {
    const id = (await create({ name: 'guarded', header_override: '{"X-Keep":"1"}' })).body.data.id as number;
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ header_override: 'not json' }, 'channel.header_override_invalid'],
      [{ header_override: '["X-A"]' }, 'channel.header_override_invalid'],
      [{ header_override: '{"X-A": 1}' }, 'channel.header_override_invalid'],
      [{ header_override: '{"X-A": "a\\r\\nX-Injected: 1"}' }, 'channel.header_override_invalid'],
      [{ header_override: '{"bad name": "x"}' }, 'channel.header_override_invalid'],
      [{ header_override: '{"Connection": "close"}' }, 'channel.header_override_invalid'],
      [{ header_override: '{"Transfer-Encoding": "chunked"}' }, 'channel.header_override_invalid'],
      [{ header_override: '{"Host": "evil.example"}' }, 'channel.header_override_invalid'],
      [{ header_override: '{"content-length": "0"}' }, 'channel.header_override_invalid'],
      [{ header_override: '{"Authorization": "Bearer sk-literal-secret"}' }, 'channel.header_override_invalid'],
      [{ header_override: '{"x-api-key": "literal"}' }, 'channel.header_override_invalid'],
      [{ settings: '[1]' }, 'channel.settings_invalid'],
      [{ remark: 'r'.repeat(256) }, 'channel.remark_too_long'],
    ];
    for (const [fields, code] of refusals) {
      const res = await f.root.put('/api/channel/', { id, name: 'guarded', ...fields });
      expect({ fields, code: res.body.code }).toEqual({ fields, code });
    }
    for (const fields of [{ rpm_limit: -1 }, { max_concurrency: 1.5 }, { max_concurrency: 2 ** 31 }]) {
      const res = await f.root.put('/api/channel/', { id, name: 'guarded', ...fields });
      expect(res.body.success).toBe(false);
    }
    expect((await f.root.get(`/api/channel/${id}`)).body.data).toMatchObject({
      header_override: '{"X-Keep":"1"}',
      settings: '',
      remark: '',
      rpm_limit: 0,
      max_concurrency: 0,
    });
  });

  it('sends the override headers with every upstream request of the channel, {api_key} filled in', async () => {
    const id = (
      await create({
        name: 'headers',
        group: 'default',
        models: RELAY_MODELS.join(','),
        priority: 100,
        header_override: JSON.stringify({
          'X-Tenant': 'acme',
          authorization: 'Token {api_key}',
          'OpenAI-Organization': 'org-override',
        }),
      })
    ).body.data.id as number;
    await f.tg.gateway.ctx.channels.reload();
    const lane = gauge.lane('h');
    lane.headers.length = 0;
    await f.openai().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    const stream = await f.openai().chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    for await (const _ of stream) void _;
    // The channel test goes the same way.
    expect((await f.root.get(`/api/channel/test/${id}?model=gpt-4o-mini`)).body.success).toBe(true);
    expect(lane.headers).toHaveLength(3);
    for (const headers of lane.headers) {
      expect(headers['x-tenant']).toBe('acme');
      // Replaced, not added beside the provider's own.
      expect(headers.authorization).toBe('Token sk-upstream-good');
      expect(headers['openai-organization']).toBe('org-override');
    }
    await f.root.delete(`/api/channel/${id}/`);
    await f.tg.gateway.ctx.channels.reload();
  });

  it("keeps a user's remark for admins only", async () => {
    const created = await f.root.post('/api/user/', {
      username: 'remarked',
      password: 'remarked-pass-1',
      display_name: 'R',
      remark: 'VIP from the sales call',
    });
    expect(created.body.data.remark).toBe('VIP from the sales call');
    const id = created.body.data.id as number;
    expect((await f.root.get(`/api/user/${id}`)).body.data.remark).toBe('VIP from the sales call');
    const edited = await f.root.put('/api/user/', { id, username: 'remarked', display_name: 'R', remark: '  moved to vip  ' });
    expect(edited.body.data.remark).toBe('moved to vip');
    const listed = (await f.root.get('/api/user/search?keyword=remarked')).body.data.items[0];
    expect(listed.remark).toBe('moved to vip');
    // An edit without the field keeps it; a too long one is refused.
    await f.root.put('/api/user/', { id, username: 'remarked', display_name: 'R2' });
    expect((await f.root.get(`/api/user/${id}`)).body.data.remark).toBe('moved to vip');
    expect((await f.root.put('/api/user/', { id, remark: 'x'.repeat(256) })).body.code).toBe('user.remark_too_long');
    const user = f.tg.client();
    expect((await user.login('remarked', 'remarked-pass-1')).body.success).toBe(true);
    expect((await user.get('/api/user/self')).body.data.remark).toBe('');
  });
});
