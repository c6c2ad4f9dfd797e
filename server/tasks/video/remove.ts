/**
 * Deleting a video at its vendor when its owner deletes it, for vendors that keep files until told
 * (Sora). Best effort: the vendor's files expire anyway, so its trouble never keeps the owner's
 * deletion from happening.
 */
import { request } from 'undici';
import type { GatewayContext } from '../../context.js';
import type { Task } from '../../db/types.js';
import { withKey } from '../../channels/keys/picker.js';
import { withHeaderOverride } from '../../channels/header-override.js';
import { upstreamAgent } from '../../relay/call/call-upstream.js';
import { channelOf } from '../poll-round.js';
import { videoPlatformOf } from './platforms.js';
import { videoProperties } from './view.js';

const REMOVE_TIMEOUT_MS = 15_000;

export async function removeAtVendor(ctx: GatewayContext, row: Task): Promise<void> {
  const stored = await channelOf(ctx, row.channel_id);
  const channel = stored && withKey(ctx, stored, 0);
  const platform = channel && videoPlatformOf(channel.type);
  if (!channel || !platform?.remove) return;
  const call = platform.remove(channel, videoProperties(row).upstream_id);
  try {
    const res = await request(call.url, {
      method: 'DELETE',
      headers: withHeaderOverride(call.headers, channel),
      dispatcher: upstreamAgent,
      signal: AbortSignal.timeout(REMOVE_TIMEOUT_MS),
    });
    await res.body.dump();
  } catch (err) {
    ctx.log.warn({ err, task: row.task_id }, 'video removal at the vendor failed');
  }
}
