import { SubscriptionCache } from './subscriptions/cache.js';
import { SpendCaps } from './subscriptions/caps.js';
import { Clock } from './subscriptions/clock.js';
import { startSubscriptionExpiry } from './subscriptions/expiry.js';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import { Redis } from 'ioredis';
import type { Config } from './config.js';
import { setPasswordHashCost } from './auth/password.js';
import { schemaCompilers } from './http/schema-compilers.js';
import type { GatewayContext } from './context.js';
import type { Balances } from './billing/journal-ops.js';
import { migrate, openDb } from './db/index.js';
import { claimLogDatabase, LogShipper } from './logs/shipper.js';
import { setLogsOutbox } from './logs/outbox.js';
import { OptionStore } from './options/store.js';
import { MemoryRateLimiter, RedisRateLimiter } from './ratelimit/limiter.js';
import { MemoryLimitStore } from './ratelimit/limit-store.js';
import { RedisLimitStore } from './ratelimit/redis-limit-store.js';
import { MemoryKv, RedisKv } from './cache/kv.js';
import { Mailer } from './mail/mailer.js';
import { Bus } from './cache/bus.js';
import { followReloads } from './cache/follow.js';
import { createTokenCache } from './tokens/cache.js';
import { createChannelCache } from './channels/cache.js';
import { createChannelHealth } from './channels/health/setup.js';
import { UserCache } from './users/user-cache.js';
import { HourlyTotals } from './logs/hourly-totals.js';
import { Journal } from './billing/journal.js';
import { Holds } from './billing/holds.js';
import { balanceHints } from './billing/hints.js';
import { NodeWatch } from './cluster/nodes.js';
import { LeaseHolder, NEVER_LEADER } from './cluster/leader.js';
import { TRUSTED_USD } from './relay/metering/charge.js';
import { startChannelScheduler } from './channels/scheduler.js';
import { startUpstreamModelTask } from './channels/upstream-task.js';
import { startLogRetention } from './logs/retention.js';
import { refuse } from './http/errors.js';
import { installErrorHandling, notFound } from './http/error-handler.js';
import { renderError, wireOf } from './http/wire.js';
import { clientIp } from './http/client-ip.js';
import { routedPath } from './http/request-path.js';
import { finiteKeyword, installInputRules } from './http/validation.js';
import { loggerOptions } from './http/log-redaction.js';
import { lazyChildLogger } from './http/lazy-logger.js';
import { isApiPath } from './http/security-headers.js';
import { registerRoutes } from './routes.js';
import { Metrics } from './ops/metrics.js';
import { installRequestHooks, newRequestId } from './ops/request-hooks.js';
import { releaseConnectionsOnClose } from './http/closing-connections.js';
import { installAudit } from './audit/hooks.js';
import type { AuditConfig } from './audit/types.js';
import { guardedRole } from './auth/guard.js';

/** Console API bodies; the relay's routes allow more (server/relay/entry/openai-routes.ts). */
const BODY_LIMIT = 2 * 1024 * 1024;

function readVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(resolve('package.json'), 'utf8')) as { version?: string };
    return `v${pkg.version ?? '0.0.0'}`;
  } catch {
    return 'v0.0.0';
  }
}

const trustHops =
  (hops: number) =>
  (_address: string, hop: number): boolean =>
    hop < hops;

/**
 * Keeps this process's option cache in step with the others: a bus message on every change, and a
 * reload from the database every SYNC_FREQUENCY seconds.
 */
function syncOptions(ctx: GatewayContext): () => void {
  ctx.options.on('write', () => ctx.bus.publish('options'));
  return followReloads(ctx.bus, ['options'], ctx.config.syncFrequency, () => ctx.options.reload());
}

/** A route as the route table checks see it: who it is guarded for and what it audits. */
export interface RouteEntry {
  method: string;
  url: string;
  /** The least role its guard lets through (0: no guard). */
  role: number;
  audit?: AuditConfig;
}

export interface Gateway {
  app: FastifyInstance;
  ctx: GatewayContext;
  /** Every route as registered (HEAD twins left out): the route table checks walk. */
  routes: ReadonlyArray<RouteEntry>;
  close(): Promise<void>;
}

export async function buildGateway(config: Config): Promise<Gateway> {
  // Built first (it opens nothing) so its logger is the one every part of start-up and every job logs through.
  const app = Fastify({
    logger: loggerOptions(config.logLevel),
    bodyLimit: BODY_LIMIT,
    // A hop count trusts that many proxies in front of the gateway, nearest first (as proxy-addr counts).
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    ajv: { plugins: [finiteKeyword] },
    schemaController: { compilersFactory: schemaCompilers(config.schemaPrecompile) },
    // Ids are made here, never taken from a client's header (they end up in log rows).
    requestIdHeader: false,
    genReqId: newRequestId,
    childLoggerFactory: lazyChildLogger,
  });
  releaseConnectionsOnClose(app.server);
  const log = app.log;
  setPasswordHashCost(config.passwordHashCost);
  const handle = await openDb(config.db, log);
  if (config.isMaster) await migrate(handle);
  const options = new OptionStore(handle.db);
  await options.reload();
  const logHandle = config.logDb ? await openDb(config.logDb, log) : null;
  if (logHandle) {
    try {
      if (config.isMaster) await migrate(logHandle);
      await claimLogDatabase(options, logHandle.db);
    } catch (err) {
      await Promise.all([logHandle.close(), handle.close()]);
      throw err;
    }
  }
  if (config.isMaster) await setLogsOutbox(handle.db, handle.kind, options, logHandle !== null);
  const logShipper = logHandle
    ? new LogShipper(handle.db, logHandle.db, logHandle.kind, (err) => log.error({ err }, 'log shipping failed'))
    : null;
  const secret = config.sessionSecret ?? (await options.internalOnce('SessionSecret', () => randomBytes(32).toString('hex')));

  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2, lazyConnect: false }) : null;
  const bus = await Bus.create(redis, config.redisPrefix);
  const base = { db: handle.db, bus, config };
  const { health, channelKeys } = await createChannelHealth({ ...base, redis, options, log });
  let onBalances = (_: Balances) => undefined as void;
  const metrics = new Metrics(() => journal.pending);
  redis?.on('error', () => metrics.storeErrors.inc({ store: 'redis' }));
  const journal = new Journal(handle.db, handle.kind, {
    onBalances: (balances) => onBalances(balances),
    onError: (err, what) => {
      metrics.storeErrors.inc({ store: 'db' });
      log.error({ err }, what);
    },
    onCommitted: (seconds) => metrics.journalFlush.observe(seconds),
  });
  const clock = new Clock();
  const ctx: GatewayContext = {
    config,
    log,
    db: handle.db,
    dbKind: handle.kind,
    logDb: logHandle?.db ?? handle.db,
    logDbKind: logHandle?.kind ?? handle.kind,
    logShipper,
    options,
    redis,
    limiter: redis ? new RedisRateLimiter(redis, `${config.redisPrefix}rl:`) : new MemoryRateLimiter(),
    limits: redis
      ? new RedisLimitStore(redis, `${config.redisPrefix}lim:`, () => metrics.storeErrors.inc({ store: 'redis' }))
      : new MemoryLimitStore(),
    kv: redis ? new RedisKv(redis, `${config.redisPrefix}kv:`) : new MemoryKv(),
    mailer: new Mailer(options),
    bus,
    tokens: createTokenCache(base),
    users: new UserCache(handle.db, bus),
    channels: await createChannelCache({ ...base, health }),
    health,
    channelKeys,
    journal,
    holds: new Holds(journal),
    subscriptions: new SubscriptionCache(handle.db, bus, clock),
    caps: new SpendCaps(handle.db, logHandle?.db ?? handle.db, bus, clock),
    clock,
    totals: new HourlyTotals(handle.db, handle.kind, (err) => log.error({ err }, 'hourly totals write failed'), options),
    metrics,
    leader: NEVER_LEADER,
    startTime: Math.floor(Date.now() / 1000),
    version: readVersion(),
  };

  onBalances = balanceHints(ctx, TRUSTED_USD);
  const nodes = new NodeWatch({
    db: handle.db,
    kind: handle.kind,
    id: ctx.holds.node,
    isLive: (id) => ctx.holds.live.has(id),
    timeoutMs: config.nodeTimeoutMs,
    leads: () => ctx.leader.isLeader,
    onRecovered: (resolved) => {
      log.warn(`resolved ${resolved.length} held reservation(s) no call will settle`);
      for (const { row, charged, record } of resolved) {
        if (charged <= 0) continue;
        ctx.totals.add({
          userId: row.user_id,
          username: record.username ?? '',
          channelId: row.channel_id,
          model: record.model_name ?? '',
          quota: charged,
          tokens: row.prompt_tokens + row.completion_tokens,
          promptTokens: row.prompt_tokens,
        });
      }
    },
    onError: (err) => log.error({ err }, 'node heartbeat failed'),
  });
  await nodes.start();
  // The jobs lease lapses within half a heartbeat timeout (at most 15 s) of its holder's death.
  const lease = config.isMaster
    ? new LeaseHolder(handle.db, ctx.holds.node, Math.min(15_000, Math.max(1000, config.nodeTimeoutMs / 2)), (err) =>
        log.error({ err }, 'jobs lease'),
      )
    : null;
  await lease?.start();
  if (lease) ctx.leader = lease;

  const stopSync = syncOptions(ctx);
  const stopChannelScheduler = startChannelScheduler(ctx);
  const stopUpstreamModelTask = startUpstreamModelTask(ctx);
  const stopLogRetention = startLogRetention(ctx);
  const stopSubscriptionExpiry = startSubscriptionExpiry(ctx);
  logShipper?.start(() => ctx.leader.isLeader);

  installRequestHooks(app, metrics);
  app.decorate('ctx', ctx);
  app.decorateRequest('user', null);
  await app.register(cookie, { secret });

  installErrorHandling(app);
  installInputRules(app);

  // The global per-address limit on the console API (a plain callback: the relay's routes pass
  // through without a promise), by the path the request was routed by, escapes decoded.
  app.addHook('onRequest', (request, reply, done) => {
    if (!routedPath(request).startsWith('/api/')) return done();
    const { max, windowSeconds } = config.rateLimits.global;
    ctx.limiter.hit(`global:${clientIp(request)}`, max, windowSeconds).then(
      (allowed) => done(allowed ? undefined : refuse(429, 'request.rate_limited')),
      (err: unknown) => done(err as Error),
    );
  });

  const routes: RouteEntry[] = [];
  app.addHook('onRoute', (route) => {
    const entry = { url: route.url, role: guardedRole(route.onRequest), audit: route.config?.audit };
    for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push({ method, ...entry });
  });
  installAudit(app);
  await registerRoutes(app);

  const consoleDir = config.consoleDir === null ? null : resolve(config.consoleDir);
  const hasConsole = consoleDir !== null && existsSync(join(consoleDir, 'index.html'));
  if (consoleDir && hasConsole) {
    await app.register(fastifyStatic, { root: consoleDir, wildcard: false, index: false });
  }
  app.setNotFoundHandler((request, reply) => {
    if (isApiPath(routedPath(request)) || request.method !== 'GET' || !hasConsole) {
      const wire = wireOf(request);
      const { status, body } = renderError(wire, notFound(request.method, request.url, wire));
      return reply.status(status).send(body);
    }
    return reply.type('text/html').sendFile('index.html');
  });

  return {
    app,
    ctx,
    routes,
    async close() {
      await app.close();
      await stopChannelScheduler();
      await stopUpstreamModelTask();
      await stopLogRetention();
      await stopSubscriptionExpiry();
      stopSync();
      ctx.channels.close();
      ctx.channelKeys.close();
      await ctx.journal.close();
      // After the journal's last batch: its rows leave with the rest.
      await logShipper?.close();
      await nodes.stop();
      await lease?.stop();
      await ctx.totals.close();
      ctx.bus.close();
      ctx.limiter.close();
      ctx.limits.close();
      redis?.disconnect();
      await handle.close();
      await logHandle?.close();
    },
  };
}
