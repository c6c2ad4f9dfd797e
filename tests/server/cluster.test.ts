import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterAvailable, startCluster, type Cluster, type GatewayNode } from '../helpers/cluster.js';
import { ApiClient, ROOT } from '../helpers/gateway.js';
import type { GatewayProcess } from '../helpers/process.js';

// Two gateway processes on one PostgreSQL database and one Redis, as operators run them.
const ready = await clusterAvailable('postgres');

describe.skipIf(!ready)('two gateway processes sharing PostgreSQL and Redis', () => {
  let cluster: Cluster<GatewayNode>;
  let master: GatewayProcess;
  let slave: GatewayProcess;

  beforeAll(async () => {
    cluster = await startCluster('postgres', ['master', 'slave'], { env: { CRITICAL_RATE_LIMIT: '4' }, inProcess: true });
    [master, slave] = cluster.nodes as [GatewayProcess, GatewayProcess];
  }, 60_000);

  afterAll(async () => {
    await cluster?.stop();
  });

  it('shares setup, sessions and option changes between the processes', async () => {
    const a = new ApiClient(master.url);
    const setup = await a.post('/api/setup', { ...ROOT, confirmPassword: ROOT.password });
    expect(setup.body.success).toBe(true);
    expect((await a.login(ROOT.username, ROOT.password)).body.success).toBe(true);

    // The session cookie made by one process is accepted by the other.
    const b = new ApiClient(slave.url);
    b.cookie = a.cookie;
    b.userId = a.userId;
    expect((await b.get('/api/option/')).body.success).toBe(true);

    const name = `Cluster ${randomBytes(3).toString('hex')}`;
    expect((await a.put('/api/option/', { key: 'SystemName', value: name })).body.success).toBe(true);
    let seen = '';
    for (let i = 0; i < 50 && seen !== name; i++) {
      seen = (await b.get('/api/status')).body.data.system_name;
      if (seen !== name) await new Promise((r) => setTimeout(r, 100));
    }
    expect(seen).toBe(name);
  });

  it('counts the critical rate limit across both processes', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const target = i % 2 === 0 ? master.url : slave.url;
      const res = await new ApiClient(target).post('/api/user/login', { username: 'nobody', password: 'whatever1' });
      statuses.push(res.status);
    }
    // The earlier test's login used one of the 4 allowed: 3 more pass, then both processes refuse.
    expect(statuses.filter((s) => s === 429)).toHaveLength(3);
    expect(statuses.slice(-2)).toEqual([429, 429]);
  });
});
