import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import type { ApiClient, ApiResponse } from '../helpers/gateway.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { OPENAI_BILLING, OPENAI_FIXTURES, type RecordedRequest } from '../helpers/upstreams/openai.js';
import { testAllRunning } from '../../server/channels/testing.js';
import { startChannelScheduler } from '../../server/channels/scheduler.js';

const DENIED = '无权进行此操作，权限不足';

function expectOk(res: ApiResponse) {
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ success: true });
  return res.body;
}

function expectFail(res: ApiResponse, message: string) {
  expect(res.status).toBe(200);
  expect(res.body.success).toBe(false);
  expect(res.body.message).toContain(message);
}

/** A key the stand-in accepts, unique so its requests can be told apart. */
const goodKey = () => `sk-upstream-good-${randomBytes(6).toString('hex')}`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

await forEachDatabase('channel health', (kind) => {
  let f: RelayFixture;
  let root: ApiClient;
  let admin: ApiClient;

  beforeAll(async () => {
    f = await startRelayFixture(kind);
    root = f.root;
    const created = await root.post('/api/user/', { username: 'hadmin', password: 'hadmin-pass-1', display_name: 'H' });
    expect(created.body.success).toBe(true);
    const found = await root.get('/api/user/search?keyword=hadmin');
    const id = found.body.data.items[0].id;
    expect((await root.post('/api/user/manage', { id, action: 'promote' })).body.data.role).toBe(10);
    admin = f.tg.client();
    expect((await admin.login('hadmin', 'hadmin-pass-1')).body.success).toBe(true);
  });
  afterAll(async () => {
    const running = f && testAllRunning(f.tg.gateway.ctx);
    if (running) await running;
    await f?.close();
  });

  async function setOption(key: string, value: string) {
    expectOk(await root.put('/api/option/', { key, value }));
  }

  beforeEach(async () => {
    await setOption('AutomaticDisableChannelEnabled', 'false');
    await setOption('AutomaticEnableChannelEnabled', 'false');
    await setOption('ChannelDisableThreshold', '5');
  });

  async function row(id: number) {
    return f.tg.gateway.ctx.db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  const requestsWith = (key: string): RecordedRequest[] =>
    f.upstream.requests.filter((r) => r.headers.authorization === `Bearer ${key}`);

  it('tests one channel: a real minimal chat completion, timed and recorded', async () => {
    const key = goodKey();
    const id = await f.addChannel({ name: 'one', key, models: 'gpt-4o-mini,gpt-4o' });
    const before = Math.floor(Date.now() / 1000);
    const answer = expectOk(await admin.get(`/api/channel/test/${id}`));
    expect(answer.message).toBe('');
    expect(typeof answer.time).toBe('number');
    expect(answer.time).toBeGreaterThan(0);
    expect(answer.data).toEqual({ time: answer.time });

    const sent = requestsWith(key);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ method: 'POST', url: '/v1/chat/completions' });
    expect(sent[0]!.body).toEqual({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 1 });

    const stored = await row(id);
    expect(stored.response_time).toBeGreaterThan(0);
    expect(Math.abs(stored.response_time - answer.time * 1000)).toBeLessThanOrEqual(1);
    expect(stored.test_time).toBeGreaterThanOrEqual(before);
    expect(stored.status).toBe(1);
  });

  it('chooses the model: the query, else test_model, else the first model; embeddings for embedding models', async () => {
    const key = goodKey();
    const id = await f.addChannel({ name: 'models', key, models: 'gpt-4o-mini,text-embedding-3-small', test_model: 'gpt-4o' });
    expectOk(await admin.get(`/api/channel/test/${id}`));
    expectOk(await admin.get(`/api/channel/test/${id}?model=text-embedding-3-small`));
    const sent = requestsWith(key);
    expect(sent.map((r) => [r.url, r.body.model])).toEqual([
      ['/v1/chat/completions', 'gpt-4o'],
      ['/v1/embeddings', 'text-embedding-3-small'],
    ]);
    expect(sent[1]!.body).toEqual({ model: 'text-embedding-3-small', input: 'hi' });
  });

  it('applies the model mapping to the tested model', async () => {
    const key = goodKey();
    const id = await f.addChannel({ name: 'mapped', key, models: 'alias', model_mapping: '{"alias":"gpt-4o-mini"}' });
    expectOk(await admin.get(`/api/channel/test/${id}`));
    expect(requestsWith(key)[0]!.body.model).toBe('gpt-4o-mini');
  });

  it('reports an upstream failure with its message, records the time and auto-disables on 401', async () => {
    await setOption('AutomaticDisableChannelEnabled', 'true');
    const id = await f.addChannel({ name: 'bad-key', key: 'sk-upstream-invalid', auto_ban: 1 });
    const answer = (await admin.get(`/api/channel/test/${id}`)).body;
    expect(answer.success).toBe(false);
    expect(answer.message).toBe(JSON.parse(OPENAI_FIXTURES.invalidKey).error.message);
    expect(typeof answer.time).toBe('number');

    const stored = await row(id);
    expect(stored.status).toBe(3);
    expect(stored.test_time).toBeGreaterThan(0);
    expect(stored.response_time).toBe(0);
    const info = JSON.parse(stored.other_info ?? '{}');
    expect(info.status_reason).toMatch(/^401: Incorrect API key provided/);
    expect(info.status_time).toBeGreaterThan(0);
    // The relay's channel index heard about it (the reload it triggers is asynchronous).
    await vi.waitFor(() => expect(f.tg.gateway.ctx.channels.get(id)?.status).toBe(3));
  });

  it('does not auto-disable when the option is off or the channel opts out', async () => {
    const off = await f.addChannel({ name: 'bad-key-off', key: 'sk-upstream-invalid', auto_ban: 1 });
    expect((await admin.get(`/api/channel/test/${off}`)).body.success).toBe(false);
    expect((await row(off)).status).toBe(1);

    await setOption('AutomaticDisableChannelEnabled', 'true');
    const optOut = await f.addChannel({ name: 'bad-key-no-ban', key: 'sk-upstream-invalid', auto_ban: 0 });
    expect((await admin.get(`/api/channel/test/${optOut}`)).body.success).toBe(false);
    expect((await row(optOut)).status).toBe(1);
    // A 500 is not a reason to disable either.
    const flaky = await f.addChannel({ name: 'flaky', key: goodKey(), auto_ban: 1, test_model: 'fail-500' });
    expect((await admin.get(`/api/channel/test/${flaky}`)).body.success).toBe(false);
    expect((await row(flaky)).status).toBe(1);
  });

  it('disables a channel slower than ChannelDisableThreshold', async () => {
    await setOption('AutomaticDisableChannelEnabled', 'true');
    await setOption('ChannelDisableThreshold', '0.05');
    const id = await f.addChannel({ name: 'slow', key: goodKey(), auto_ban: 1 });
    const answer = (await admin.get(`/api/channel/test/${id}?model=slow-300`)).body;
    expect(answer.success).toBe(false);
    expect(answer.message).toContain('超过阈值 0.05 秒');
    expect(answer.time).toBeGreaterThanOrEqual(0.3);
    const stored = await row(id);
    expect(stored.status).toBe(3);
    expect(JSON.parse(stored.other_info ?? '{}').status_reason).toContain('超过阈值');

    // Under the threshold it passes.
    await setOption('ChannelDisableThreshold', '5');
    const fast = await f.addChannel({ name: 'not-slow', key: goodKey(), auto_ban: 1 });
    expect((await admin.get(`/api/channel/test/${fast}?model=slow-300`)).body.success).toBe(true);
    expect((await row(fast)).status).toBe(1);
  });

  it('re-enables an auto-disabled channel that passes, only with AutomaticEnableChannelEnabled', async () => {
    const id = await f.addChannel({ name: 'revive', key: goodKey(), status: 3 });
    expectOk(await admin.get(`/api/channel/test/${id}`));
    expect((await row(id)).status).toBe(3);

    await setOption('AutomaticEnableChannelEnabled', 'true');
    expectOk(await admin.get(`/api/channel/test/${id}`));
    const stored = await row(id);
    expect(stored.status).toBe(1);
    expect(JSON.parse(stored.other_info ?? '{}').status_reason).toBe('测试通过');
    await vi.waitFor(() => expect(f.tg.gateway.ctx.channels.get(id)?.status).toBe(1));

    // A channel disabled by hand stays disabled even when its test passes.
    const manual = await f.addChannel({ name: 'manual-pass', key: goodKey(), status: 2 });
    expectOk(await admin.get(`/api/channel/test/${manual}`));
    expect((await row(manual)).status).toBe(2);
  });

  it('answers for unknown channels and types without a provider', async () => {
    expectFail(await admin.get('/api/channel/test/999999'), '渠道不存在');
    const suno = await f.addChannel({ name: 'suno', type: 36, key: goodKey(), base_url: f.upstream.url });
    const answer = (await admin.get(`/api/channel/test/${suno}`)).body;
    expect(answer).toMatchObject({ success: false, message: '该渠道类型暂不支持测试' });
    expect((await row(suno)).test_time).toBe(0);
  });

  it('tests all enabled and auto-disabled channels in the background, never the manually disabled', async () => {
    await setOption('AutomaticEnableChannelEnabled', 'true');
    const keys = { enabled: goodKey(), auto: goodKey(), manual: goodKey(), slow: goodKey() };
    const enabled = await f.addChannel({ name: 'all-enabled', key: keys.enabled });
    const auto = await f.addChannel({ name: 'all-auto', key: keys.auto, status: 3 });
    const manual = await f.addChannel({ name: 'all-manual', key: keys.manual, status: 2 });
    // Keeps the run going long enough to see the second call refused.
    const slow = await f.addChannel({ name: 'all-slow', key: keys.slow, test_model: 'slow-600' });
    await f.tg.gateway.ctx.db.updateTable('channels').set({ test_time: 0 }).execute();

    const started = expectOk(await admin.get('/api/channel/test'));
    expect(started.message).toBe('已开始测试所有渠道');
    expectFail(await admin.get('/api/channel/test'), '测试已在运行中');
    const run = testAllRunning(f.tg.gateway.ctx);
    expect(run).toBeDefined();
    await run;

    const rows = await f.tg.gateway.ctx.db.selectFrom('channels').select(['id', 'status', 'test_time', 'type']).execute();
    for (const r of rows) {
      if (r.status === 2 || r.type === 36) expect(r.test_time, `channel ${r.id}`).toBe(0);
      else expect(r.test_time, `channel ${r.id}`).toBeGreaterThan(0);
    }
    expect(requestsWith(keys.manual)).toHaveLength(0);
    expect(requestsWith(keys.enabled)).toHaveLength(1);
    expect(requestsWith(keys.slow)[0]!.body.model).toBe('slow-600');
    expect((await row(auto)).status).toBe(1);
    expect((await row(manual)).status).toBe(2);
    expect((await row(enabled)).response_time).toBeGreaterThan(0);
    expect((await row(slow)).response_time).toBeGreaterThanOrEqual(600);

    // Finished: a new run may start.
    expectOk(await admin.get('/api/channel/test'));
    await testAllRunning(f.tg.gateway.ctx);
  });

  it('runs test-all periodically on the master node only, and stops', async () => {
    const ctx = f.tg.gateway.ctx;
    const id = await f.addChannel({ name: 'periodic', key: goodKey() });
    await ctx.db.updateTable('channels').set({ test_time: 0 }).execute();

    const stopSlave = startChannelScheduler({ ...ctx, config: { ...ctx.config, isMaster: false } }, 0.001);
    await sleep(300);
    await stopSlave();
    expect((await row(id)).test_time).toBe(0);

    const stop = startChannelScheduler(ctx, 0.001);
    for (let i = 0; i < 100 && (await row(id)).test_time === 0; i++) await sleep(50);
    await stop();
    expect((await row(id)).test_time).toBeGreaterThan(0);
    expect(testAllRunning(ctx)).toBeUndefined();

    // Stopped: no further runs.
    await ctx.db.updateTable('channels').set({ test_time: 0 }).execute();
    await sleep(300);
    expect((await row(id)).test_time).toBe(0);
  });

  it('updates a balance from the OpenAI billing endpoints', async () => {
    const key = goodKey();
    const id = await f.addChannel({ name: 'billing', key });
    const before = Math.floor(Date.now() / 1000);
    const expected = OPENAI_BILLING.hard_limit_usd - OPENAI_BILLING.total_usage / 100;
    for (const path of [`/api/channel/update_balance/${id}/`, `/api/channel/update_balance/${id}`]) {
      const answer = expectOk(await admin.get(path));
      expect(answer.balance).toBeCloseTo(expected, 6);
      expect(answer.data.balance).toBe(answer.balance);
      expect(answer.data.balance_updated_time).toBeGreaterThanOrEqual(before);
    }
    const sent = requestsWith(key).slice(0, 2);
    expect(sent[0]).toMatchObject({ method: 'GET', url: '/v1/dashboard/billing/subscription' });
    expect(sent[1]!.url).toMatch(/^\/v1\/dashboard\/billing\/usage\?start_date=\d{4}-\d{2}-\d{2}&end_date=\d{4}-\d{2}-\d{2}$/);
    const stored = await row(id);
    expect(stored.balance).toBeCloseTo(expected, 6);
    expect(stored.balance_updated_time).toBeGreaterThanOrEqual(before);
  });

  it('refuses balances for types without billing endpoints and reports upstream failures', async () => {
    const claude = await f.addChannel({ name: 'cohere-balance', type: 34, key: goodKey(), base_url: f.upstream.url });
    expectFail(await admin.get(`/api/channel/update_balance/${claude}/`), '该渠道类型暂不支持查询余额');
    const azure = await f.addChannel({
      name: 'azure-balance',
      type: 3,
      key: goodKey(),
      base_url: f.upstream.url,
      other: '2024-10-21',
    });
    expectFail(await admin.get(`/api/channel/update_balance/${azure}/`), '该渠道类型暂不支持查询余额');
    const bad = await f.addChannel({ name: 'bad-balance', key: 'sk-upstream-invalid' });
    expectFail(await admin.get(`/api/channel/update_balance/${bad}/`), 'Incorrect API key provided');
    expect((await row(bad)).balance_updated_time).toBe(0);
    expectFail(await admin.get('/api/channel/update_balance/999999/'), '渠道不存在');
  });

  it('updates the balance of every enabled channel', async () => {
    const key = goodKey();
    const enabled = await f.addChannel({ name: 'sweep-on', key });
    const off = await f.addChannel({ name: 'sweep-off', key: goodKey(), status: 2 });
    const answer = expectOk(await admin.get('/api/channel/update_balance'));
    expect(answer.data.updated).toBeGreaterThanOrEqual(1);
    expect((await row(enabled)).balance_updated_time).toBeGreaterThan(0);
    expect((await row(off)).balance_updated_time).toBe(0);
  });

  it('fetches a stored channel’s model list', async () => {
    const key = goodKey();
    const id = await f.addChannel({ name: 'fetch', key });
    const answer = expectOk(await admin.get(`/api/channel/fetch_models/${id}`));
    expect(answer.data).toEqual(OPENAI_FIXTURES.models.data.map((m: { id: string }) => m.id));
    expect(requestsWith(key)).toMatchObject([{ method: 'GET', url: '/v1/models' }]);
    expectFail(await admin.get('/api/channel/fetch_models/999999'), '渠道不存在');
    const bad = await f.addChannel({ name: 'fetch-bad', key: 'sk-upstream-invalid' });
    expectFail(await admin.get(`/api/channel/fetch_models/${bad}`), 'Incorrect API key provided');
  });

  it('fetches models at a typed-in address only through the SSRF guard', async () => {
    delete process.env.ALLOW_PRIVATE_UPSTREAMS;
    const key = goodKey();
    expectFail(await admin.post('/api/channel/fetch_models', { base_url: f.upstream.url, type: 1 }), '请填写密钥');
    expectFail(await admin.post('/api/channel/fetch_models', { base_url: f.upstream.url, type: 1, key: '  ' }), '请填写密钥');

    // The stand-in listens on loopback: refused unless private upstreams are allowed, saying how to allow them.
    const local = await admin.post('/api/channel/fetch_models', { base_url: f.upstream.url, type: 1, key });
    expectFail(local, '不允许访问内网');
    expect(local.body).toMatchObject({ code: 'channel.models_private_upstream', params: { host: new URL(f.upstream.url).host } });
    expect(local.body.message).toContain('ALLOW_PRIVATE_UPSTREAMS=true');
    expect(local.body.message.match(/获取模型列表失败/g)).toHaveLength(1);
    expectFail(
      await admin.post('/api/channel/fetch_models', { base_url: 'http://169.254.169.254', type: 1, key }),
      '不允许访问内网',
    );
    // Ollama needs no key (its model list is not OpenAI-style, so that is what is refused).
    expectFail(
      await admin.post('/api/channel/fetch_models', { base_url: f.upstream.url, type: 4 }),
      '该渠道类型暂不支持获取模型列表',
    );
    expect(requestsWith(key)).toHaveLength(0);

    process.env.ALLOW_PRIVATE_UPSTREAMS = 'true';
    try {
      const answer = expectOk(
        await admin.post('/api/channel/fetch_models', { base_url: f.upstream.url, type: 1, key: `\n${key}\nsk-2` }),
      );
      expect(answer.data).toEqual(OPENAI_FIXTURES.models.data.map((m: { id: string }) => m.id));
      expect(requestsWith(key)).toMatchObject([{ method: 'GET', url: '/v1/models' }]);
      // Cloud metadata stays out of reach even then.
      expectFail(
        await admin.post('/api/channel/fetch_models', { base_url: 'http://169.254.169.254', type: 1, key }),
        '不允许访问内网',
      );
      expectFail(
        await admin.post('/api/channel/fetch_models', { base_url: f.upstream.url, type: 34, key }),
        '该渠道类型暂不支持获取模型列表',
      );
      expectFail(
        await admin.post('/api/channel/fetch_models', { base_url: 'file:///etc/passwd', type: 8, key }),
        '只允许 http 或 https',
      );
    } finally {
      process.env.ALLOW_PRIVATE_UPSTREAMS = 'true';
    }
  });

  it('refuses every health call to normal users and anonymous callers', async () => {
    const key = goodKey();
    const id = await f.addChannel({ name: 'guarded', key });
    const calls: Array<[string, string, unknown?]> = [
      ['GET', `/api/channel/test/${id}`],
      ['GET', '/api/channel/test'],
      ['GET', `/api/channel/update_balance/${id}/`],
      ['GET', `/api/channel/update_balance/${id}`],
      ['GET', '/api/channel/update_balance'],
      ['GET', `/api/channel/fetch_models/${id}`],
      ['POST', '/api/channel/fetch_models', { base_url: f.upstream.url, type: 1, key }],
    ];
    const anonymous = f.tg.client();
    for (const [method, path, body] of calls) {
      const res = await f.user.request(method, path, body);
      expect(res.body, `${method} ${path}`).toMatchObject({ success: false, message: DENIED });
      expect((await anonymous.request(method, path, body)).status).toBe(401);
    }
    expect(testAllRunning(f.tg.gateway.ctx)).toBeUndefined();
    expect(requestsWith(key)).toHaveLength(0);
    expect((await row(id)).test_time).toBe(0);
  });
});
