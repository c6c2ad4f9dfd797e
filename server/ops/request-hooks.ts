/**
 * Hooks every request passes: its id, sent back to the client and carried by each log line and log
 * row, and the relay's request metrics, taken when the answer's connection is done with (streams
 * included, which bypass Fastify's own response hooks).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { wireOf } from '../http/wire.js';
import type { Metrics } from './metrics.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** What the relay served with, once a channel took the call: the metrics' model and channel labels. */
    servedBy?: { model: string; channel: number; stream: boolean };
  }
}

/** The id's time prefix, made once a second rather than per request (a date format is not cheap). */
let stampSecond = -1;
let stamp = '';
/** Random bytes drawn a thousand ids at a time: one call into the CSPRNG per id costs more. */
const POOL = 6 * 1024;
let pool = randomBytes(POOL);
let poolAt = 0;

/** A time-ordered id as the family writes them: yyyyMMddHHmmss plus random hex. */
export function newRequestId(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== stampSecond) {
    stampSecond = second;
    stamp = new Date(now).toISOString().replace(/\D/g, '').slice(0, 14);
  }
  if (poolAt === POOL) {
    pool = randomBytes(POOL);
    poolAt = 0;
  }
  poolAt += 6;
  return stamp + pool.toString('hex', poolAt - 6, poolAt);
}

export function installRequestIds(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    // On the raw response, so that answers the relay writes itself carry them too.
    reply.raw.setHeader('X-Request-Id', request.id);
    reply.raw.setHeader('X-Oneapi-Request-Id', request.id);
    done();
  });
}

export function installRelayMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onRequest', (request, reply, done) => {
    const format = wireOf(request);
    if (format === 'console' || !request.routeOptions.url) return done();
    const started = performance.now();
    metrics.inFlightNow.now.request++;
    reply.raw.once('close', () => {
      metrics.inFlightNow.now.request--;
      record(metrics, request, format, reply.raw.statusCode, (performance.now() - started) / 1000);
    });
    done();
  });
}

function record(metrics: Metrics, request: FastifyRequest, format: string, status: number, seconds: number): void {
  const served = request.servedBy;
  const model = served?.model ?? '';
  const channel = served ? String(served.channel) : '';
  metrics.requests.inc(`${format} ${model} ${channel} ${status}`, () => ({ format, model, channel, status: String(status) }));
  const stream = served?.stream ? 'true' : 'false';
  metrics.relayDuration.observe(`${format} ${stream}`, () => ({ format, stream }), seconds);
}
