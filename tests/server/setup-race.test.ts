/**
 * The setup wizard completed by several callers at once — many on one process, or on two processes
 * sharing PostgreSQL + Redis — creates exactly one root user: the database decides who was first,
 * and every other caller is told setup is done.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterAvailable, startCluster, type Cluster, type GatewayNode } from '../helpers/cluster.js';
import { forEachDatabase } from '../helpers/databases.js';
import { ApiClient, startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { openDb, type DbHandle } from '../../server/db/index.js';

const PASSWORD = 'race-pass-123';

/** Fires one setup per name at once (round-robin over `urls`) and returns the answers by name. */
async function raceSetups(urls: string[], names: string[]) {
  return Promise.all(
    names.map(async (username, i) => {
      const res = await new ApiClient(urls[i % urls.length]!).post('/api/setup', {
        username,
        password: PASSWORD,
        confirmPassword: PASSWORD,
      });
      return { username, url: urls[i % urls.length]!, body: res.body };
    }),
  );
}

/** Exactly one winner, every loser refused with setup.done, one root row (the winner), and only the winner logs in. */
async function expectOneRoot(answers: Awaited<ReturnType<typeof raceSetups>>, roots: () => Promise<string[]>) {
  const winners = answers.filter((a) => a.body.success);
  expect(winners, JSON.stringify(answers.map((a) => a.body))).toHaveLength(1);
  for (const loser of answers.filter((a) => !a.body.success)) {
    expect(loser.body).toMatchObject({ success: false, code: 'setup.done', message: '系统已经初始化完成' });
  }
  const winner = winners[0]!;
  expect(await roots()).toEqual([winner.username]);
  for (const a of answers) {
    const login = await new ApiClient(a.url).login(a.username, PASSWORD);
    expect(login.body.success, a.username).toBe(a === winner);
  }
}

await forEachDatabase('concurrent setup on one process', (kind) => {
  let tg: TestGateway;
  beforeAll(async () => {
    tg = await startTestGateway(kind);
  });
  afterAll(async () => tg?.close());

  it('creates one root user of twelve simultaneous setups', async () => {
    const names = Array.from({ length: 12 }, (_, i) => `root${i}`);
    const answers = await raceSetups([tg.url], names);
    await expectOneRoot(answers, async () =>
      (await tg.gateway.ctx.db.selectFrom('users').select('username').where('role', '>=', 100).execute()).map((r) => r.username),
    );
    expect((await tg.client().get('/api/setup')).body.data).toMatchObject({ status: true, root_init: true });
  });
});

const clusterReady = await clusterAvailable('postgres');

describe.skipIf(!clusterReady)('concurrent setup on two processes (PostgreSQL + Redis)', () => {
  let cluster: Cluster<GatewayNode>;
  let handle: DbHandle;

  beforeAll(async () => {
    cluster = await startCluster('postgres', ['master', 'slave'], { inProcess: true });
    handle = await openDb(cluster.database.target);
  }, 60_000);

  afterAll(async () => {
    await handle?.close();
    await cluster?.stop();
  });

  it('creates one root user when both processes are set up at the same moment', async () => {
    const names = Array.from({ length: 10 }, (_, i) => `node${i}`);
    const answers = await raceSetups(
      cluster.nodes.map((n) => n.url),
      names,
    );
    await expectOneRoot(answers, async () =>
      (await handle.db.selectFrom('users').select('username').where('role', '>=', 100).execute()).map((r) => r.username),
    );
  });
});
