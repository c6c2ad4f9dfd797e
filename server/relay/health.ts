/**
 * Automatic channel disabling: with AutomaticDisableChannelEnabled and the channel's auto_ban,
 * an upstream 401, or an error naming one of AutomaticDisableKeywords (case-insensitive), sets the
 * channel to status 3 with the reason. Manual disables (status 2) are never touched.
 */
import type { GatewayContext } from '../context.js';
import type { Channel } from '../db/types.js';
import { setChannelStatus } from '../channels/status.js';

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

export function reportUpstreamFailure(ctx: GatewayContext, channel: Channel, status: number, message: string): void {
  if (!shouldDisable(ctx, channel, status, message)) return;
  setChannelStatus(ctx, channel.id, CHANNEL_AUTO_DISABLED, `${status}: ${message}`.slice(0, 500)).catch(() => undefined);
}
