import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, isCI, redisAvailable, type TestDatabase } from '../helpers/databases.js';
import { ApiClient, ROOT } from '../helpers/gateway.js';
import { spawnGateway, type GatewayProcess } from '../helpers/process.js';

// Two gateway processes on one PostgreSQL database and one Redis, as operators run them.
const ready = (await redisAvailable()) && (await pgReachable());

async function pgReachable(): Promise<boolean> {
  const { availableDatabases } = await import('../helpers/databases.js');
  const kinds = await availableDatabases();
  if (!kinds.includes('postgres')) {
    if (isCI) throw new Error('postgres is unreachable under CI=true');
    return false;
  }
  return true;
}

describe.skipIf(!ready)('two gateway processes sharing PostgreSQL and Redis', () => {
  let db: TestDatabase;
  let master: GatewayProcess;
  let slave: GatewayProcess;

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    const env = {
      SQL_DSN: db.dsn,
      REDIS_CONN_STRING: 'redis://127.0.0.1:6379',
      REDIS_KEY_PREFIX: `gwtest:${randomBytes(4).toString('hex')}:`,
      CRITICAL_RATE_LIMIT: '4',
      SESSION_SECRET: randomBytes(24).toString('hex'),
    };
    master = await spawnGateway(env);
    slave = await spawnGateway({ ...env, NODE_TYPE: 'slave' });
  }, 60_000);

  afterAll(async () => {
    await Promise.all([master?.stop(), slave?.stop()]);
    await db?.drop();
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
