import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterAvailable, startCluster, type Cluster } from '../helpers/cluster.js';
import type { GatewayProcess } from '../helpers/process.js';

// The background jobs run on exactly one of the processes sharing a database: the holder of the
// jobs lease, which another process takes over once the holder dies. No Redis: the lease lives in
// the database.
const ready = await clusterAvailable('postgres', false);

describe.skipIf(!ready)('the jobs lease across three processes on PostgreSQL', () => {
  let cluster: Cluster;
  let nodes: GatewayProcess[] = [];
  beforeAll(async () => {
    cluster = await startCluster('postgres', ['master', 'master', 'slave'], { redis: false, env: { NODE_TIMEOUT: '2' } });
    nodes = cluster.nodes;
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
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
