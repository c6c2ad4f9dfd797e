import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterAvailable, startCluster, type Cluster } from '../helpers/cluster.js';
import { availableDatabases, createTestDatabase, type DbName } from '../helpers/databases.js';
import { ApiClient, must, ROOT } from '../helpers/gateway.js';
import { spawnGateway, type GatewayProcess } from '../helpers/process.js';
import { startOpenAIStandIn, type OpenAIStandIn } from '../helpers/upstreams/openai.js';
import { readMoney, streamChat } from '../helpers/money.js';
import { openDb, type DbHandle } from '../../server/db/index.js';

// The money path across real gateway processes: a process killed with SIGKILL mid-stream leaves
// reservations that the next process resolves on start (charged what was delivered, logged), and
// two processes sharing PostgreSQL and Redis bill every served call in full on one small balance.

const kinds = await availableDatabases();

interface Setup {
  userId: number;
  tokenId: number;
  key: string;
}

/** Root, a channel to the stand-in, prices, and a user with `quota` and an unlimited token. */
async function setUp(url: string, upstream: OpenAIStandIn, quota: number, options: Record<string, string>): Promise<Setup> {
  const root = new ApiClient(url);
  must(await root.post('/api/setup', { ...ROOT, confirmPassword: ROOT.password }), 'setup');
  must(await root.login(ROOT.username, ROOT.password), 'login');
  const channel = { type: 1, name: 'stand-in', key: 'sk-upstream-good', base_url: upstream.url, group: 'default' };
  must(await root.post('/api/channel/', { ...channel, models: 'drip-20,drip-150' }), 'channel');
  const ratios = JSON.parse(must(await root.get('/api/option/'), 'options').find((o: any) => o.key === 'ModelRatio').value);
  must(
    await root.put('/api/option/', { key: 'ModelRatio', value: JSON.stringify({ ...ratios, 'drip-20': 10, 'drip-150': 1 }) }),
    'ratio',
  );
  for (const [key, value] of Object.entries(options)) must(await root.put('/api/option/', { key, value }), key);
  const created = must(await root.post('/api/user/', { username: 'payer', password: 'payer-pass-1', display_name: 'P' }), 'user');
  must(await root.put('/api/user/', { id: created.id, username: 'payer', display_name: 'P', quota, group: 'default' }), 'quota');
  const user = new ApiClient(url);
  must(await user.login('payer', 'payer-pass-1'), 'user login');
  const token = must(
    await user.post('/api/token/', { name: 'main', remain_quota: 0, unlimited_quota: true, expired_time: -1 }),
    'token',
  );
  const key = must(await user.post(`/api/token/${token.id}/key`), 'key').key as string;
  return { userId: created.id, tokenId: token.id, key };
}

async function waitFor(what: string, check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const crashKinds: DbName[] = (['sqlite', 'postgres'] as const).filter((k) => kinds.includes(k));
for (const kind of crashKinds) {
  describe(`a gateway process killed mid-stream [${kind}]`, () => {
    let upstream: OpenAIStandIn;
    let database: Awaited<ReturnType<typeof createTestDatabase>>;
    let db: DbHandle;
    const processes: GatewayProcess[] = [];

    beforeAll(async () => {
      upstream = await startOpenAIStandIn({ record: false });
      database = await createTestDatabase(kind);
    });
    afterAll(async () => {
      await Promise.all(processes.map((p) => p.stop()));
      await db?.close();
      await database?.drop();
      await upstream?.close();
    });

    it('leaves every reservation resolved after a restart, the logs adding up to what the balance lost', async () => {
      const env: Record<string, string> =
        database.target.kind === 'sqlite' ? { SQL_DSN: '', SQLITE_PATH: database.target.path } : { SQL_DSN: database.dsn };
      const first = await spawnGateway({ ...env, SESSION_SECRET: randomBytes(24).toString('hex') });
      processes.push(first);
      const START = 200_000;
      const s = await setUp(first.url, upstream, START, {});
      // drip-150 streams 150 chunks over 3 s: killed after ~1.5 s, each has passed a checkpoint.
      const calls = Array.from({ length: 20 }, () => streamChat(first.url, s.key, 'drip-150'));
      db = await openDb(database.target);
      await waitFor('checkpoints', async () => {
        const rows = await db.db.selectFrom('reservations').select('delivered').execute();
        return rows.length === 20 && rows.every((r) => Number(r.delivered) > 0);
      });
      first.child.kill('SIGKILL');
      const results = await Promise.all(calls);
      expect(results.every((r) => r.status === 200 && !r.complete)).toBe(true);
      expect((await db.db.selectFrom('reservations').select('id').execute()).length).toBe(20);

      const second = await spawnGateway({ ...env, SESSION_SECRET: randomBytes(24).toString('hex') });
      processes.push(second);
      await waitFor('the reservations resolved', async () => (await readMoney(db.db, s.userId, s.tokenId)).reservations === 0);
      const m = await readMoney(db.db, s.userId, s.tokenId);
      const recovered = [...m.consume, ...(await db.db.selectFrom('logs').selectAll().where('type', '=', 5).execute())];
      expect(recovered.filter((l) => JSON.parse(l.other ?? '{}').interrupted === 'process_lost')).toHaveLength(20);
      expect(m.consume.length).toBeGreaterThan(0);
      expect(m.consume.every((l) => l.quota > 0 && l.completion_tokens > 0)).toBe(true);
      expect(m.logged).toBe(START - m.user.quota);
      expect(m.user.used_quota).toBe(m.logged);
      expect(m.token!.used_quota).toBe(m.logged);
      // What was charged is what had been delivered, well short of the full answers.
      expect(m.logged).toBeLessThan(20 * (10 + 300));
    });
  });
}

const clusterReady = await clusterAvailable('postgres');
describe.skipIf(!clusterReady)('two gateway processes on PostgreSQL and Redis, one small balance', () => {
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

  it('bills every served stream in full on both, and refuses once the balance is spent', async () => {
    // Each call costs (10 + 40) × 10 = 500 and reserves (2 + 20) × 10 = 220.
    const START = 4000;
    const s = await setUp(a.url, upstream, START, { PreConsumedQuota: '20' });
    const calls = await Promise.all(Array.from({ length: 40 }, (_, i) => streamChat(i % 2 ? a.url : b.url, s.key, 'drip-20')));
    const served = calls.filter((c) => c.status === 200);
    expect(served.length).toBeGreaterThan(0);
    expect(served.every((c) => c.complete)).toBe(true);
    expect(calls.filter((c) => c.status !== 200).every((c) => c.code === 'insufficient_quota')).toBe(true);
    await waitFor('the logs', async () => (await readMoney(db.db, s.userId, s.tokenId)).consume.length === served.length);
    const m = await readMoney(db.db, s.userId, s.tokenId);
    expect(m.consume.every((l) => l.quota === 500)).toBe(true);
    expect(m.logged).toBe(START - m.user.quota);
    expect(m.user.quota).toBeGreaterThanOrEqual(-served.length * (500 - 220));
    expect(m.reservations).toBe(0);
    if (m.user.quota <= 0) {
      expect(await streamChat(a.url, s.key, 'drip-20')).toMatchObject({ status: 429, code: 'insufficient_quota' });
      expect(await streamChat(b.url, s.key, 'drip-20')).toMatchObject({ status: 429, code: 'insufficient_quota' });
    }
  });
});
