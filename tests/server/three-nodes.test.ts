/**
 * Three gateway processes on one database and one Redis, as operators run them behind a proxy: a
 * change made through one process (a token disabled or deleted, a user banned, a channel disabled,
 * a price set) is honoured by the other two within a second — told through the Redis bus, not found
 * by the periodic resync (SYNC_FREQUENCY is left at a minute); the model rate limit and a balance
 * are shared; and when the process holding the jobs lease is killed, another takes the lease, its
 * calls' reservations are resolved and the background jobs go on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterAvailable, startCluster, type Cluster, type ClusterDb } from '../helpers/cluster.js';
import { ApiClient, must, ROOT } from '../helpers/gateway.js';
import { readMoney, streamChat } from '../helpers/money.js';
import type { GatewayProcess } from '../helpers/process.js';
import { startMidjourneyStandIn, type MidjourneyStandIn } from '../helpers/upstreams/midjourney.js';
import { startOpenAIStandIn, type OpenAIStandIn } from '../helpers/upstreams/openai.js';
import { openDb, type DbHandle } from '../../server/db/index.js';

/** What "within 1 s" means here: the change is told by message, so it is far below this. */
const HONOURED_MS = 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One chat call; its status and error code. */
async function chat(url: string, key: string, model = 'gpt-4o-mini'): Promise<{ status: number; code: string | null }> {
  const res = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Hello!' }] }),
  });
  const body = (await res.json().catch(() => null)) as { error?: { code?: string } } | null;
  return { status: res.status, code: res.status === 200 ? null : (body?.error?.code ?? null) };
}

/**
 * Milliseconds until `honoured` holds on each process, polled every 20 ms from now; fails the test
 * when one takes longer than five seconds (it would then only have caught up by the resync).
 */
async function timeUntil(nodes: GatewayProcess[], honoured: (url: string) => Promise<boolean>): Promise<number[]> {
  const start = performance.now();
  return Promise.all(
    nodes.map(async ({ url }) => {
      while (!(await honoured(url))) {
        if (performance.now() - start > 5000) throw new Error(`${url} did not honour the change in 5 s`);
        await sleep(20);
      }
      return Math.round(performance.now() - start);
    }),
  );
}

async function waitFor(what: string, check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

const readyOf = async (url: string) => (await (await fetch(url + '/readyz')).json()) as { leader: boolean };

for (const kind of ['postgres', 'mysql'] satisfies ClusterDb[]) {
  const ready = await clusterAvailable(kind);
  describe.skipIf(!ready)(`three gateway processes on ${kind} + Redis`, () => {
    let cluster: Cluster;
    let nodes: GatewayProcess[];
    let db: DbHandle;
    let upstream: OpenAIStandIn;
    let mj: MidjourneyStandIn;
    let root: ApiClient;
    let seq = 0;
    let soloId: number;
    // Node A takes the changes; B and C must honour them.
    const others = () => nodes.slice(1);

    /** Sets options through node A and waits until every process holds them. */
    async function setOptions(values: Record<string, string>): Promise<void> {
      for (const [key, value] of Object.entries(values)) must(await root.put('/api/option/', { key, value }), key);
      await waitFor('the options everywhere', async () => {
        for (const n of nodes) {
          const copy = new ApiClient(n.url);
          copy.cookie = root.cookie;
          copy.userId = root.userId;
          const seen = must(await copy.get('/api/option/'), 'options') as Array<{ key: string; value: string }>;
          if (!Object.entries(values).every(([k, v]) => seen.find((o) => o.key === k)?.value === v)) return false;
        }
        return true;
      });
    }

    async function option(key: string): Promise<string> {
      const list = must(await root.get('/api/option/'), 'options') as Array<{ key: string; value: string }>;
      return list.find((o) => o.key === key)!.value;
    }

    /** A new user holding `quota`, logged in on node A, with an unlimited token. */
    async function newCaller(quota = 100_000_000) {
      const username = `n${kind[0]}${++seq}`;
      const { id } = must(await root.post('/api/user/', { username, password: 'node-pass-1', display_name: username }), 'user');
      must(await root.put('/api/user/', { id, username, display_name: username, quota, group: 'default' }), 'quota');
      const client = new ApiClient(nodes[0]!.url);
      must(await client.login(username, 'node-pass-1'), 'login');
      const token = must(
        await client.post('/api/token/', { name: 'main', remain_quota: 0, unlimited_quota: true, expired_time: -1 }),
        'token',
      );
      const key = must(await client.post(`/api/token/${token.id}/key`), 'key').key as string;
      return { id: id as number, client, tokenId: token.id as number, key };
    }

    /** Every process answers `key` for `model` (their caches hold the token, user and channels). */
    async function servedEverywhere(key: string, model = 'gpt-4o-mini'): Promise<void> {
      for (const n of nodes) expect(await chat(n.url, key, model)).toEqual({ status: 200, code: null });
    }

    /** B and C refuse with `code` within the second; returns their times. */
    async function refusedElsewhere(key: string, code: string, model = 'gpt-4o-mini'): Promise<number[]> {
      const times = await timeUntil(others(), async (url) => (await chat(url, key, model)).code === code);
      expect(Math.max(...times), `honoured after ${times.join(', ')} ms`).toBeLessThanOrEqual(HONOURED_MS);
      return times;
    }

    beforeAll(async () => {
      upstream = await startOpenAIStandIn({ record: false });
      mj = await startMidjourneyStandIn();
      // Two processes may lead, the third never; a dead leader's lease lapses after a second.
      cluster = await startCluster(kind, ['master', 'master', 'slave'], { env: { NODE_TIMEOUT: '2' } });
      nodes = cluster.nodes;
      db = await openDb(cluster.database.target);
      root = new ApiClient(nodes[0]!.url);
      must(await root.post('/api/setup', { ...ROOT, confirmPassword: ROOT.password }), 'setup');
      must(await root.login(ROOT.username, ROOT.password), 'login');
      const channel = { type: 1, key: 'sk-upstream-good', base_url: upstream.url, group: 'default' };
      must(
        await root.post('/api/channel/', { ...channel, name: 'main', models: 'gpt-4o-mini,drip-20,drip-150,unpriced-x' }),
        'ch',
      );
      soloId = must(await root.post('/api/channel/', { ...channel, name: 'solo', models: 'solo-model' }), 'solo').id;
      must(
        await root.post('/api/channel/', { type: 2, name: 'mj', key: mj.secret, base_url: mj.url, models: 'mj_imagine' }),
        'mj',
      );
      await setOptions({
        ModelRatio: JSON.stringify({ ...JSON.parse(await option('ModelRatio')), 'drip-20': 10, 'drip-150': 1, 'solo-model': 1 }),
        ModelPrice: JSON.stringify({ ...JSON.parse(await option('ModelPrice')), mj_imagine: 0.1 }),
      });
    }, 90_000);

    afterAll(async () => {
      await db?.close();
      await cluster?.stop();
      await upstream?.close();
      await mj?.close();
    });

    it('a token disabled on one process is refused by the others within a second', async () => {
      const u = await newCaller();
      await servedEverywhere(u.key);
      must(await u.client.put('/api/token/?status_only=true', { id: u.tokenId, status: 2 }), 'disable');
      await refusedElsewhere(u.key, 'token_unavailable');
    });

    it('a token deleted on one process is refused by the others within a second', async () => {
      const u = await newCaller();
      await servedEverywhere(u.key);
      must(await u.client.delete(`/api/token/${u.tokenId}`), 'delete');
      await refusedElsewhere(u.key, 'invalid_api_key');
    });

    it('a user banned on one process is refused by the others within a second', async () => {
      const u = await newCaller();
      await servedEverywhere(u.key);
      must(await root.post('/api/user/manage', { id: u.id, action: 'disable' }), 'ban');
      await refusedElsewhere(u.key, 'user_banned');
    });

    it('a channel disabled on one process is no longer chosen by the others within a second', async () => {
      const u = await newCaller();
      await servedEverywhere(u.key, 'solo-model');
      must(await root.put('/api/channel/', { id: soloId, status: 2 }), 'disable channel');
      await refusedElsewhere(u.key, 'model_not_found', 'solo-model');
    });

    it('a price set on one process is charged by the others within a second', async () => {
      const u = await newCaller();
      for (const n of nodes)
        expect(await chat(n.url, u.key, 'unpriced-x')).toMatchObject({ status: 404, code: 'model_price_error' });
      const ratios = JSON.parse(await option('ModelRatio')) as Record<string, number>;
      must(await root.put('/api/option/', { key: 'ModelRatio', value: JSON.stringify({ ...ratios, 'unpriced-x': 2 }) }), 'price');
      const times = await timeUntil(others(), async (url) => (await chat(url, u.key, 'unpriced-x')).status === 200);
      expect(Math.max(...times), `honoured after ${times.join(', ')} ms`).toBeLessThanOrEqual(HONOURED_MS);
    });

    it('counts the model rate limit once across the three processes', async () => {
      const u = await newCaller();
      await setOptions({
        ModelRequestRateLimitEnabled: 'true',
        ModelRequestRateLimitCount: '6',
        ModelRequestRateLimitDurationMinutes: '1',
      });
      const answers = await Promise.all(Array.from({ length: 18 }, (_, i) => chat(nodes[i % 3]!.url, u.key)));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(6);
      expect(answers.filter((a) => a.status === 429)).toHaveLength(12);
      await setOptions({ ModelRequestRateLimitEnabled: 'false' });
    });

    it('bills every call served on any process in full against one small balance', async () => {
      // Each call costs (10 + 40) × 10 = 500 and reserves (2 + 20) × 10 = 220.
      await setOptions({ PreConsumedQuota: '20' });
      const START = 4000;
      const u = await newCaller(START);
      const calls = await Promise.all(Array.from({ length: 42 }, (_, i) => streamChat(nodes[i % 3]!.url, u.key, 'drip-20')));
      const served = calls.filter((c) => c.status === 200);
      expect(served.length).toBeGreaterThan(0);
      expect(served.every((c) => c.complete)).toBe(true);
      expect(calls.filter((c) => c.status !== 200).every((c) => c.code === 'insufficient_quota')).toBe(true);
      await waitFor('the logs', async () => (await readMoney(db.db, u.id, u.tokenId)).consume.length === served.length);
      const m = await readMoney(db.db, u.id, u.tokenId);
      expect(m.consume.every((l) => l.quota === 500)).toBe(true);
      expect(m.logged).toBe(START - m.user.quota);
      // Debt only from what calls in flight used beyond their reservations.
      expect(m.user.quota).toBeGreaterThanOrEqual(-served.length * (500 - 220));
      expect(m.reservations).toBe(0);
      if (m.user.quota <= 0) for (const n of nodes) expect(await chat(n.url, u.key, 'drip-20')).toMatchObject({ status: 429 });
      await setOptions({ PreConsumedQuota: '500' });
    });

    it('hands the jobs to another process when the leader is killed', { timeout: 90_000 }, async () => {
      const leaders = async (list: GatewayProcess[]) => Promise.all(list.map(async (n) => (await readyOf(n.url)).leader));
      const first = await leaders(nodes);
      expect(first.filter(Boolean)).toHaveLength(1);
      expect(first[2]).toBe(false);
      const leader = nodes[first.indexOf(true)]!;
      const survivors = nodes.filter((n) => n !== leader);

      // Calls in flight on the leader hold reservations (a balance under 10 USD reserves).
      const START = 1_000_000;
      const u = await newCaller(START);
      const streams = Array.from({ length: 6 }, () => streamChat(leader.url, u.key, 'drip-150'));
      await waitFor('checkpoints', async () => {
        const rows = await db.db.selectFrom('reservations').select('delivered').execute();
        return rows.length === 6 && rows.every((r) => Number(r.delivered) > 0);
      });
      const exited = new Promise((r) => leader.child.once('exit', r));
      leader.child.kill('SIGKILL');
      await exited;
      await Promise.all(streams);

      // Another master takes the lease within seconds; the slave never does.
      await waitFor('a new leader', async () => (await leaders(survivors)).includes(true), 5000);
      expect(await leaders(survivors)).toEqual([true, false]);
      // The survivors resolve the dead process's reservations: charged what was delivered, logged.
      await waitFor(
        'the reservations resolved',
        async () => (await readMoney(db.db, u.id, u.tokenId)).reservations === 0,
        10_000,
      );
      const m = await readMoney(db.db, u.id, u.tokenId);
      expect(m.logged).toBeGreaterThan(0);
      expect(m.logged).toBe(START - m.user.quota);
      // And it runs the jobs: a drawing submitted after the kill is polled to its end (rounds every 15 s).
      const submit = await fetch(`${survivors[1]!.url}/mj/submit/imagine`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'mj-api-secret': u.key },
        body: JSON.stringify({ prompt: 'after the leader died' }),
      });
      const submitted = (await submit.json()) as { code: number; result: string };
      expect(submitted.code).toBe(1);
      const taskId = submitted.result;
      mj.finish(taskId);
      await waitFor(
        'the drawing polled',
        async () => {
          const res = await fetch(`${survivors[1]!.url}/mj/task/${taskId}/fetch`, { headers: { 'mj-api-secret': u.key } });
          return ((await res.json()) as { status: string }).status === 'SUCCESS';
        },
        40_000,
      );
    });
  });
}
