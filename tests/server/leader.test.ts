import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableDatabases, createTestDatabase, type TestDatabase } from '../helpers/databases.js';
import { spawnGateway, type GatewayProcess } from '../helpers/process.js';

// The background jobs run on exactly one of the processes sharing a database: the holder of the
// jobs lease, which another process takes over once the holder dies.
const kinds = await availableDatabases();

describe.skipIf(!kinds.includes('postgres'))('the jobs lease across three processes on PostgreSQL', () => {
  let db: TestDatabase;
  const nodes: GatewayProcess[] = [];
  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    const env = { SQL_DSN: db.dsn, NODE_TIMEOUT: '2' };
    nodes.push(await spawnGateway(env));
    nodes.push(...(await Promise.all([spawnGateway(env), spawnGateway({ ...env, NODE_TYPE: 'slave' })])));
  }, 60_000);
  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    await db?.drop();
  });

  const leaders = async (list: GatewayProcess[]) =>
    Promise.all(list.map(async (n) => ((await (await fetch(n.url + '/readyz')).json()) as { leader: boolean }).leader));

  it('has one leader, never the opted-out node, and a new one within seconds of the leader’s death', async () => {
    await new Promise((r) => setTimeout(r, 500));
    const first = await leaders(nodes);
    expect(first.filter(Boolean)).toHaveLength(1);
    expect(first[2]).toBe(false);
    const leader = nodes[first.indexOf(true)]!;
    const exited = new Promise((r) => leader.child.once('exit', r));
    leader.child.kill('SIGKILL');
    await exited;
    const others = nodes.filter((n) => n !== leader);
    const deadline = Date.now() + 5000;
    let now = await leaders(others);
    while (!now.includes(true) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      now = await leaders(others);
    }
    expect(now).toEqual([true, false]);
  }, 30_000);
});
