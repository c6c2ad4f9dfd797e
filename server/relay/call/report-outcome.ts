/**
 * What the relay reports of each upstream call. Every outcome feeds the channel's health (and its
 * key's, on a multi-key channel): cool-downs and latency-aware routing (server/channels/health/).
 * Hard failures disable: with AutomaticDisableChannelEnabled and the channel's auto_ban, an upstream
 * 401, or an error naming one of AutomaticDisableKeywords (case-insensitive), sets the channel to
 * status 3 with the reason — or, on a multi-key channel, disables just the key that failed. Manual
 * disables (status 2) are never touched.
 */
import type { GatewayContext } from '../../context.js';
import type { Channel } from '../../db/types.js';
import { setChannelStatus } from '../../channels/status.js';
import { isChannelFailure } from '../../channels/health/tracker.js';
import { chosenKeyOf } from '../../channels/keys/picker.js';
import { disableFailedKey } from '../../channels/keys/disable.js';

export const CHANNEL_AUTO_DISABLED = 3;

export function shouldDisable(ctx: GatewayContext, channel: Channel, status: number, message: string): boolean {
  if (!ctx.options.bool('AutomaticDisableChannelEnabled') || channel.auto_ban !== 1 || channel.status !== 1) return false;
  if (status === 401) return true;
  const lower = message.toLowerCase();
  return ctx.options
    .string('AutomaticDisableKeywords')
    .split('\n')
    .map((k) => k.trim().toLowerCase())
    .some((k) => k !== '' && lower.includes(k));
}

/** A failed call: `status` 0 when no answer came (connection refused, reset, timed out). */
export function reportUpstreamFailure(ctx: GatewayContext, channel: Channel, status: number, message: string): void {
  const key = chosenKeyOf(channel);
  const reason = `${status}: ${message}`.slice(0, 500);
  ctx.health.record(channel.id, key?.hash ?? null, isChannelFailure(status) ? 'fail' : 'neutral', { message: reason });
  if (status === 0 || !shouldDisable(ctx, channel, status, message)) return;
  const done = key ? disableFailedKey(ctx, key, reason) : setChannelStatus(ctx, channel.id, CHANNEL_AUTO_DISABLED, reason);
  done.catch(() => undefined);
}

/** A served call; `latencyMs` is its time to the first token (the whole answer's when not streamed). */
export function reportUpstreamSuccess(ctx: GatewayContext, channel: Channel, latencyMs: number): void {
  ctx.health.record(channel.id, chosenKeyOf(channel)?.hash ?? null, 'ok', { latencyMs });
}

/**
 * A call that ended without deciding anything about the channel (the client left, the request was
 * refused before it was sent): a half-open channel waits for another call.
 */
export function reportUpstreamNeutral(ctx: GatewayContext, channel: Channel): void {
  ctx.health.record(channel.id, chosenKeyOf(channel)?.hash ?? null, 'neutral');
}
