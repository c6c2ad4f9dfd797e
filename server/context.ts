import type { Redis } from 'ioredis';
import type { Config } from './config.js';
import type { Db } from './db/index.js';
import type { DbKind } from './db/dsn.js';
import type { OptionStore } from './options/store.js';
import type { RateLimiter } from './ratelimit/limiter.js';
import type { KvStore } from './cache/kv.js';
import type { Mailer } from './mail/mailer.js';
import type { Bus } from './cache/bus.js';

/** Everything a route needs, built once at start-up and reached as `app.ctx`. */
export interface GatewayContext {
  config: Config;
  db: Db;
  dbKind: DbKind;
  options: OptionStore;
  redis: Redis | null;
  limiter: RateLimiter;
  kv: KvStore;
  mailer: Mailer;
  /** Cache invalidation between gateway processes. */
  bus: Bus;
  startTime: number;
  version: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: GatewayContext;
  }
}
