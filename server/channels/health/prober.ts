/**
 * Half-open channels that no call comes to (a rarely used model, a quiet hour) would wait for
 * their deciding call indefinitely: the process running the background jobs tests them, a few
 * seconds after their cool-down ends, so they come back by themselves. Calls that do come still
 * decide first; a channel claimed by one is left alone.
 */
import type { GatewayContext } from '../../context.js';
import { testChannel } from '../testing.js';
import { CHANNEL_ENABLED } from '../types.js';
import { channelSubject } from './tracker.js';

const PROBE_EVERY_MS = 5_000;
/** How long after its cool-down ends a channel is left for a real call to decide. */
const GRACE_MS = 5_000;

export function startProber(
  ctx: GatewayContext,
  onError: (err: unknown) => void = (err) => ctx.log.error({ err }, 'channel probe failed'),
): () => Promise<void> {
  const abort = new AbortController();
  const running = new Set<Promise<unknown>>();
  const round = () => {
    if (!ctx.leader.isLeader || abort.signal.aborted) return;
    const now = Date.now();
    ctx.health.prune(now);
    for (const [subject, entry] of ctx.health.board.subjects()) {
      if (!subject.startsWith('c:') || now < entry.until + GRACE_MS || !ctx.health.halfOpenUnclaimed(subject, now)) continue;
      const channel = ctx.channels.get(Number(subject.slice(2)));
      if (!channel || channel.status !== CHANNEL_ENABLED) continue;
      ctx.health.claim(channelSubject(channel.id), now);
      const probe = testChannel(ctx, channel, undefined, abort.signal)
        .catch(onError)
        .finally(() => running.delete(probe));
      running.add(probe);
    }
  };
  const timer = setInterval(round, PROBE_EVERY_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    abort.abort();
    await Promise.all(running);
  };
}
