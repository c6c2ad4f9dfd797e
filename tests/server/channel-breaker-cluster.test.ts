/**
 * Cool-downs are shared: two gateway processes on one database and one Redis. A channel failing
 * half its calls trips on the process that serves them; the other process skips it at once without
 * having seen a failure, and when the stand-in recovers the channel returns on both by itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterAvailable, startCluster, type Cluster, type GatewayNode, type ClusterDb } from '../helpers/cluster.js';
import { ApiClient, must, ROOT } from '../helpers/gateway.js';
import { startFlakyStandIn, type FlakyStandIn } from '../helpers/upstreams/flaky.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MODEL = 'cluster-breaker';

for (const kind of ['postgres'] satisfies ClusterDb[]) {
  const ready = await clusterAvailable(kind);
  describe.skipIf(!ready)(`channel health across two processes on ${kind} + Redis`, () => {
    let cluster: Cluster<GatewayNode>;
    let nodes: GatewayNode[];
    let flaky: FlakyStandIn;
    let steady: FlakyStandIn;
    let root: ApiClient;
    let key: string;
    let sick: number;

    /** Root's session on process `i`. */
    const adminOn = (i: number) => {
      const c = new ApiClient(nodes[i]!.url);
      c.cookie = root.cookie;
      c.userId = root.userId;
      return c;
    };
    const healthOn = async (i: number) => must(await adminOn(i).get(`/api/channel/${sick}`), 'channel').health.state as string;

    async function chat(i: number): Promise<number> {
      const res = await fetch(`${nodes[i]!.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }),
      });
      await res.text();
      return res.status;
    }
    const sickCalls = () => flaky.calls.filter((c) => c.key === 'sk-sick').length;

    beforeAll(async () => {
      flaky = await startFlakyStandIn({ failEvery: 2 });
      steady = await startFlakyStandIn();
      cluster = await startCluster(kind, ['master', 'slave'], { inProcess: true });
      nodes = cluster.nodes;
      root = new ApiClient(nodes[0]!.url);
      must(await root.post('/api/setup', { ...ROOT, confirmPassword: ROOT.password }), 'setup');
      must(await root.login(ROOT.username, ROOT.password), 'login');
      const ratios = JSON.parse(
        (must(await root.get('/api/option/'), 'options') as Array<{ key: string; value: string }>).find(
          (o) => o.key === 'ModelRatio',
        )!.value,
      );
      const options: Record<string, string> = {
        ModelRatio: JSON.stringify({ ...ratios, [MODEL]: 1 }),
        RetryTimes: '1',
        'channel_health.cooldown_seconds': '4',
      };
      for (const [k, value] of Object.entries(options)) must(await root.put('/api/option/', { key: k, value }), k);
      const channel = { type: 1, group: 'default', models: MODEL };
      // Off while the processes warm up: calls it served then would sit in one process's window and
      // dilute the 50 % failure rate the test measures (which process got which failure is chance).
      sick = must(
        await root.post('/api/channel/', { ...channel, name: 'sick', key: 'sk-sick', base_url: flaky.url, status: 2 }),
        'sick',
      ).id;
      must(await root.post('/api/channel/', { ...channel, name: 'sibling', key: 'sk-sibling', base_url: steady.url }), 'sib');
      const user = must(await root.post('/api/user/', { username: 'clu', password: 'clu-pass-1', display_name: 'clu' }), 'user');
      must(
        await root.put('/api/user/', { id: user.id, username: 'clu', display_name: 'clu', quota: 100_000_000, group: 'default' }),
        'q',
      );
      const client = new ApiClient(nodes[0]!.url);
      must(await client.login('clu', 'clu-pass-1'), 'login');
      const token = must(
        await client.post('/api/token/', { name: 't', remain_quota: 0, unlimited_quota: true, expired_time: -1 }),
        't',
      );
      key = must(await client.post(`/api/token/${token.id}/key`), 'key').key;
      // Both processes see the channels, the options and the token.
      for (let i = 0; i < 50; i++) {
        const served = await Promise.all([chat(0), chat(1)]);
        if (served.every((s) => s === 200) && (await healthOn(1)) === 'disabled') break;
        await sleep(100);
      }
      must(await root.put('/api/channel/', { id: sick, status: 1 }), 'enable sick');
      for (let i = 0; i < 50 && (await healthOn(1)) !== 'healthy'; i++) await sleep(50);
      expect(flaky.calls).toEqual([]);
    }, 90_000);

    afterAll(async () => {
      await cluster?.stop();
      await flaky?.close();
      await steady?.close();
    });

    it('trips on one process, is skipped by the other at once, and returns on both when it recovers', async () => {
      // Only process 0 serves until the channel trips.
      let tripped = false;
      for (let i = 0; i < 60 && !tripped; i++) {
        expect(await chat(0)).toBe(200);
        tripped = (await healthOn(0)) === 'cooling';
      }
      expect(tripped).toBe(true);
      // Told through Redis: process 1 never saw a failure of it, yet shows it cooling and skips it.
      for (let i = 0; i < 20 && (await healthOn(1)) !== 'cooling'; i++) await sleep(50);
      expect(await healthOn(1)).toBe('cooling');
      const before = sickCalls();
      for (let i = 0; i < 10; i++) expect(await chat(1)).toBe(200);
      expect(sickCalls()).toBe(before);

      // Recovered: after the cool-down, calls through process 1 take it back, and process 0 hears of it.
      flaky.state.failEvery = 0;
      await sleep(4200);
      for (let i = 0; i < 20 && sickCalls() === before; i++) expect(await chat(1)).toBe(200);
      expect(sickCalls()).toBeGreaterThan(before);
      for (let i = 0; i < 20 && (await healthOn(0)) !== 'healthy'; i++) await sleep(50);
      expect(await healthOn(0)).toBe('healthy');
      expect(await healthOn(1)).toBe('healthy');
      const back = sickCalls();
      for (let i = 0; i < 20; i++) expect(await chat(0)).toBe(200);
      expect(sickCalls()).toBeGreaterThan(back);
    }, 60_000);
  });
}
