/**
 * Subscriptions across two gateway processes sharing PostgreSQL and Redis: a plan bound on one is
 * drawn on by both (the binding is announced on the bus), every served call is charged once in
 * full to the subscription, its logs add up to what the subscription lost, the wallet is left
 * alone, and both refuse once the period is spent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterAvailable, startCluster, type Cluster } from '../helpers/cluster.js';
import { ApiClient, must, ROOT } from '../helpers/gateway.js';
import type { GatewayProcess } from '../helpers/process.js';
import { startOpenAIStandIn, type OpenAIStandIn } from '../helpers/upstreams/openai.js';
import { readMoney, streamChat } from '../helpers/money.js';
import { openDb, type DbHandle } from '../../server/db/index.js';

const clusterReady = await clusterAvailable('postgres');
describe.skipIf(!clusterReady)('subscriptions on two gateway processes (PostgreSQL and Redis)', () => {
  let upstream: OpenAIStandIn;
  let cluster: Cluster;
  let a: GatewayProcess;
  let b: GatewayProcess;
  let db: DbHandle;

  beforeAll(async () => {
    upstream = await startOpenAIStandIn({ record: false });
    cluster = await startCluster('postgres', ['master', 'slave']);
    [a, b] = cluster.nodes as [GatewayProcess, GatewayProcess];
    db = await openDb(cluster.database.target);
  }, 60_000);
  afterAll(async () => {
    await db?.close();
    await cluster?.stop();
    await upstream?.close();
  });

  it('charges each call once to the subscription on both processes and refuses once it is spent', async () => {
    const root = new ApiClient(a.url);
    must(await root.post('/api/setup', { ...ROOT, confirmPassword: ROOT.password }), 'setup');
    must(await root.login(ROOT.username, ROOT.password), 'login');
    const channel = { type: 1, name: 'stand-in', key: 'sk-upstream-good', base_url: upstream.url, group: 'default' };
    must(await root.post('/api/channel/', { ...channel, models: 'drip-20' }), 'channel');
    const ratios = JSON.parse(must(await root.get('/api/option/'), 'options').find((o: any) => o.key === 'ModelRatio').value);
    must(await root.put('/api/option/', { key: 'ModelRatio', value: JSON.stringify({ ...ratios, 'drip-20': 10 }) }), 'ratio');
    must(await root.put('/api/option/', { key: 'PreConsumedQuota', value: '20' }), 'pre');
    const created = must(
      await root.post('/api/user/', { username: 'subber', password: 'subber-pass-1', display_name: 'S' }),
      'user',
    );
    const user = new ApiClient(b.url);
    must(await user.login('subber', 'subber-pass-1'), 'user login');
    const token = must(
      await user.post('/api/token/', { name: 'main', remain_quota: 0, unlimited_quota: true, expired_time: -1 }),
      't',
    );
    const key = must(await user.post(`/api/token/${token.id}/key`), 'key').key as string;
    must(await user.put('/api/subscription/self/preference', { billing_preference: 'subscription_only' }), 'preference');
    // Before the plan: nothing to pay with.
    expect(await streamChat(b.url, key, 'drip-20')).toMatchObject({ status: 429, code: 'insufficient_quota' });

    const plan = must(
      await root.post('/api/subscription/admin/plans', {
        plan: { title: 'Pro', price_amount: 1, duration_unit: 'day', duration_value: 1, total_amount: 4000 },
      }),
      'plan',
    );
    const bound = must(await root.post('/api/subscription/admin/bind', { user_id: created.id, plan_id: plan.id }), 'bind');
    // Each call costs 500 and reserves 220.
    const calls = await Promise.all(Array.from({ length: 40 }, (_, i) => streamChat(i % 2 ? a.url : b.url, key, 'drip-20')));
    const served = calls.filter((c) => c.status === 200);
    expect(served.length).toBeGreaterThanOrEqual(8);
    expect(served.every((c) => c.complete)).toBe(true);
    expect(calls.filter((c) => c.status !== 200).every((c) => c.status === 429)).toBe(true);
    const until = Date.now() + 30_000;
    while ((await readMoney(db.db, created.id, token.id)).consume.length < served.length && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 200));
    }
    const m = await readMoney(db.db, created.id, token.id);
    expect(m.consume.map((l) => l.quota)).toEqual(served.map(() => 500));
    expect(m.consume.every((l) => JSON.parse(l.other ?? '{}').subscription_id === bound.id)).toBe(true);
    const sub = await db.db.selectFrom('user_subscriptions').selectAll().where('id', '=', bound.id).executeTakeFirstOrThrow();
    expect(Number(sub.used_total)).toBe(m.logged);
    expect(Number(sub.quota_left)).toBe(4000 - m.logged);
    expect(Number(sub.quota_left)).toBeGreaterThanOrEqual(-served.length * (500 - 220));
    expect(m.user.quota).toBe(0);
    expect(m.reservations).toBe(0);
    if (Number(sub.quota_left) <= 0) {
      expect((await streamChat(a.url, key, 'drip-20')).status).toBe(429);
      expect((await streamChat(b.url, key, 'drip-20')).status).toBe(429);
    }
  });
});
