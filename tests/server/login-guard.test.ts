/**
 * Password login against guessing: the answer's timing does not tell whether an account exists
 * (an unknown name costs a hash check like a wrong password), and repeated failures lock the
 * account whatever addresses they come from — on every gateway process — until the window ends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterAvailable, startCluster, type Cluster, type GatewayNode } from '../helpers/cluster.js';
import { ApiClient, ROOT, setupRoot, startTestGateway, type TestGateway } from '../helpers/gateway.js';
import type { GatewayProcess } from '../helpers/process.js';
import { PASSWORD } from '../helpers/users.js';

const LOCKED = { success: false, code: 'account.locked' };
const WRONG = { success: false, code: 'account.wrong_credentials' };

function login(url: string, username: string, password: string, from?: string) {
  const headers: Record<string, string> = from ? { 'x-forwarded-for': from } : {};
  return new ApiClient(url).post('/api/user/login', { username, password }, headers);
}

async function createUser(root: ApiClient, username: string): Promise<void> {
  const res = await root.post('/api/user/', { username, password: PASSWORD });
  expect(res.body.success, res.body.message).toBe(true);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

describe('login timing', () => {
  let tg: TestGateway;
  beforeAll(async () => {
    // At the production cost: timing is what this test is about.
    tg = await startTestGateway('sqlite', { PASSWORD_HASH_COST: '10' });
    await createUser(await setupRoot(tg), 'timed');
  });
  afterAll(() => tg?.close());

  it('takes as long for an unknown name as for a wrong password', async () => {
    const unknown: number[] = [];
    const known: number[] = [];
    const time = async (username: string) => {
      const start = performance.now();
      expect((await login(tg.url, username, 'not-the-password')).body).toMatchObject(WRONG);
      return performance.now() - start;
    };
    await time('warm-up');
    for (let i = 0; i < 9; i++) {
      unknown.push(await time(`ghost${i}`));
      known.push(await time('timed'));
    }
    // A hash check costs tens of milliseconds; a lookup alone a few. Generous bounds both ways.
    const ratio = median(unknown) / median(known);
    expect(ratio, `unknown ${median(unknown).toFixed(1)} ms, known ${median(known).toFixed(1)} ms`).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
  });
});

describe('per-account lockout', () => {
  let tg: TestGateway;
  beforeAll(async () => {
    // Every attempt comes from another address (one trusted proxy): the per-address limit never bites.
    tg = await startTestGateway('sqlite', { TRUST_PROXY: 'true', LOGIN_FAILURE_LIMIT: '3', LOGIN_FAILURE_LIMIT_DURATION: '2' });
    const root = await setupRoot(tg);
    await createUser(root, 'victim');
    await createUser(root, 'bystander');
  });
  afterAll(() => tg?.close());

  it('locks an account after the failures of the window, even to the right password, until the window ends', async () => {
    for (let i = 1; i <= 3; i++) {
      expect((await login(tg.url, 'victim', `guess-${i}`, `198.51.100.${i}`)).body).toMatchObject(WRONG);
    }
    const locked = await login(tg.url, 'victim', PASSWORD, '203.0.113.9');
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject({ ...LOCKED, message: '登录失败次数过多，该账户已被暂时锁定，请1分钟后再试' });
    // Other accounts are untouched.
    expect((await login(tg.url, 'bystander', PASSWORD, '198.51.100.1')).body.success).toBe(true);
    expect((await login(tg.url, ROOT.username, ROOT.password, '198.51.100.2')).body.success).toBe(true);

    await new Promise((r) => setTimeout(r, 2_200));
    expect((await login(tg.url, 'victim', PASSWORD, '203.0.113.10')).body.success).toBe(true);
  });

  it('locks an unknown name the same way, so the lock does not tell which names exist', async () => {
    for (let i = 1; i <= 3; i++) {
      expect((await login(tg.url, 'nosuchuser', `guess-${i}`, `192.0.2.${i}`)).body).toMatchObject(WRONG);
    }
    const locked = await login(tg.url, 'NoSuchUser', 'guess-4', '192.0.2.99');
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject(LOCKED);
  });
});

const clusterReady = await clusterAvailable('postgres');

describe.skipIf(!clusterReady)('per-account lockout across two processes (PostgreSQL + Redis)', () => {
  let cluster: Cluster<GatewayNode>;
  let a: GatewayProcess;
  let b: GatewayProcess;

  beforeAll(async () => {
    cluster = await startCluster('postgres', ['master', 'slave'], { env: { LOGIN_FAILURE_LIMIT: '4' }, inProcess: true });
    [a, b] = cluster.nodes as [GatewayProcess, GatewayProcess];
    const root = new ApiClient(a.url);
    expect((await root.post('/api/setup', { ...ROOT, confirmPassword: ROOT.password })).body.success).toBe(true);
    expect((await root.login(ROOT.username, ROOT.password)).body.success).toBe(true);
    await createUser(root, 'shared');
  }, 60_000);

  afterAll(async () => {
    await cluster?.stop();
  });

  it('counts failures on both processes and locks the account on both', async () => {
    for (let i = 0; i < 4; i++) {
      expect((await login(i % 2 ? b.url : a.url, 'shared', `guess-${i}`)).body).toMatchObject(WRONG);
    }
    for (const url of [a.url, b.url]) {
      const res = await login(url, 'shared', PASSWORD);
      expect(res.status).toBe(429);
      expect(res.body).toMatchObject({ ...LOCKED, message: '登录失败次数过多，该账户已被暂时锁定，请15分钟后再试' });
    }
  });
});
