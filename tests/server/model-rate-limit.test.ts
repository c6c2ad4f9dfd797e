/**
 * The model request rate limit (ModelRequestRateLimit*) through the real gateway: per user, total
 * and successful requests per window, per-group overrides, the client's error shape — and counted
 * across two gateway processes sharing PostgreSQL and Redis.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { modelLimitsFor } from '../../server/ratelimit/model-limit.js';
import { clusterAvailable, startCluster, type Cluster, type GatewayNode } from '../helpers/cluster.js';
import { ApiClient, must, ROOT } from '../helpers/gateway.js';
import type { GatewayProcess } from '../helpers/process.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { startOpenAIStandIn, type OpenAIStandIn } from '../helpers/upstreams/openai.js';
import { startSunoStandIn, type SunoStandIn } from '../helpers/upstreams/suno.js';

const LIMIT_DEFAULTS: Record<string, string> = {
  ModelRequestRateLimitEnabled: 'false',
  ModelRequestRateLimitCount: '0',
  ModelRequestRateLimitSuccessCount: '1000',
  ModelRequestRateLimitDurationMinutes: '1',
  ModelRequestRateLimitGroup: '{}',
};

/** Creates a user with quota and an unlimited token through the console API; returns its sk- key. */
async function newCaller(baseUrl: string, root: ApiClient, username: string, group = 'default'): Promise<string> {
  must(await root.post('/api/user/', { username, password: 'caller-pass-1', display_name: username }), 'create user');
  const id = must<{ items: Array<{ id: number }> }>(await root.get(`/api/user/search?keyword=${username}`), 'find').items[0]!.id;
  must(await root.put('/api/user/', { id, username, display_name: username, quota: 50_000_000, group }), 'quota');
  const user = new ApiClient(baseUrl);
  must(await user.login(username, 'caller-pass-1'), 'login');
  const token = must<{ id: number }>(
    await user.post('/api/token/', { name: 'main', remain_quota: 0, unlimited_quota: true, expired_time: -1 }),
    'token',
  );
  return must<{ key: string }>(await user.post(`/api/token/${token.id}/key`), 'reveal').key;
}

function chat(baseUrl: string, key: string, model = 'gpt-4o-mini'): Promise<Response> {
  return fetch(`${baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
  });
}

async function statuses(baseUrl: string, key: string, n: number, model?: string): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await chat(baseUrl, key, model);
    await res.arrayBuffer();
    out.push(res.status);
  }
  return out;
}

describe('model request rate limit (one process)', () => {
  let f: RelayFixture;
  let users = 0;
  const caller = (group?: string) => newCaller(f.tg.url, f.root, `rl${++users}`, group);
  const setOption = async (key: string, value: string) => must(await f.root.put('/api/option/', { key, value }), key);

  let suno: SunoStandIn;

  beforeAll(async () => {
    f = await startRelayFixture('sqlite');
    await f.addChannel({ name: 'vip', group: 'vip' });
    suno = await startSunoStandIn();
    await f.addChannel({ type: 36, name: 'suno', key: suno.key, base_url: suno.url, models: 'suno_music,suno_lyrics' });
  });
  afterAll(async () => {
    await f?.close();
    await suno?.close();
  });
  afterEach(async () => {
    for (const [key, value] of Object.entries(LIMIT_DEFAULTS)) await setOption(key, value);
  });

  it('limits nothing while off, whatever the counts say', async () => {
    await setOption('ModelRequestRateLimitCount', '2');
    await setOption('ModelRequestRateLimitSuccessCount', '1');
    expect(await statuses(f.tg.url, await caller(), 4)).toEqual([200, 200, 200, 200]);
  });

  it('caps requests per user and window, refused ones included, with 429 in OpenAI shape', async () => {
    await setOption('ModelRequestRateLimitEnabled', 'true');
    await setOption('ModelRequestRateLimitCount', '3');
    const key = await caller();
    // Failed requests count as requests too.
    expect(await statuses(f.tg.url, key, 1, 'fail-400')).toEqual([400]);
    expect(await statuses(f.tg.url, key, 2)).toEqual([200, 200]);
    const refused = await chat(f.tg.url, key);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      error: {
        message: '请求过于频繁：每 1 分钟最多 3 次请求，请稍后再试',
        type: 'new_api_error',
        param: null,
        code: 'rate_limit_exceeded',
      },
    });
    // Per user: another caller is unaffected.
    expect(await statuses(f.tg.url, await caller(), 3)).toEqual([200, 200, 200]);
    // Turned off, the limited caller gets through again.
    await setOption('ModelRequestRateLimitEnabled', 'false');
    expect(await statuses(f.tg.url, key, 1)).toEqual([200]);
  });

  it('caps successful requests, counting only answers that succeeded', async () => {
    await setOption('ModelRequestRateLimitEnabled', 'true');
    await setOption('ModelRequestRateLimitSuccessCount', '2');
    const key = await caller();
    expect(await statuses(f.tg.url, key, 2, 'fail-400')).toEqual([400, 400]);
    expect(await statuses(f.tg.url, key, 3)).toEqual([200, 200, 429]);
    const refused = await chat(f.tg.url, key);
    expect(refused.status).toBe(429);
    expect((await refused.json()).error.message).toBe('请求过于频繁：每 1 分钟最多 2 次成功请求，请稍后再试');
  });

  it('counts task submissions with the relayed calls, refusing them in the platform’s shape', async () => {
    await setOption('ModelRequestRateLimitEnabled', 'true');
    await setOption('ModelRequestRateLimitCount', '2');
    const key = await caller();
    const lyrics = () =>
      fetch(`${f.tg.url}/suno/submit/lyrics`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'a song about the sea' }),
      });
    expect(await statuses(f.tg.url, key, 1)).toEqual([200]);
    expect((await lyrics()).status).toBe(200);
    const refused = await lyrics();
    expect(refused.status).toBe(429);
    expect((await refused.json()).message).toBe('请求过于频繁：每 1 分钟最多 2 次请求，请稍后再试');
    expect(await statuses(f.tg.url, key, 1)).toEqual([429]);
  });

  it('applies the per-group pair instead of the global counts', async () => {
    await setOption('ModelRequestRateLimitEnabled', 'true');
    await setOption('ModelRequestRateLimitCount', '5');
    await setOption('ModelRequestRateLimitGroup', JSON.stringify({ vip: [1, 1000] }));
    expect(await statuses(f.tg.url, await caller('vip'), 2)).toEqual([200, 429]);
    expect(await statuses(f.tg.url, await caller('default'), 5)).toEqual([200, 200, 200, 200, 200]);
    // A pair of 0 total lifts the total limit for the group, the success limit still applies.
    await setOption('ModelRequestRateLimitGroup', JSON.stringify({ vip: [0, 2] }));
    expect(await statuses(f.tg.url, await caller('vip'), 3)).toEqual([200, 200, 429]);
  });

  it("answers Claude-format clients in Claude's error shape", async () => {
    await setOption('ModelRequestRateLimitEnabled', 'true');
    await setOption('ModelRequestRateLimitCount', '1');
    const key = await caller();
    const send = () =>
      fetch(`${f.tg.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
      });
    expect((await send()).status).toBe(200);
    const refused = await send();
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: '请求过于频繁：每 1 分钟最多 1 次请求，请稍后再试' },
    });
  });

  it('reads the limits from the options, ignoring malformed group pairs', async () => {
    const ctx = f.tg.gateway.ctx;
    expect(modelLimitsFor(ctx, 'default')).toBeNull();
    await setOption('ModelRequestRateLimitEnabled', 'true');
    expect(modelLimitsFor(ctx, 'default')).toEqual({ total: 0, success: 1000, windowSeconds: 60 });
    await setOption('ModelRequestRateLimitDurationMinutes', '5');
    // Saving refuses malformed pairs now; one stored before that is still read past.
    await ctx.options.set('ModelRequestRateLimitGroup', JSON.stringify({ vip: [-1, 2], svip: 'x', default: [4, 0] }));
    expect(modelLimitsFor(ctx, 'vip')).toEqual({ total: 0, success: 1000, windowSeconds: 300 });
    expect(modelLimitsFor(ctx, 'svip')).toEqual({ total: 0, success: 1000, windowSeconds: 300 });
    expect(modelLimitsFor(ctx, 'default')).toEqual({ total: 4, success: 0, windowSeconds: 300 });
    await setOption('ModelRequestRateLimitDurationMinutes', '0');
    expect(modelLimitsFor(ctx, 'default')).toBeNull();
  });
});

// Two gateway processes on one PostgreSQL database and one Redis, as operators run them.
const clusterReady = await clusterAvailable('postgres');

describe.skipIf(!clusterReady)('model request rate limit across two processes (PostgreSQL + Redis)', () => {
  let cluster: Cluster<GatewayNode>;
  let upstream: OpenAIStandIn;
  let master: GatewayProcess;
  let slave: GatewayProcess;
  let root: ApiClient;
  let slaveRoot: ApiClient;

  /** Sets options on the master and waits until the slave holds them too. */
  async function setOptions(values: Record<string, string>): Promise<void> {
    for (const [key, value] of Object.entries(values)) must(await root.put('/api/option/', { key, value }), key);
    for (let i = 0; i < 100; i++) {
      const seen = must<Array<{ key: string; value: string }>>(await slaveRoot.get('/api/option/'), 'slave options');
      if (Object.entries(values).every(([k, v]) => seen.find((o) => o.key === k)?.value === v)) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the slave did not pick up the options');
  }

  /** Polls the slave until it relays for `key` (caches of channels and tokens caught up). */
  async function slaveServes(key: string): Promise<void> {
    for (let i = 0; i < 100; i++) {
      const res = await chat(slave.url, key);
      await res.arrayBuffer();
      if (res.status === 200) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the slave does not relay');
  }

  async function alternate(key: string, n: number): Promise<number[]> {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push(...(await statuses(i % 2 === 0 ? master.url : slave.url, key, 1)));
    return out;
  }

  beforeAll(async () => {
    upstream = await startOpenAIStandIn();
    cluster = await startCluster('postgres', ['master', 'slave'], { inProcess: true });
    [master, slave] = cluster.nodes as [GatewayProcess, GatewayProcess];
    root = new ApiClient(master.url);
    must(await root.post('/api/setup', { ...ROOT, confirmPassword: ROOT.password }), 'setup');
    must(await root.login(ROOT.username, ROOT.password), 'login');
    slaveRoot = new ApiClient(slave.url);
    slaveRoot.cookie = root.cookie;
    slaveRoot.userId = root.userId;
    must(
      await root.post('/api/channel/', {
        type: 1,
        name: 'stand-in',
        key: 'sk-upstream-good',
        base_url: upstream.url,
        models: 'gpt-4o-mini',
        group: 'default',
      }),
      'channel',
    );
  }, 90_000);

  afterAll(async () => {
    await cluster?.stop();
    await upstream?.close();
  });

  it('counts requests of one user on both processes against one limit', async () => {
    const key = await newCaller(master.url, root, 'alice');
    await slaveServes(key);
    await setOptions({
      ModelRequestRateLimitEnabled: 'true',
      ModelRequestRateLimitCount: '4',
      ModelRequestRateLimitSuccessCount: '1000',
    });
    const bob = await newCaller(master.url, root, 'bob');
    expect(await alternate(bob, 6)).toEqual([200, 200, 200, 200, 429, 429]);
  });

  it('counts successful requests on both processes against one limit', async () => {
    await setOptions({ ModelRequestRateLimitCount: '0', ModelRequestRateLimitSuccessCount: '3' });
    const carol = await newCaller(master.url, root, 'carol');
    expect(await alternate(carol, 5)).toEqual([200, 200, 200, 429, 429]);
  });
});
