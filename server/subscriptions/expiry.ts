/**
 * Ends subscriptions whose time is up, on the process that runs the background jobs, every minute:
 * each is marked expired by the conditional UPDATE of endSubscription (so it is ended once, whoever
 * else ends it), and the group it upgraded is put back. Calls never draw on an ended subscription
 * meanwhile: reservations check `end_time` themselves.
 */
import type { GatewayContext } from '../context.js';
import { publishUserChange } from '../users/user-cache.js';
import { publishSubscriptionChange } from './cache.js';
import { dueToExpire, endSubscription, SUB_EXPIRED } from './repository.js';

const CHECK_MS = 60_000;

/** One pass; returns how many subscriptions it ended. */
export async function expireSubscriptions(ctx: Pick<GatewayContext, 'db' | 'bus'>, now: number): Promise<number> {
  let ended = 0;
  for (const due of await dueToExpire(ctx.db, now)) {
    if (await ctx.db.transaction().execute((trx) => endSubscription(trx, due.id, SUB_EXPIRED, now))) {
      ended++;
      publishSubscriptionChange(ctx.bus, due.user_id);
      publishUserChange(ctx.bus, due.user_id);
    }
  }
  return ended;
}

/** Starts the minutely pass on a master node; the returned function stops it and waits for a pass in progress. */
export function startSubscriptionExpiry(ctx: GatewayContext): () => Promise<void> {
  if (!ctx.config.isMaster) return async () => undefined;
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    if (!ctx.leader.isLeader) return;
    running = expireSubscriptions(ctx, Math.floor(Date.now() / 1000)).catch((err: unknown) =>
      ctx.log.error({ err }, 'subscription expiry failed'),
    );
  }, CHECK_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
