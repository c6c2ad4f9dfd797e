/**
 * The periodic channel test: test-all every CHANNEL_TEST_FREQUENCY minutes (0 or unset: never),
 * on the master node only, so a cluster tests each channel once per period; and the probe of
 * half-open channels no call comes to (health/prober.ts), on the jobs leader too.
 */
import type { GatewayContext } from '../context.js';
import { startTestAll, stopTestAll } from './testing.js';
import { startProber } from './health/prober.js';

/**
 * Starts the periodic test when configured and this is the master node. The returned function
 * stops it and also cancels a test-all still running in this process (periodic or started from
 * the console), resolving once that run has stopped writing: call it before closing the database.
 */
export function startChannelScheduler(
  ctx: GatewayContext,
  minutes = ctx.config.channelTestFrequency,
  onError: (err: unknown) => void = (err) => ctx.log.error({ err }, 'channel test failed'),
): () => Promise<void> {
  let timer: NodeJS.Timeout | null = null;
  const stopProber = ctx.config.isMaster ? startProber(ctx, onError) : null;
  if (ctx.config.isMaster && minutes > 0) {
    timer = setInterval(() => {
      if (ctx.leader.isLeader) startTestAll(ctx, onError);
    }, minutes * 60_000);
    timer.unref();
  }
  return async () => {
    if (timer) clearInterval(timer);
    timer = null;
    await stopProber?.();
    await stopTestAll(ctx);
  };
}
