/**
 * What load balancers and monitoring ask: `/healthz` (the process answers), `/readyz` (it can serve:
 * database and Redis reachable; while shutting down Fastify answers 503 itself) and `/metrics`
 * (Prometheus text, behind METRICS_TOKEN; absent when no token is set, since figures like billed
 * quota are not for everyone).
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { GatewayContext } from '../context.js';

function bearerMatches(request: FastifyRequest, token: string): boolean {
  const given = Buffer.from((request.headers.authorization ?? '').replace(/^Bearer\s+/i, ''));
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

async function reachable(check: () => Promise<unknown>, ms = 2000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([check().then(() => true), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

export default async function opsRoutes(app: FastifyInstance): Promise<void> {
  const ctx: GatewayContext = app.ctx;

  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (_request, reply) => {
    const [main, logs, redis] = await Promise.all([
      reachable(() => sql`select 1`.execute(ctx.db)),
      ctx.logDb === ctx.db ? Promise.resolve(true) : reachable(() => sql`select 1`.execute(ctx.logDb)),
      ctx.redis ? reachable(() => ctx.redis!.ping()) : Promise.resolve(true),
    ]);
    // Calls are served and billed while LOG_SQL_DSN's database is away (their rows wait in the main
    // one), so it is reported but does not take the process out of rotation.
    const database = main;
    const ready = database && redis;
    return reply
      .status(ready ? 200 : 503)
      .send({ status: ready ? 'ready' : 'unavailable', database, log_database: logs, redis, leader: ctx.leader.isLeader });
  });

  const token = ctx.config.metricsToken;
  if (token) {
    app.get('/metrics', async (request, reply) => {
      if (!bearerMatches(request, token)) return reply.status(401).send({ error: 'a valid METRICS_TOKEN bearer is required' });
      return reply.type(ctx.metrics.registry.contentType).send(await ctx.metrics.registry.metrics());
    });
  }
}
