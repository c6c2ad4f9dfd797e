/**
 * Automatic status changes made by the relay and the channel tests: auto-disable (3) and
 * auto-enable (1). A channel disabled by hand (2) is never touched, and the change is conditional
 * in SQL, so two processes racing on the same channel cannot undo each other's manual edit.
 */
import type { GatewayContext } from '../context.js';
import { nowSeconds } from '../db/index.js';
import { changeStatusFrom } from './repository.js';
import { CHANNEL_AUTO_DISABLED, CHANNEL_ENABLED } from './types.js';

type StatusContext = Pick<GatewayContext, 'db' | 'bus'>;

/**
 * Sets status 3 (from 1) or 1 (from 3) with `other_info` {status_reason, status_time}, rebuilds
 * the channel's abilities and tells every channel cache. Returns whether the channel changed.
 */
export async function setChannelStatus(
  ctx: StatusContext,
  id: number,
  status: typeof CHANNEL_AUTO_DISABLED | typeof CHANNEL_ENABLED,
  reason: string,
): Promise<boolean> {
  const from = status === CHANNEL_AUTO_DISABLED ? CHANNEL_ENABLED : CHANNEL_AUTO_DISABLED;
  const otherInfo = JSON.stringify({ status_reason: reason, status_time: nowSeconds() });
  const changed = await changeStatusFrom(ctx.db, id, from, status, otherInfo);
  if (changed) ctx.bus.publish('channel', String(id));
  return changed;
}
