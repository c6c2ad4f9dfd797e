import { isIP } from 'node:net';
import { parseDsn, type DbTarget } from './db/dsn.js';
import { API_LIMITS, type ApiLimits } from './ratelimit/limiter.js';
import { otelConfigFrom, type OtelConfig } from './observability/otel-config.js';

/** Gateway configuration, read from the environment once at boot. */
export interface Config {
  port: number;
  host: string;
  db: DbTarget;
  /**
   * Where log rows live when not in `db` (LOG_SQL_DSN, same forms as SQL_DSN plus sqlite:PATH); null
   * when unset or naming `db` itself.
   */
  logDb: DbTarget | null;
  redisUrl: string | null;
  /** Prefix of every Redis key and channel this gateway uses (REDIS_KEY_PREFIX). */
  redisPrefix: string;
  /** Minutes between automatic tests of every channel (CHANNEL_TEST_FREQUENCY); 0 = never. */
  channelTestFrequency: number;
  /**
   * The background upstream model-update check, off unless CHANNEL_UPSTREAM_MODEL_UPDATE_TASK_ENABLED
   * is true: every …_TASK_INTERVAL_MINUTES (30) it checks the opted-in channels last checked more
   * than …_MIN_CHECK_INTERVAL_SECONDS (300) ago (server/channels/upstream-task.ts).
   */
  upstreamModelUpdate: { enabled: boolean; intervalMinutes: number; minCheckSeconds: number };
  /** Seconds between reloads of cached options from the database (SYNC_FREQUENCY). */
  syncFrequency: number;
  /** When unset, a secret is generated once and kept in the database. */
  sessionSecret: string | null;
  /** Folder holding the built console (CONSOLE_DIR, default dist/console); null (set empty) serves none. */
  consoleDir: string | null;
  /** Run migrations and background jobs (one master node in a cluster). */
  isMaster: boolean;
  /**
   * Milliseconds without a heartbeat after which another gateway process is taken for dead and the
   * quota its calls held is resolved (NODE_TIMEOUT, seconds).
   */
  nodeTimeoutMs: number;
  /**
   * Which proxies' X-Forwarded-For / X-Forwarded-Proto to believe (TRUST_PROXY): false, a number of
   * proxy hops in front of the gateway, or the proxies' addresses and CIDRs. The client's address is
   * the one the last trusted hop saw, so a client cannot pass an address of its choosing.
   */
  trustProxy: false | number | string[];
  logLevel: string;
  /** Bearer token GET /metrics asks for (METRICS_TOKEN); null keeps the endpoint off. */
  metricsToken: string | null;
  /** Milliseconds a SIGTERM/SIGINT waits for calls in flight before cutting them (SHUTDOWN_TIMEOUT, seconds). */
  shutdownTimeoutMs: number;
  /**
   * Console API rate limits; env GLOBAL_API_RATE_LIMIT(_DURATION), CRITICAL_RATE_LIMIT(_DURATION),
   * SEARCH_RATE_LIMIT(_DURATION), and failed logins per account LOGIN_FAILURE_LIMIT(_DURATION).
   */
  rateLimits: ApiLimits;
  /**
   * Where the official model metadata is synced from (SYNC_UPSTREAM_BASE): new-api's catalogue
   * layout, `{base}/api/newapi/models.json` and `vendors.json`, fetched only when an admin asks.
   */
  syncUpstreamBase: string;
  /**
   * bcrypt cost of new password hashes (PASSWORD_HASH_COST, 4–15, default 10). Stored hashes carry
   * their own cost, so changing it affects only passwords set afterwards.
   */
  passwordHashCost: number;
  /**
   * Compile every route's validators and serializers at start (SCHEMA_PRECOMPILE=true) rather than
   * at each route's first request: slower start, steadier first answers.
   */
  schemaPrecompile: boolean;
  /** OpenTelemetry traces over OTLP/HTTP (OTEL_EXPORTER_OTLP_ENDPOINT and its kin); null: off. */
  otel: OtelConfig | null;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
  }
}

type Env = Record<string, string | undefined>;

function intVar(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be an integer, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** TRUST_PROXY: false (default), true (one proxy), a hop count, or comma-separated proxy addresses/CIDRs. */
function trustProxyVar(raw: string | undefined): false | number | string[] {
  const value = (raw ?? '').trim();
  if (value === '' || value === 'false' || value === '0') return false;
  if (value === 'true') return 1;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 10) throw new ConfigError('TRUST_PROXY', `at most 10 proxy hops, got ${hops}`);
    return hops;
  }
  const list = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of list) {
    const [address, bits, ...rest] = entry.split('/');
    const family = isIP(address ?? '');
    const maxBits = family === 4 ? 32 : 128;
    const badBits = bits !== undefined && (!/^\d+$/.test(bits) || Number(bits) > maxBits);
    if (family === 0 || badBits || rest.length > 0) {
      throw new ConfigError('TRUST_PROXY', `expected true, a hop count or proxy addresses/CIDRs, got "${entry}"`);
    }
  }
  return list;
}

export function loadConfig(env: Env = process.env): Config {
  let db: DbTarget;
  try {
    db = parseDsn(env.SQL_DSN ?? '', env.SQLITE_PATH || './data/gateway.db');
  } catch (err) {
    throw new ConfigError('SQL_DSN', (err as Error).message);
  }
  let logDb: DbTarget | null = null;
  if (env.LOG_SQL_DSN?.trim()) {
    try {
      logDb = parseDsn(env.LOG_SQL_DSN, '');
    } catch (err) {
      throw new ConfigError('LOG_SQL_DSN', (err as Error).message);
    }
    if (JSON.stringify(logDb) === JSON.stringify(db)) logDb = null;
  }
  const redisUrl = env.REDIS_CONN_STRING || null;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) {
    throw new ConfigError('REDIS_CONN_STRING', 'must start with redis:// or rediss://');
  }
  const sessionSecret = env.SESSION_SECRET || null;
  let otel: OtelConfig | null;
  try {
    otel = otelConfigFrom(env);
  } catch (err) {
    throw new ConfigError('OTEL_EXPORTER_OTLP_PROTOCOL', (err as Error).message);
  }
  if (sessionSecret !== null && sessionSecret.length < 16) {
    throw new ConfigError('SESSION_SECRET', 'must be at least 16 characters');
  }
  // Request lines are logged at info; the default keeps the relay's hot path quiet.
  const logLevel = env.LOG_LEVEL || 'warn';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `unknown level "${logLevel}"`);
  }
  const syncUpstreamBase = (env.SYNC_UPSTREAM_BASE || 'https://basellm.github.io/llm-metadata').replace(/\/+$/, '');
  if (!/^https?:\/\/[^/\s]+/i.test(syncUpstreamBase) || !URL.canParse(syncUpstreamBase)) {
    throw new ConfigError('SYNC_UPSTREAM_BASE', 'must be an http(s) address');
  }
  // Read again at each connection (server/http/upstream-guard.ts: tests and operators may flip it
  // without a restart); checked here so a misspelt value stops start-up rather than reading as false.
  const privateUpstreams = env.ALLOW_PRIVATE_UPSTREAMS ?? '';
  if (!['', 'true', 'false', '1', '0'].includes(privateUpstreams)) {
    throw new ConfigError('ALLOW_PRIVATE_UPSTREAMS', `must be true or false, got "${privateUpstreams}"`);
  }
  const limit = (prefix: string, name: keyof ApiLimits) => ({
    max: intVar(env, prefix, API_LIMITS[name].max, 1, 1_000_000_000),
    windowSeconds: intVar(env, `${prefix}_DURATION`, API_LIMITS[name].windowSeconds, 1, 86_400),
  });
  return {
    rateLimits: {
      global: limit('GLOBAL_API_RATE_LIMIT', 'global'),
      critical: limit('CRITICAL_RATE_LIMIT', 'critical'),
      search: limit('SEARCH_RATE_LIMIT', 'search'),
      login: limit('LOGIN_FAILURE_LIMIT', 'login'),
    },
    port: intVar(env, 'PORT', 3000, 0, 65535),
    host: env.HOST || '0.0.0.0',
    db,
    logDb,
    redisUrl,
    redisPrefix: env.REDIS_KEY_PREFIX || 'gw:',
    syncFrequency: intVar(env, 'SYNC_FREQUENCY', 60, 1, 86_400),
    channelTestFrequency: intVar(env, 'CHANNEL_TEST_FREQUENCY', 0, 0, 7 * 24 * 60),
    upstreamModelUpdate: {
      enabled: ['true', '1'].includes(env.CHANNEL_UPSTREAM_MODEL_UPDATE_TASK_ENABLED ?? ''),
      intervalMinutes: intVar(env, 'CHANNEL_UPSTREAM_MODEL_UPDATE_TASK_INTERVAL_MINUTES', 30, 1, 7 * 24 * 60),
      minCheckSeconds: intVar(env, 'CHANNEL_UPSTREAM_MODEL_UPDATE_MIN_CHECK_INTERVAL_SECONDS', 300, 0, 7 * 86_400),
    },
    sessionSecret,
    consoleDir: env.CONSOLE_DIR === '' ? null : (env.CONSOLE_DIR ?? 'dist/console'),
    isMaster: env.NODE_TYPE !== 'slave',
    nodeTimeoutMs: intVar(env, 'NODE_TIMEOUT', 30, 2, 3600) * 1000,
    trustProxy: trustProxyVar(env.TRUST_PROXY),
    logLevel,
    metricsToken: env.METRICS_TOKEN || null,
    shutdownTimeoutMs: intVar(env, 'SHUTDOWN_TIMEOUT', 30, 0, 3600) * 1000,
    syncUpstreamBase,
    passwordHashCost: intVar(env, 'PASSWORD_HASH_COST', 10, 4, 15),
    schemaPrecompile: env.SCHEMA_PRECOMPILE === 'true',
    otel,
  };
}
