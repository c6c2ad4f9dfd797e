/**
 * One polling round of unfinished Suno tasks: first every task unfinished 24 hours after its
 * submission fails (refunded once); then the rest, grouped by channel, are asked of their channel
 * in batches through `POST /suno/fetch` and their status, progress, times, failure reason and
 * result data written back; a task that failed is refunded exactly once (server/tasks/refund.ts).
 */
import type { Updateable } from 'kysely';
import type { GatewayContext } from '../../context.js';
import type { Channel, Task, TasksTable } from '../../db/types.js';
import { baseUrl, callPlatform, platformHeaders, int, isRecord, parseJson, str } from '../channel.js';
import { FINISHED, STATUS_FAILURE, STATUS_SUCCESS, markTaskFailed, refundTask } from '../refund.js';
import type { PollOptions, PollStats } from '../poller.js';
import { SUNO_PLATFORM } from './submit.js';

/** A task still unfinished this long after submission has failed. */
export const SUNO_TIMEOUT_SECONDS = 24 * 3600;
const PAGE = 500;
const BATCH = 100;
const POLL_TIMEOUT_MS = 30_000;

async function fail(ctx: GatewayContext, row: Task, fields: Updateable<TasksTable>, reason: string): Promise<boolean> {
  const marked = await markTaskFailed(ctx, row.id, { ...fields, fail_reason: reason });
  if (!marked) return false;
  await refundTask(ctx, marked, { model: `suno_${row.action.toLowerCase()}`, taskId: row.task_id, reason });
  return true;
}

function unfinished(ctx: GatewayContext) {
  return ctx.db.selectFrom('tasks').selectAll().where('platform', '=', SUNO_PLATFORM).where('status', 'not in', FINISHED);
}

/** Fails and refunds every task submitted before the cut-off. */
async function timeOut(ctx: GatewayContext, nowSeconds: number, stats: PollStats): Promise<void> {
  for (;;) {
    const expired = await unfinished(ctx)
      .where('submit_time', '<', nowSeconds - SUNO_TIMEOUT_SECONDS)
      .orderBy('id')
      .limit(PAGE)
      .execute();
    for (const row of expired) {
      const fields = { progress: '100%', finish_time: nowSeconds, updated_at: nowSeconds };
      if (await fail(ctx, row, fields, '任务超时（24 小时未完成）')) stats.refunded++;
    }
    // Each row above has finished (here or elsewhere), so the next page holds only new ones.
    if (expired.length < PAGE) return;
  }
}

/** Applies one upstream task (suno-api's shape) to its row. */
export async function applySunoTask(ctx: GatewayContext, row: Task, t: Record<string, unknown>, nowSeconds: number) {
  const status = str(t.status).toUpperCase() || row.status;
  const finished = status === STATUS_SUCCESS || status === STATUS_FAILURE;
  const fields: Updateable<TasksTable> = {
    progress: str(t.progress) || (finished ? '100%' : row.progress),
    start_time: int(t.start_time) || row.start_time,
    finish_time: int(t.finish_time) || (finished ? row.finish_time || nowSeconds : row.finish_time),
    fail_reason: str(t.fail_reason) || row.fail_reason,
    data: t.data === undefined ? row.data : JSON.stringify(t.data),
  };
  if (status === STATUS_FAILURE) {
    return (await fail(ctx, row, { ...fields, updated_at: nowSeconds }, str(t.fail_reason) || '任务失败'))
      ? 'refunded'
      : 'unchanged';
  }
  const same = status === row.status && Object.entries(fields).every(([k, v]) => row[k as keyof Task] === v);
  if (same) return 'unchanged';
  await ctx.db
    .updateTable('tasks')
    .set({ ...fields, status, updated_at: nowSeconds })
    .where('id', '=', row.id)
    .where('status', 'not in', FINISHED)
    .execute();
  return 'updated';
}

async function channelOf(ctx: GatewayContext, id: number): Promise<Channel | null> {
  const cached = ctx.channels.get(id);
  if (cached) return cached;
  return (await ctx.db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

async function pollChannel(ctx: GatewayContext, channelId: number, rows: Task[], opts: PollOptions, stats: PollStats) {
  const nowSeconds = () => Math.floor(opts.now() / 1000);
  const channel = await channelOf(ctx, channelId);
  if (!channel) {
    for (const row of rows) {
      if (await fail(ctx, row, { progress: '100%', finish_time: nowSeconds(), updated_at: nowSeconds() }, '渠道已删除')) {
        stats.refunded++;
      }
    }
    return;
  }
  for (let i = 0; i < rows.length && !opts.signal.aborted; i += BATCH) {
    const batch = rows.slice(i, i + BATCH);
    const answer = await callPlatform(
      `${baseUrl(channel)}/suno/fetch`,
      platformHeaders(channel),
      { ids: batch.map((r) => r.task_id) },
      POLL_TIMEOUT_MS,
      opts.signal,
    );
    const parsed = parseJson(answer.text);
    if (answer.status !== 200 || !isRecord(parsed) || parsed.code !== 'success' || !Array.isArray(parsed.data)) {
      throw new Error(`channel ${channelId}: /suno/fetch answered ${answer.status}: ${answer.text.slice(0, 200)}`);
    }
    const byId = new Map<string, Record<string, unknown>>();
    for (const item of parsed.data) if (isRecord(item)) byId.set(str(item.task_id), item);
    for (const row of batch) {
      const t = byId.get(row.task_id);
      if (!t) continue;
      stats.polled++;
      const applied = await applySunoTask(ctx, row, t, nowSeconds());
      if (applied === 'refunded') stats.refunded++;
      else if (applied === 'updated') stats.updated++;
    }
  }
}

export async function pollSuno(ctx: GatewayContext, opts: PollOptions): Promise<PollStats> {
  const stats: PollStats = { polled: 0, updated: 0, refunded: 0 };
  await timeOut(ctx, Math.floor(opts.now() / 1000), stats);
  let after = 0;
  while (!opts.signal.aborted) {
    const rows = await unfinished(ctx).where('task_id', '!=', '').where('id', '>', after).orderBy('id').limit(PAGE).execute();
    if (rows.length === 0) break;
    after = rows.at(-1)!.id;
    const byChannel = new Map<number, Task[]>();
    for (const row of rows) byChannel.set(row.channel_id, [...(byChannel.get(row.channel_id) ?? []), row]);
    for (const [channelId, list] of byChannel) {
      if (opts.signal.aborted) break;
      await pollChannel(ctx, channelId, list, opts, stats).catch(opts.onError);
    }
    if (rows.length < PAGE) break;
  }
  return stats;
}
