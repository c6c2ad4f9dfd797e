import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from './config.js';
import type { Db } from './db/index.js';
import type { DbKind } from './db/dsn.js';
import type { OptionStore } from './options/store.js';
import type { RateLimiter } from './ratelimit/limiter.js';
import type { LimitStore } from './ratelimit/limit-store.js';
import type { KvStore } from './cache/kv.js';
import type { Mailer } from './mail/mailer.js';
import type { Bus } from './cache/bus.js';
import type { TokenCache } from './tokens/cache.js';
import type { ChannelCache } from './channels/cache.js';
import type { ChannelHealth } from './channels/health/tracker.js';
import type { KeyStates } from './channels/keys/states.js';
import type { UserCache } from './users/user-cache.js';
import type { HourlyTotals } from './logs/hourly-totals.js';
import type { LogShipper } from './logs/shipper.js';
import type { Journal } from './billing/journal.js';
import type { Holds } from './billing/holds.js';
import type { Metrics } from './ops/metrics.js';
import type { Leadership } from './cluster/leader.js';
import type { SubscriptionCache } from './subscriptions/cache.js';
import type { SpendCaps } from './subscriptions/caps.js';
import type { Clock } from './subscriptions/clock.js';

/** Everything a route needs, built once at start-up and reached as `app.ctx`. */
export interface GatewayContext {
  config: Config;
  /** The server's one logger (pino, redacting credentials): requests and background jobs alike. */
  log: FastifyBaseLogger;
  db: Db;
  dbKind: DbKind;
  /** Where log rows are read and cleaned up: `db`, or LOG_SQL_DSN's database. */
  logDb: Db;
  logDbKind: DbKind;
  /** Moves log rows from `db`, where they are written, to LOG_SQL_DSN's database; null without one. */
  logShipper: LogShipper | null;
  options: OptionStore;
  redis: Redis | null;
  limiter: RateLimiter;
  /** The relay's limits: callers' requests and tokens, channels' requests and calls in flight. */
  limits: LimitStore;
  kv: KvStore;
  mailer: Mailer;
  /** Cache invalidation between gateway processes. */
  bus: Bus;
  /** The relay's caches: no per-request database reads for tokens, users and channels. */
  tokens: TokenCache;
  users: UserCache;
  channels: ChannelCache;
  /** Cool-downs and recent latency of channels and keys; the disabled keys of multi-key channels. */
  health: ChannelHealth;
  channelKeys: KeyStates;
  /** Quota movements and log rows, committed in batches shared by concurrent calls. */
  journal: Journal;
  /** Quota held by calls in flight. */
  holds: Holds;
  /** Users' billing preferences and active subscriptions: who pays a call. */
  subscriptions: SubscriptionCache;
  /** Spend caps of tokens and users per period, checked before each call from memory. */
  caps: SpendCaps;
  /** The time subscription periods and spend caps are counted in (tests move it). */
  clock: Clock;
  /** Hourly usage totals (dashboard, channel statistics), written every DataExportInterval. */
  totals: HourlyTotals;
  metrics: Metrics;
  /** Whether this process runs the background jobs now (one process of those sharing the database). */
  leader: Leadership;
  startTime: number;
  version: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: GatewayContext;
  }
}
