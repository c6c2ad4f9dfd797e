/**
 * Several gateways sharing one PostgreSQL or MySQL database and (by default) one Redis under a key
 * prefix of their own, as operators run them. The first starts alone (it runs the migrations); the
 * others start together. They are processes, or with `inProcess` gateways built in the test's own
 * process (a second of CPU less each) where no test kills one. `clusterAvailable` says whether the
 * servers answer: locally an unreachable one skips with a message, under CI=true it fails.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { buildGateway } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { REDIS_URL, availableDatabases, createTestDatabase, redisAvailable, type TestDatabase } from './databases.js';
import { spawnGateway, type GatewayProcess } from './process.js';

/** A running gateway of a cluster: a process (GatewayProcess) or one built in this process. */
export interface GatewayNode {
  url: string;
  stop(): Promise<void>;
}

export type ClusterDb = 'postgres' | 'mysql';

/** A process's part: `master` may run migrations and hold the jobs lease, `slave` never does. */
export type NodeRole = 'master' | 'slave';

export interface Cluster<N extends GatewayNode = GatewayProcess> {
  database: TestDatabase;
  /** The gateways in the order of `roles`. */
  nodes: N[];
  /** The environment every process got (SQL_DSN, Redis, secrets, limits). */
  env: Record<string, string>;
  /** Stops every process still running and drops the database. */
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /** Share one Redis (default true). */
  redis?: boolean;
  /** Added to (or overriding) every process's environment. */
  env?: Record<string, string>;
  /** Build the gateways in this process instead of spawning processes. */
  inProcess?: boolean;
}

/** A gateway built here from the environment a process would get. */
async function buildNode(env: Record<string, string>): Promise<GatewayNode> {
  const config = loadConfig({
    ...process.env,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'silent',
    CONSOLE_DIR: '',
    PASSWORD_HASH_COST: '4',
    ...env,
  });
  const gateway = await buildGateway(config);
  await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = gateway.app.server.address() as AddressInfo;
  let closed: Promise<void> | null = null;
  return { url: `http://127.0.0.1:${port}`, stop: () => (closed ??= gateway.close()) };
}

/** Whether `kind` (and Redis, when asked for) can be reached; throws under CI=true when not. */
export async function clusterAvailable(kind: ClusterDb, redis = true): Promise<boolean> {
  if (redis && !(await redisAvailable())) return false;
  return (await availableDatabases()).includes(kind);
}

export function startCluster(
  kind: ClusterDb,
  roles: NodeRole[],
  options: ClusterOptions & { inProcess: true },
): Promise<Cluster<GatewayNode>>;
export function startCluster(
  kind: ClusterDb,
  roles: NodeRole[],
  options?: ClusterOptions & { inProcess?: false },
): Promise<Cluster>;
export async function startCluster(
  kind: ClusterDb,
  roles: NodeRole[],
  options: ClusterOptions = {},
): Promise<Cluster<GatewayNode>> {
  const database = await createTestDatabase(kind);
  const env: Record<string, string> = {
    SQL_DSN: database.dsn,
    SESSION_SECRET: randomBytes(24).toString('hex'),
    // Tests log in and call the console far more often than people do: limits are lifted unless set.
    GLOBAL_API_RATE_LIMIT: '100000',
    CRITICAL_RATE_LIMIT: '100000',
    SEARCH_RATE_LIMIT: '100000',
    ...(options.redis === false
      ? {}
      : { REDIS_CONN_STRING: REDIS_URL, REDIS_KEY_PREFIX: `gwtest:${randomBytes(4).toString('hex')}:` }),
    ...options.env,
  };
  const nodes: GatewayNode[] = [];
  const start = options.inProcess ? buildNode : spawnGateway;
  const spawnAs = (role: NodeRole) => start(role === 'slave' ? { ...env, NODE_TYPE: 'slave' } : env);
  const stop = async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    await database.drop();
  };
  try {
    const [first, ...rest] = roles;
    if (first) nodes.push(await spawnAs(first));
    const started = await Promise.allSettled(rest.map(spawnAs));
    for (const s of started) if (s.status === 'fulfilled') nodes.push(s.value);
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
  } catch (err) {
    await stop();
    throw err;
  }
  return { database, nodes, env, stop };
}
