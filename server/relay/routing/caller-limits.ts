/**
 * The caller's request limits on the relay (server/ratelimit/caller-gate.ts): a token's calls in
 * flight, requests per minute and per day, and its owner's requests per day. One round trip to
 * Redis per call that has a limit, none otherwise. A refused call gets 429 with `Retry-After` (the
 * seconds until the window that refused it resets) in the caller's error format. A call's place
 * among the calls in flight is given back when its answer closes — served, failed, cut off by the
 * client or by the upstream alike — exactly once.
 */
import type { FastifyReply } from 'fastify';
import type { GatewayContext } from '../../context.js';
import { refuse, type AppError } from '../../http/errors.js';
import type { RelayCaller } from '../types.js';
import { MemoryCallerGate, RedisCallerGate, type CallerGate, type GateRefusal } from '../../ratelimit/caller-gate.js';

const gates = new WeakMap<GatewayContext, CallerGate>();

/** The gate of this gateway process, made on first use (so a context without limits never makes one). */
export function callerGate(ctx: GatewayContext): CallerGate {
  let gate = gates.get(ctx);
  if (!gate) {
    gate = ctx.redis
      ? new RedisCallerGate(ctx.redis, `${ctx.config.redisPrefix}gate:`, () => ctx.metrics.storeErrors.inc({ store: 'redis' }))
      : new MemoryCallerGate();
    gates.set(ctx, gate);
  }
  return gate;
}

function refusal(limit: GateRefusal, max: number, seconds: number): AppError {
  const error =
    limit === 'concurrency'
      ? refuse(429, 'token_concurrency_exceeded', { max }, 'rate_limit_error')
      : refuse(429, `${limit === 'rpm' ? 'token_rpm' : limit}_exceeded`, { max, seconds }, 'rate_limit_error');
  return error;
}

/**
 * Admits the call or throws its 429 (with `Retry-After` set on the reply). Undefined when the caller
 * has no limit: the relay then waits for nothing.
 */
export function admitCaller(ctx: GatewayContext, reply: FastifyReply, caller: RelayCaller): Promise<void> | undefined {
  const l = caller.requestLimits;
  if (!l || (l.concurrency === 0 && l.rpm === 0 && l.rpd === 0 && l.userRpd === 0)) return undefined;
  return enterGate(ctx, reply, caller, l);
}

async function enterGate(
  ctx: GatewayContext,
  reply: FastifyReply,
  caller: RelayCaller,
  l: NonNullable<RelayCaller['requestLimits']>,
): Promise<void> {
  const answer = await callerGate(ctx).enter({
    tokenId: caller.tokenId,
    userId: caller.userId,
    concurrency: l.concurrency,
    rpm: l.rpm,
    tokenRpd: l.rpd,
    userRpd: l.userRpd,
  });
  if (!answer.ok) {
    const max = { concurrency: l.concurrency, rpm: l.rpm, token_rpd: l.rpd, user_rpd: l.userRpd }[answer.limit];
    reply.header('retry-after', String(answer.retryAfter));
    throw refusal(answer.limit, max, answer.retryAfter);
  }
  const out = reply.raw;
  if (out.destroyed) answer.pass.release();
  else out.once('close', () => answer.pass.release());
}
