/**
 * Request limits of tokens (calls in flight, requests per minute and per day) and of users
 * (requests per day) through the real gateway, on every surface that serves a call (chat formats,
 * task submits, realtime sessions): refused exactly past their counts with 429 and
 * Retry-After in the caller's own error format, a call's place in flight given back however it
 * ends (answered, upstream error, client gone), and counted across two gateways sharing Redis.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerGate } from '../../server/relay/routing/caller-limits.js';
import { MemoryCallerGate } from '../../server/ratelimit/caller-gate.js';
import { clusterAvailable, startCluster, type Cluster, type GatewayNode } from '../helpers/cluster.js';
import { ApiClient, must, ROOT } from '../helpers/gateway.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { startOpenAIStandIn, type OpenAIStandIn } from '../helpers/upstreams/openai.js';
import { startMidjourneyStandIn } from '../helpers/upstreams/midjourney.js';
import { startRealtimeStandIn } from '../helpers/upstreams/realtime.js';
import { open } from '../helpers/realtime-client.js';
import { callRelay } from '../helpers/task-relay.js';

function chat(baseUrl: string, key: string, model = 'gpt-4o-mini', signal?: AbortSignal): Promise<Response> {
  return fetch(`${baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }], stream: model.startsWith('drip-') }),
    signal,
  });
}

async function statuses(baseUrl: string | (() => string), key: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await chat(typeof baseUrl === 'string' ? baseUrl : baseUrl(), key);
    await res.arrayBuffer();
    out.push(res.status);
  }
  return out;
}

/** A new user with quota and one unlimited token carrying `limits`; its key and ids. */
async function newCaller(
  baseUrl: string,
  root: ApiClient,
  username: string,
  limits: Record<string, number>,
): Promise<{ key: string; userId: number; tokenId: number; client: ApiClient }> {
  must(await root.post('/api/user/', { username, password: 'caller-pass-1', display_name: username }), 'create user');
  const userId = must<{ items: Array<{ id: number }> }>(await root.get(`/api/user/search?keyword=${username}`), 'find').items[0]!
    .id;
  must(await root.put('/api/user/', { id: userId, username, display_name: username, quota: 50_000_000 }), 'quota');
  const client = new ApiClient(baseUrl);
  must(await client.login(username, 'caller-pass-1'), 'login');
  const token = must<{ id: number }>(
    await client.post('/api/token/', { name: 'main', remain_quota: 0, unlimited_quota: true, expired_time: -1, ...limits }),
    'token',
  );
  const key = must<{ key: string }>(await client.post(`/api/token/${token.id}/key`), 'reveal').key;
  return { key, userId, tokenId: token.id, client };
}

const until = async (check: () => boolean, ms = 3000): Promise<void> => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
};

/** Minutes are clock minutes: a run of calls should not straddle one's end. */
async function awayFromMinuteEnd(): Promise<void> {
  const s = new Date().getSeconds();
  if (s >= 52) await new Promise((r) => setTimeout(r, (61 - s) * 1000));
}

describe('request limits (one process)', () => {
  let f: RelayFixture;
  let n = 0;
  const caller = (limits: Record<string, number>) => newCaller(f.tg.url, f.root, `lim${++n}`, limits);
  const gate = () => callerGate(f.tg.gateway.ctx) as MemoryCallerGate;

  beforeAll(async () => {
    f = await startRelayFixture('sqlite');
  });
  afterAll(async () => {
    await f?.close();
  });

  it('stores, shows and validates the limits of tokens and users', async () => {
    const c = await caller({ max_concurrency: 2, rpm_limit: 30, rpd_limit: 1000 });
    const view = must<{ max_concurrency: number; rpm_limit: number; rpd_limit: number }>(
      await c.client.get(`/api/token/${c.tokenId}`),
      'token',
    );
    expect(view).toMatchObject({ max_concurrency: 2, rpm_limit: 30, rpd_limit: 1000 });
    const bad = await c.client.put('/api/token/', { id: c.tokenId, rpm_limit: -1 });
    expect(bad.body.success).toBe(false);
    expect(bad.body.code).toBe('token.request_limit_invalid');
    must(await f.root.put('/api/user/', { id: c.userId, rpd_limit: 7 }), 'user rpd');
    expect(must<{ rpd_limit: number }>(await f.root.get(`/api/user/${c.userId}`), 'user').rpd_limit).toBe(7);
    const badUser = await f.root.put('/api/user/', { id: c.userId, rpd_limit: 1.5 });
    expect(badUser.body.code).toBe('user.rpd_limit_invalid');
  });

  it('refuses a token exactly past its requests per minute, with Retry-After in OpenAI shape', async () => {
    const c = await caller({ rpm_limit: 3 });
    await awayFromMinuteEnd();
    const first = await statuses(f.tg.url, c.key, 3);
    const refused = await chat(f.tg.url, c.key);
    expect([...first, refused.status]).toEqual([200, 200, 200, 429]);
    const after = Number(refused.headers.get('retry-after'));
    expect(after).toBeGreaterThanOrEqual(1);
    expect(after).toBeLessThanOrEqual(60);
    const body = (await refused.json()) as { error: { code: string; type: string; message: string } };
    expect(body.error.code).toBe('token_rpm_exceeded');
    expect(body.error.type).toBe('rate_limit_error');
  });

  it("answers a day's limit in the Claude and Gemini shapes", async () => {
    const c = await caller({ rpd_limit: 1 });
    expect(await statuses(f.tg.url, c.key, 1)).toEqual([200]);
    const claude = await fetch(`${f.tg.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': c.key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'gpt-4o-mini', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(claude.status).toBe(429);
    expect(Number(claude.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(claude.headers.get('retry-after'))).toBeLessThanOrEqual(86_400);
    const cb = (await claude.json()) as { type: string; error: { type: string; message: string } };
    expect(cb.type).toBe('error');
    expect(cb.error.type).toBe('rate_limit_error');
    const gemini = await fetch(`${f.tg.url}/v1beta/models/gpt-4o-mini:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': c.key, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
    });
    expect(gemini.status).toBe(429);
    expect(gemini.headers.get('retry-after')).toMatch(/^\d+$/);
    const gb = (await gemini.json()) as { error: { code: number; status: string } };
    expect(gb.error.code).toBe(429);
    expect(gb.error.status).toBe('RESOURCE_EXHAUSTED');
  });

  it("counts a user's requests per day over all of their tokens", async () => {
    const c = await caller({});
    must(await f.root.put('/api/user/', { id: c.userId, rpd_limit: 2 }), 'user rpd');
    const other = must<{ id: number }>(
      await c.client.post('/api/token/', { name: 'second', remain_quota: 0, unlimited_quota: true, expired_time: -1 }),
      'token',
    );
    const key2 = must<{ key: string }>(await c.client.post(`/api/token/${other.id}/key`), 'reveal').key;
    expect([...(await statuses(f.tg.url, c.key, 1)), ...(await statuses(f.tg.url, key2, 2))]).toEqual([200, 200, 429]);
    const refused = await chat(f.tg.url, c.key);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('user_rpd_exceeded');
  });

  it('holds a place in flight until the call ends, whether answered, failed or abandoned', async () => {
    const c = await caller({ max_concurrency: 1 });
    // Answered: the next call is admitted.
    expect(await statuses(f.tg.url, c.key, 2)).toEqual([200, 200]);
    // An upstream error gives the place back too.
    const failed = await chat(f.tg.url, c.key, 'fail-400');
    await failed.arrayBuffer();
    expect(failed.status).toBe(400);
    expect(gate().inFlight(c.tokenId)).toBe(0);

    // A stream in flight holds it; a second call is refused with Retry-After.
    const abort = new AbortController();
    const streaming = await chat(f.tg.url, c.key, 'drip-60', abort.signal);
    expect(streaming.status).toBe(200);
    expect(gate().inFlight(c.tokenId)).toBe(1);
    const refused = await chat(f.tg.url, c.key);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('token_concurrency_exceeded');
    // The client leaves mid-stream: the place comes back once, not twice.
    abort.abort();
    await streaming.body?.cancel().catch(() => undefined);
    await until(() => gate().inFlight(c.tokenId) === 0);
    const both = await Promise.all([chat(f.tg.url, c.key, 'slow-300'), chat(f.tg.url, c.key, 'slow-300')]);
    for (const r of both) await r.arrayBuffer();
    expect(both.map((r) => r.status).sort()).toEqual([200, 429]);
    await until(() => gate().inFlight(c.tokenId) === 0);
  });

  it("counts task submits (Midjourney) against the limits, refused in midjourney-proxy's shape with nothing charged", async () => {
    const mj = await startMidjourneyStandIn();
    try {
      const prices = JSON.parse(f.tg.gateway.ctx.options.raw('ModelPrice'));
      must(
        await f.root.put('/api/option/', { key: 'ModelPrice', value: JSON.stringify({ ...prices, mj_imagine: 0.1 }) }),
        'price',
      );
      await f.addChannel({ type: 2, name: 'mj-limits', key: mj.secret, base_url: mj.url, models: 'mj_imagine' });
      const c = await caller({ rpd_limit: 1 });
      const submit = () => callRelay(f, '/mj/submit/imagine', { prompt: 'a fox' }, { 'mj-api-secret': c.key });
      const first = await submit();
      expect(first.body).toMatchObject({ code: 1 });
      const quota = () =>
        f.tg.gateway.ctx.db.selectFrom('users').select('quota').where('id', '=', c.userId).executeTakeFirstOrThrow();
      const before = await quota();
      const refused = await submit();
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(refused.body).toMatchObject({ type: 'token_rpd_exceeded', result: null });
      await f.flush();
      expect(await quota()).toEqual(before);
      expect(mj.tasks.size).toBe(1);
    } finally {
      await mj.close();
    }
  });

  it("holds a realtime session's place in flight for as long as the session stays open", async () => {
    const upstream = await startRealtimeStandIn();
    try {
      const ratios = JSON.parse(f.tg.gateway.ctx.options.raw('ModelRatio'));
      must(
        await f.root.put('/api/option/', { key: 'ModelRatio', value: JSON.stringify({ ...ratios, 'rt-limits': 1 }) }),
        'ratio',
      );
      await f.addChannel({ name: 'rt-limits', key: 'sk-upstream-good', base_url: upstream.url, models: 'rt-limits' });
      const c = await caller({ max_concurrency: 1 });
      const url = `${f.tg.url.replace('http:', 'ws:')}/v1/realtime?model=rt-limits`;
      const auth = { headers: { authorization: `Bearer ${c.key}` } };
      const first = await open(url, auth);
      expect(first.ok).toBe(true);
      expect(gate().inFlight(c.tokenId)).toBe(1);
      const refused = await open(url, auth);
      expect(refused).toMatchObject({ ok: false, status: 429, body: { error: { code: 'token_concurrency_exceeded' } } });
      if (first.ok) first.client.ws.close();
      await until(() => gate().inFlight(c.tokenId) === 0);
      const again = await open(url, auth);
      expect(again.ok).toBe(true);
      if (again.ok) again.client.ws.close();
      await until(() => gate().inFlight(c.tokenId) === 0);
    } finally {
      await upstream.close();
    }
  });
});

const clusterReady = await clusterAvailable('postgres');

describe.skipIf(!clusterReady)('request limits across two gateways (PostgreSQL + Redis)', () => {
  let cluster: Cluster<GatewayNode>;
  let upstream: OpenAIStandIn;
  let master: GatewayNode;
  let slave: GatewayNode;
  let root: ApiClient;

  /** Waits until the slave knows the token (its caches caught up with the master's writes). */
  async function slaveServes(key: string): Promise<void> {
    for (let i = 0; ; i++) {
      const res = await chat(slave.url, key);
      await res.arrayBuffer();
      if (res.status === 200) return;
      if (i > 100) throw new Error('the slave does not serve');
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  beforeAll(async () => {
    upstream = await startOpenAIStandIn();
    cluster = await startCluster('postgres', ['master', 'slave'], { inProcess: true });
    [master, slave] = cluster.nodes as [GatewayNode, GatewayNode];
    root = new ApiClient(master.url);
    must(await root.post('/api/setup', { ...ROOT, confirmPassword: ROOT.password }), 'setup');
    must(await root.login(ROOT.username, ROOT.password), 'login');
    must(
      await root.post('/api/channel/', {
        type: 1,
        name: 'stand-in',
        key: 'sk-upstream-good',
        base_url: upstream.url,
        models: 'gpt-4o-mini,slow-600',
        group: 'default',
      }),
      'channel',
    );
    const options = (await root.get('/api/option/')).body.data as Array<{ key: string; value: string }>;
    const ratios = { ...JSON.parse(options.find((o) => o.key === 'ModelRatio')!.value), 'slow-600': 1 };
    must(await root.put('/api/option/', { key: 'ModelRatio', value: JSON.stringify(ratios) }), 'ModelRatio');
  }, 90_000);

  afterAll(async () => {
    await cluster?.stop();
    await upstream?.close();
  });

  it('counts requests per minute of one token on both gateways against one limit', async () => {
    const c = await newCaller(master.url, root, 'alice', { rpm_limit: 4 });
    await awayFromMinuteEnd();
    let i = 0;
    const alternate = () => (i++ % 2 === 0 ? master.url : slave.url);
    expect(await statuses(alternate, c.key, 6)).toEqual([200, 200, 200, 200, 429, 429]);
  });

  it('admits one call in flight of a token across both gateways', async () => {
    const c = await newCaller(master.url, root, 'carol', { max_concurrency: 1 });
    await slaveServes(c.key);
    const slow = chat(master.url, c.key, 'slow-600');
    await new Promise((r) => setTimeout(r, 150));
    const refused = await chat(slave.url, c.key);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect((await slow).status).toBe(200);
    const key = `${cluster.env.REDIS_KEY_PREFIX}gate:cc:t:${c.tokenId}`;
    const { Redis } = await import('ioredis');
    const redis = new Redis(cluster.env.REDIS_CONN_STRING!);
    try {
      for (let j = 0; j < 100 && (await redis.zcard(key)) > 0; j++) await new Promise((r) => setTimeout(r, 20));
      expect(await redis.zcard(key)).toBe(0);
    } finally {
      redis.disconnect();
    }
    expect((await chat(slave.url, c.key)).status).toBe(200);
  });
});
