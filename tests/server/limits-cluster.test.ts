/**
 * Channel concurrency and RPM limits and token TPM limits across two gateway processes sharing
 * PostgreSQL and Redis, as operators run them: the stand-in never sees more calls at once than a
 * channel allows, whichever process takes them; calls overflow to the sibling channel and are
 * refused in the client's format when none is left; and the slots of a process killed outright
 * come back by themselves.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { LEASE_TTL_MS } from '../../server/ratelimit/limit-store.js';
import { clusterAvailable, startCluster, type Cluster } from '../helpers/cluster.js';
import { REDIS_URL } from '../helpers/databases.js';
import { ApiClient, must, ROOT } from '../helpers/gateway.js';
import type { GatewayProcess } from '../helpers/process.js';
import { startGauge, type Gauge } from '../helpers/upstreams/gauge.js';
import { startOpenAIStandIn, type OpenAIStandIn } from '../helpers/upstreams/openai.js';

const MODELS = ['gpt-4o-mini', 'slow-600', 'slow-4000'];

function chat(baseUrl: string, key: string, model: string): Promise<{ status: number; body: any }> {
  return fetch(`${baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
  }).then(async (res) => ({ status: res.status, body: await res.json().catch(() => null) }));
}

const clusterReady = await clusterAvailable('postgres');

describe.skipIf(!clusterReady)('limits across two processes (PostgreSQL + Redis)', () => {
  let cluster: Cluster;
  let upstream: OpenAIStandIn;
  let gauge: Gauge;
  let redis: Redis;
  let master: GatewayProcess;
  let slave: GatewayProcess;
  let root: ApiClient;
  let user: ApiClient;
  let key: string;

  async function channel(lane: string, fields: Record<string, unknown>): Promise<number> {
    const created = must<{ id: number }>(
      await root.post('/api/channel/', {
        type: 1,
        name: lane,
        key: 'sk-upstream-good',
        base_url: `${gauge.url}/${lane}`,
        models: MODELS.join(','),
        group: 'default',
        ...fields,
      }),
      'channel',
    );
    return created.id;
  }

  async function disable(ids: number[]): Promise<void> {
    for (const id of ids) must(await root.put('/api/channel/', { id, status: 2 }), 'disable');
  }

  /** Waits until both processes serve `model` through the channel on `lane` (their caches caught up). */
  async function bothServe(lane: string, model = 'gpt-4o-mini'): Promise<void> {
    for (const node of [master, slave]) {
      for (let i = 0; ; i++) {
        const before = gauge.lane(lane).served;
        const res = await chat(node.url, key, model);
        if (res.status === 200 && gauge.lane(lane).served > before) break;
        if (i > 100) throw new Error(`${node.url} does not serve through ${lane}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }

  const leases = (id: number) => redis.zcard(`${cluster.env.REDIS_KEY_PREFIX}lim:ch:cc:${id}`);

  /**
   * The leases on each channel once they settle: a call gives its slot back in its `finally`, after
   * the answer is sent and billed, so the last answers can reach the client a moment before that.
   */
  async function settledLeases(ids: number[]): Promise<number[]> {
    let held = await Promise.all(ids.map(leases));
    for (let i = 0; i < 40 && held.some((n) => n > 0); i++) {
      await new Promise((r) => setTimeout(r, 50));
      held = await Promise.all(ids.map(leases));
    }
    return held;
  }

  beforeAll(async () => {
    upstream = await startOpenAIStandIn({ record: false });
    gauge = await startGauge(upstream.url);
    redis = new Redis(REDIS_URL);
    cluster = await startCluster('postgres', ['master', 'slave']);
    [master, slave] = cluster.nodes as [GatewayProcess, GatewayProcess];
    root = new ApiClient(master.url);
    must(await root.post('/api/setup', { ...ROOT, confirmPassword: ROOT.password }), 'setup');
    must(await root.login(ROOT.username, ROOT.password), 'login');
    const ratios = JSON.parse(
      must<Array<{ key: string; value: string }>>(await root.get('/api/option/'), 'options').find((o) => o.key === 'ModelRatio')!
        .value,
    );
    for (const m of MODELS) ratios[m] ??= 1;
    must(await root.put('/api/option/', { key: 'ModelRatio', value: JSON.stringify(ratios) }), 'ratios');
    must(await root.post('/api/user/', { username: 'carol', password: 'carol-pass-1', display_name: 'Carol' }), 'user');
    const id = must<{ items: Array<{ id: number }> }>(await root.get('/api/user/search?keyword=carol'), 'find').items[0]!.id;
    must(
      await root.put('/api/user/', { id, username: 'carol', display_name: 'Carol', quota: 500_000_000, group: 'default' }),
      'quota',
    );
    user = new ApiClient(master.url);
    must(await user.login('carol', 'carol-pass-1'), 'login');
    const token = must<{ id: number }>(
      await user.post('/api/token/', { name: 'main', remain_quota: 0, unlimited_quota: true, expired_time: -1 }),
      'token',
    );
    key = must<{ key: string }>(await user.post(`/api/token/${token.id}/key`), 'reveal').key;
  }, 180_000);

  afterAll(async () => {
    await cluster?.stop();
    redis?.disconnect();
    await gauge?.close();
    await upstream?.close();
  });

  it('holds max_concurrency across both processes, overflows to the sibling and refuses the rest', async () => {
    const a = await channel('a', { max_concurrency: 2 });
    const b = await channel('b', { max_concurrency: 2 });
    // Disabled even when an expectation fails, so the tests after this one route only to their own.
    onTestFinished(() => disable([a, b]));
    await bothServe('a');
    await bothServe('b');
    const lanes = [gauge.lane('a'), gauge.lane('b')];
    const servedBefore = lanes.map((l) => l.served);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => chat(i % 2 === 0 ? master.url : slave.url, key, 'slow-600')),
    );
    expect(lanes.map((l) => l.peak)).toEqual([2, 2]);
    const served = answers.filter((r) => r.status === 200).length;
    const refused = answers.filter((r) => r.status === 429);
    expect(served + refused.length).toBe(20);
    expect(lanes.map((l, i) => l.served - servedBefore[i]!).every((n) => n > 0)).toBe(true);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]!.body).toEqual({
      error: { message: '当前分组上游负载已饱和，请稍后再试', type: 'rate_limit_error', param: null, code: 'channel_saturated' },
    });
    // Every slot given back on both processes.
    expect(await settledLeases([a, b])).toEqual([0, 0]);
  });

  it('counts a channel’s rpm_limit once across both processes', async () => {
    const r = await channel('r', { rpm_limit: 1000 });
    onTestFinished(() => disable([r]));
    await bothServe('r');
    must(await root.put('/api/channel/', { id: r, name: 'r', rpm_limit: 4 }), 'rpm');
    // The two probes above count in the minute too.
    for (let i = 0; i < 100; i++) {
      const seen = await chat(slave.url, key, 'gpt-4o-mini');
      if (seen.status === 429) break;
      await new Promise((res) => setTimeout(res, 50));
    }
    const served = gauge.lane('r').served;
    expect(served).toBeGreaterThanOrEqual(4);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await chat(i % 2 === 0 ? master.url : slave.url, key, 'gpt-4o-mini')).status);
    expect(answers).toEqual([429, 429, 429, 429]);
    expect(gauge.lane('r').served).toBe(served);
  });

  it('counts a token’s tpm_limit once across both processes', async () => {
    const t = await channel('t', {});
    onTestFinished(() => disable([t]));
    await bothServe('t');
    const token = must<{ id: number }>(
      await user.post('/api/token/', { name: 'tpm', remain_quota: 0, unlimited_quota: true, expired_time: -1, tpm_limit: 40 }),
      'token',
    );
    const limited = must<{ key: string }>(await user.post(`/api/token/${token.id}/key`), 'reveal').key;
    // 29 tokens an answer: the first two are served (0, then 29 < 40), the third is refused.
    for (let i = 0; i < 100 && (await chat(slave.url, limited, 'gpt-4o-mini')).status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await chat(master.url, limited, 'gpt-4o-mini')).status).toBe(200);
    const refused = await chat(slave.url, limited, 'gpt-4o-mini');
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('token_tpm_limit_exceeded');
    expect((await chat(master.url, limited, 'gpt-4o-mini')).status).toBe(429);
  });

  it('gives back the slots of a process killed outright once their leases lapse', async () => {
    const k = await channel('k', { max_concurrency: 2 });
    await bothServe('k');
    const held = [chat(slave.url, key, 'slow-4000'), chat(slave.url, key, 'slow-4000')];
    for (let i = 0; i < 50 && (await leases(k)) < 2; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await leases(k)).toBe(2);
    slave.child.kill('SIGKILL');
    await Promise.allSettled(held);
    const killedAt = Date.now();
    expect((await chat(master.url, key, 'gpt-4o-mini')).status).toBe(429);
    let status = 0;
    while (Date.now() - killedAt < LEASE_TTL_MS + 5000) {
      status = (await chat(master.url, key, 'gpt-4o-mini')).status;
      if (status === 200) break;
    }
    expect(status).toBe(200);
    // Not before the leases could lapse (they were renewed at most a third of their life before the kill).
    expect(Date.now() - killedAt).toBeGreaterThan((LEASE_TTL_MS * 2) / 3 - 1500);
  }, 60_000);
});
