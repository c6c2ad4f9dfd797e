/**
 * A failed video on two gateways sharing one database and one Redis: both read the video while its
 * vendor reports the failure, both ask the vendor at once, and exactly one of them refunds it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterAvailable, startCluster, type Cluster, type GatewayNode } from '../helpers/cluster.js';
import { ApiClient, must, ROOT } from '../helpers/gateway.js';
import { readMoney } from '../helpers/money.js';
import { startSoraStandIn, type VideoStandIn } from '../helpers/upstreams/video.js';
import { openDb, type DbHandle } from '../../server/db/index.js';

const ready = await clusterAvailable('postgres');

describe.skipIf(!ready)('a failed video refunded once across two gateways (postgres + Redis)', () => {
  let cluster: Cluster<GatewayNode>;
  let sora: VideoStandIn;
  let handle: DbHandle;
  let key: string;
  let userId: number;
  let tokenId: number;

  beforeAll(async () => {
    sora = await startSoraStandIn();
    cluster = await startCluster('postgres', ['master', 'slave'], { inProcess: true });
    handle = await openDb(cluster.database.target);
    const root = new ApiClient(cluster.nodes[0]!.url);
    must(await root.post('/api/setup', { ...ROOT, confirmPassword: ROOT.password }), 'setup');
    must(await root.login(ROOT.username, ROOT.password), 'login');
    must(await root.put('/api/option/', { key: 'ModelSecondPrice', value: JSON.stringify({ 'sora-2': 0.01 }) }), 'price');
    must(
      await root.post('/api/channel/', {
        type: 55,
        name: 'sora',
        key: sora.key,
        base_url: sora.url,
        models: 'sora-2',
        group: 'default',
      }),
      'channel',
    );
    const user = must(await root.post('/api/user/', { username: 'vid', password: 'vid-pass-1', display_name: 'vid' }), 'user');
    userId = user.id;
    must(
      await root.put('/api/user/', { id: userId, username: 'vid', display_name: 'vid', quota: 10_000_000, group: 'default' }),
      'q',
    );
    const client = new ApiClient(cluster.nodes[0]!.url);
    must(await client.login('vid', 'vid-pass-1'), 'login');
    const token = must(
      await client.post('/api/token/', { name: 't', remain_quota: 1_000_000, unlimited_quota: false, expired_time: -1 }),
      't',
    );
    tokenId = token.id;
    key = must(await client.post(`/api/token/${token.id}/key`), 'key').key;
  });
  afterAll(async () => {
    await handle?.close();
    await cluster?.stop();
    await sora?.close();
  });

  it('charges on submit, and of two gateways reading the failure at once only one refunds', async () => {
    const before = await readMoney(handle.db, userId, tokenId);
    const get = (node: number, path: string, init: RequestInit = {}) =>
      fetch(`${cluster.nodes[node]!.url}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, ...init.headers } });
    const submitted = await get(0, '/v1/videos', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sora-2', prompt: 'fail-now please', seconds: 4 }),
    });
    expect(submitted.status).toBe(200);
    const { id } = (await submitted.json()) as { id: string };
    const charged = await readMoney(handle.db, userId, tokenId);
    expect(charged.user.quota).toBe(before.user.quota - 20_000);
    expect(charged.token!.remain_quota).toBe(before.token!.remain_quota - 20_000);

    sora.queryDelayMs = 200;
    const reads = await Promise.all([get(0, `/v1/videos/${id}`), get(1, `/v1/videos/${id}`)]);
    sora.queryDelayMs = 0;
    const queries = sora.requests.filter((r) => r.method === 'GET' && r.url.startsWith('/v1/videos/'));
    expect(queries.length).toBeGreaterThanOrEqual(2);
    for (const r of reads) expect(await r.json()).toMatchObject({ id, status: 'failed' });

    const after = await readMoney(handle.db, userId, tokenId);
    expect(after.user.quota).toBe(before.user.quota);
    expect(after.token!.remain_quota).toBe(before.token!.remain_quota);
    expect(after.refunds.filter((l) => JSON.parse(l.other!).task_id === id)).toHaveLength(1);
    expect(after.logged).toBe(before.logged);
    // Read again on either gateway: nothing moves.
    await get(1, `/v1/videos/${id}`);
    expect((await readMoney(handle.db, userId, tokenId)).user.quota).toBe(before.user.quota);
  });
});
