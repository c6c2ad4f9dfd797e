/**
 * Several gateway processes sharing one fresh PostgreSQL or MySQL database and (by default) one
 * Redis under a key prefix of their own, as operators run them. The first process starts alone (it
 * runs the migrations); the others start together. `clusterAvailable` says whether the servers
 * answer: locally an unreachable one skips with a message, under CI=true it fails.
 */
import { randomBytes } from 'node:crypto';
import { REDIS_URL, availableDatabases, createTestDatabase, redisAvailable, type TestDatabase } from './databases.js';
import { spawnGateway, type GatewayProcess } from './process.js';

export type ClusterDb = 'postgres' | 'mysql';

/** A process's part: `master` may run migrations and hold the jobs lease, `slave` never does. */
export type NodeRole = 'master' | 'slave';

export interface Cluster {
  database: TestDatabase;
  /** The processes in the order of `roles`. */
  nodes: GatewayProcess[];
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
}

/** Whether `kind` (and Redis, when asked for) can be reached; throws under CI=true when not. */
export async function clusterAvailable(kind: ClusterDb, redis = true): Promise<boolean> {
  if (redis && !(await redisAvailable())) return false;
  return (await availableDatabases()).includes(kind);
}

export async function startCluster(kind: ClusterDb, roles: NodeRole[], options: ClusterOptions = {}): Promise<Cluster> {
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
  const nodes: GatewayProcess[] = [];
  const spawnAs = (role: NodeRole) => spawnGateway(role === 'slave' ? { ...env, NODE_TYPE: 'slave' } : env);
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
