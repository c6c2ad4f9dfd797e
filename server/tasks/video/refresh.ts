/**
 * Asking a video's vendor about it once and applying the answer: progress written, a finished video
 * settled (settle.ts), a failed one (or one whose channel is gone) failed and refunded exactly once
 * (server/tasks/refund.ts). The poller does this for every unfinished video; a client reading its
 * own unfinished video does it too, so a status is never older than one round.
 */
import type { GatewayContext } from '../../context.js';
import type { Task } from '../../db/types.js';
import { withKey } from '../../channels/keys/picker.js';
import { withHeaderOverride } from '../../channels/header-override.js';
import { callPlatform, parseJson } from '../channel.js';
import { channelOf, type Applied } from '../poll-round.js';
import { failAndRefund } from '../refund.js';
import { videoPlatformOf } from './platforms.js';
import { updateUnfinishedVideo } from './repository.js';
import { completeVideo } from './settle.js';
import { videoProperties } from './view.js';

const QUERY_TIMEOUT_MS = 30_000;

function fail(ctx: GatewayContext, row: Task, reason: string, now: number): Promise<boolean> {
  const fields = { progress: '100%', finish_time: now, updated_at: now, fail_reason: reason.slice(0, 1000) };
  return failAndRefund(ctx, 'tasks', row.id, fields, { model: videoProperties(row).model, taskId: row.task_id, reason });
}

export async function refreshVideo(ctx: GatewayContext, row: Task, now: number, signal?: AbortSignal): Promise<Applied> {
  const stored = await channelOf(ctx, row.channel_id);
  const channel = stored && withKey(ctx, stored, 0);
  const platform = channel && videoPlatformOf(channel.type);
  if (!channel || !platform) return (await fail(ctx, row, '渠道已删除', now)) ? 'refunded' : 'unchanged';
  const call = await platform.query(channel, videoProperties(row).upstream_id);
  const headers = withHeaderOverride(call.headers, channel);
  const answer = await callPlatform(call.url, headers, call.body, QUERY_TIMEOUT_MS, signal, call.inline);
  const state = platform.state(answer.status, parseJson(answer.text));
  if (!state) throw new Error(`channel ${channel.id}: ${platform.name} answered ${answer.status}: ${answer.text.slice(0, 200)}`);
  if (state.status === 'failed')
    return (await fail(ctx, row, state.error ?? 'video generation failed', now)) ? 'refunded' : 'unchanged';
  if (state.status === 'completed') return (await completeVideo(ctx, row, state, now)) ? 'updated' : 'unchanged';
  const progress = `${Math.round(state.progress)}%`;
  // The task list's own words (QUEUED, IN_PROGRESS) for the vendor's state.
  const status = state.status.toUpperCase();
  if (status === row.status && progress === row.progress) return 'unchanged';
  const started = status === 'IN_PROGRESS' && !row.start_time ? { start_time: now } : {};
  await updateUnfinishedVideo(ctx.db, row.id, { status, progress, updated_at: now, ...started });
  return 'updated';
}
