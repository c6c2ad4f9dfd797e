/**
 * What every request gets first: its id, sent back to the client and carried by each log line and
 * log row, the security headers (server/http/security-headers.ts), and on the relay's routes the
 * request metrics, taken when the answer's connection is done with (streams included, which bypass
 * Fastify's own response hooks).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import { routeFacts, type WireFormat } from '../http/wire.js';
import { setSecurityHeaders } from '../http/security-headers.js';
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

/**
 * The hook every request passes first, one hook for all of it (each hook costs every request a
 * turn of Fastify's hook runner): its id and security headers on the raw response, so that answers
 * the relay writes itself carry them too, and on a relay route the metrics. What it read of the route
 * stays on the request (`routed`) for the later hooks and the body reader.
 */
export function installRequestHooks(app: FastifyInstance, metrics: Metrics): void {
  app.decorateRequest('routed', null);
  app.addHook('onRequest', (request, reply, done) => {
    const raw = reply.raw;
    raw.setHeader('X-Request-Id', request.id);
    raw.setHeader('X-Oneapi-Request-Id', request.id);
    const route = routeFacts(request);
    request.routed = route;
    setSecurityHeaders(raw, route.path);
    if (route.wire !== 'console' && route.routed) watchRelayCall(metrics, request, raw, route.wire);
    done();
  });
}

function watchRelayCall(metrics: Metrics, request: FastifyRequest, raw: ServerResponse, format: WireFormat): void {
  const started = performance.now();
  metrics.inFlightNow.now.request++;
  raw.once('close', () => {
    metrics.inFlightNow.now.request--;
    record(metrics, request, format, raw.statusCode, (performance.now() - started) / 1000);
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
