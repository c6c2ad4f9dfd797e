/**
 * Per-channel limits on the relay's way to an upstream: a channel with `rpm_limit` or
 * `max_concurrency` serves a call only with a slot (limit-store.ts). A channel at its limit is
 * passed over for the next candidate the caller proposes (the same priority tier first, then the
 * lower ones); when every candidate is at its limit the call waits, up to WAIT_MS, for a slot to
 * come free, and is then refused with a 429 in the client's format. A full channel is not an
 * attempt: RetryTimes counts upstream failures only.
 *
 * One ChannelSlots per call holds at most one slot: taking the next channel gives back the slot of
 * the attempt before, and `release()` (in the call's `finally`) gives back the last, so every path
 * — served, upstream error, retry, client gone, stream broken — releases each slot exactly once.
 */
import type { GatewayContext } from '../context.js';
import type { Channel } from '../db/types.js';
import { refuse, type AppError } from '../http/errors.js';
import type { Lease } from './limit-store.js';

/** How long a call waits, at most, for a slot when every candidate channel is at its limit. */
export const WAIT_MS = 1000;
const FIRST_PAUSE_MS = 10;
const MAX_PAUSE_MS = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether a channel has a limit at all (the others take no slot and cost nothing). */
export function isLimited(channel: Pick<Channel, 'rpm_limit' | 'max_concurrency'>): boolean {
  return channel.rpm_limit > 0 || channel.max_concurrency > 0;
}

/** Proposes a channel not in `full` (channels found at their limit during this choice), or none. */
export type Chooser = (full: ReadonlySet<number>) => Channel | undefined;

/**
 * The relay's proposals for attempt `attempt`: the channel an admin's key pins, or the channel
 * cache's pick among the channels neither tried nor full.
 */
export function chooser(
  ctx: Pick<GatewayContext, 'channels'>,
  caller: { group: string; pinnedChannelId: number | null },
  model: string,
  attempt: number,
  tried: readonly number[],
): Chooser {
  const pinned = caller.pinnedChannelId;
  if (pinned) return (full) => (full.has(pinned) ? undefined : ctx.channels.get(pinned));
  return (full) =>
    ctx.channels.pick(
      caller.group,
      model,
      attempt,
      tried.length === 0 && full.size === 0 ? undefined : new Set(full.size > 0 ? [...tried, ...full] : tried),
    );
}

export class ChannelSlots {
  private lease: Lease | null = null;
  /** Set when the last `take` found every candidate at its limit until the wait ran out. */
  refusal: AppError | null = null;

  constructor(private readonly ctx: Pick<GatewayContext, 'limits'>) {}

  /**
   * The channel for the next attempt, with its slot; undefined when there is no candidate, when the
   * client left while waiting, or when every candidate stayed at its limit (then `refusal` says so).
   * Known at once, without a promise, when the first channel proposed has no limits (most have none).
   */
  take(choose: Chooser, isGone: () => boolean): Channel | undefined | Promise<Channel | undefined> {
    this.release();
    this.refusal = null;
    const full = new Set<number>();
    const first = choose(full);
    if (!first || !isLimited(first)) return first;
    return this.wait(choose, isGone, full, first);
  }

  private async wait(choose: Chooser, isGone: () => boolean, full: Set<number>, first: Channel): Promise<Channel | undefined> {
    const deadline = performance.now() + WAIT_MS;
    let pause = FIRST_PAUSE_MS;
    for (let proposed: Channel | undefined = first; ; proposed = choose(full)) {
      // A chooser that ignores `full` (a pinned channel) must not spin on a full channel.
      const channel = proposed && !full.has(proposed.id) ? proposed : undefined;
      if (!channel) {
        if (full.size === 0 || isGone()) return undefined;
        if (performance.now() + pause > deadline) {
          this.refusal = refuse(429, 'channel_saturated', undefined, 'rate_limit_error');
          return undefined;
        }
        await sleep(pause * (0.5 + Math.random()));
        pause = Math.min(pause * 2, MAX_PAUSE_MS);
        full.clear();
        continue;
      }
      if (!isLimited(channel)) return channel;
      const got = await this.ctx.limits.acquire({
        id: channel.id,
        rpm: channel.rpm_limit,
        concurrency: channel.max_concurrency,
      });
      if (got.ok) {
        this.lease = got.lease;
        return channel;
      }
      full.add(channel.id);
    }
  }

  /** Gives back the slot held, if any. */
  release(): void {
    if (!this.lease) return;
    this.ctx.limits.release(this.lease);
    this.lease = null;
  }
}
