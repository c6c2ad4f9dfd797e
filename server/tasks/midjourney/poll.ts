/**
 * One polling round of unfinished drawing tasks: every unfinished task (in pages, oldest first),
 * grouped by channel, asked of its channel in batches through `POST /mj/task/list-by-condition`;
 * status, progress, image, buttons, times and failure reason written back. A task that failed is
 * refunded exactly once (server/tasks/refund.ts); a task whose channel was deleted fails too.
 */
import type { Updateable } from 'kysely';
import type { GatewayContext } from '../../context.js';
import type { Channel, Midjourney, MidjourneysTable } from '../../db/types.js';
import { baseUrl, callPlatform, platformHeaders, int, isRecord, parseJson, str } from '../channel.js';
import { FINISHED, STATUS_FAILURE, STATUS_SUCCESS, markMidjourneyFailed, refundTask } from '../refund.js';
import { modelOf } from './actions.js';
import { readProperties } from './view.js';
import type { PollOptions, PollStats } from '../poller.js';

const PAGE = 500;
const BATCH = 100;
const POLL_TIMEOUT_MS = 30_000;

/** Upstream statuses the gateway stores as a failure. */
const FAILED_STATUSES = new Set([STATUS_FAILURE, 'CANCEL', 'CANCELLED']);

/** What one upstream task changes on its row (only what the upstream actually says). */
function changes(
  row: Midjourney,
  t: Record<string, unknown>,
  now: number,
): { status: string; fields: Updateable<MidjourneysTable> } {
  const upstreamStatus = str(t.status).toUpperCase();
  const status = FAILED_STATUSES.has(upstreamStatus) ? STATUS_FAILURE : upstreamStatus || row.status;
  const props = readProperties(row.properties);
  if (isRecord(t.properties)) props.upstream = t.properties;
  if (t.videoUrl !== undefined && t.videoUrl !== null) props.videoUrl = str(t.videoUrl);
  if (Array.isArray(t.videoUrls)) props.videoUrls = t.videoUrls;
  const finished = status === STATUS_SUCCESS || status === STATUS_FAILURE;
  const fields: Updateable<MidjourneysTable> = {
    progress: str(t.progress) || (finished ? '100%' : row.progress),
    prompt: str(t.prompt) || row.prompt,
    prompt_en: str(t.promptEn) || row.prompt_en,
    description: str(t.description) || row.description,
    start_time: int(t.startTime) || row.start_time,
    finish_time: int(t.finishTime) || (finished ? row.finish_time || now : row.finish_time),
    image_url: str(t.imageUrl) || row.image_url,
    buttons: Array.isArray(t.buttons) ? JSON.stringify(t.buttons) : row.buttons,
    properties: JSON.stringify(props),
    fail_reason: str(t.failReason) || row.fail_reason,
  };
  return { status, fields };
}

function unchanged(row: Midjourney, status: string, fields: Updateable<MidjourneysTable>): boolean {
  if (status !== row.status) return false;
  return Object.entries(fields).every(([key, value]) => row[key as keyof Midjourney] === value);
}

/** Fails one task and refunds it, unless it already finished (then nothing happens). */
async function fail(
  ctx: GatewayContext,
  row: Midjourney,
  fields: Updateable<MidjourneysTable>,
  reason: string,
): Promise<boolean> {
  const marked = await markMidjourneyFailed(ctx, row.id, { ...fields, fail_reason: reason });
  if (!marked) return false;
  await refundTask(ctx, marked, { model: modelOf(row.action), taskId: row.mj_id, reason });
  return true;
}

export type Applied = 'refunded' | 'updated' | 'unchanged';

/** Applies one upstream task to its row. */
export async function applyUpstreamTask(
  ctx: GatewayContext,
  row: Midjourney,
  t: Record<string, unknown>,
  now: number,
): Promise<Applied> {
  const { status, fields } = changes(row, t, now);
  if (status === STATUS_FAILURE)
    return (await fail(ctx, row, fields, str(t.failReason) || '任务失败')) ? 'refunded' : 'unchanged';
  if (unchanged(row, status, fields)) return 'unchanged';
  await ctx.db
    .updateTable('midjourneys')
    .set({ ...fields, status })
    .where('id', '=', row.id)
    .where('status', 'not in', FINISHED)
    .execute();
  return 'updated';
}

/** The channel of a task, from the cache or (a channel this process has not loaded yet) the database. */
async function channelOf(ctx: GatewayContext, id: number): Promise<Channel | null> {
  const cached = ctx.channels.get(id);
  if (cached) return cached;
  return (await ctx.db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

async function pollChannel(ctx: GatewayContext, channelId: number, rows: Midjourney[], opts: PollOptions, stats: PollStats) {
  const channel = await channelOf(ctx, channelId);
  if (!channel) {
    for (const row of rows) {
      if (await fail(ctx, row, { progress: '100%', finish_time: opts.now() }, '渠道已删除')) stats.refunded++;
    }
    return;
  }
  for (let i = 0; i < rows.length && !opts.signal.aborted; i += BATCH) {
    const batch = rows.slice(i, i + BATCH);
    const answer = await callPlatform(
      `${baseUrl(channel)}/mj/task/list-by-condition`,
      platformHeaders(channel),
      { ids: batch.map((r) => r.mj_id) },
      POLL_TIMEOUT_MS,
      opts.signal,
    );
    const parsed = parseJson(answer.text);
    if (answer.status !== 200 || !Array.isArray(parsed)) {
      throw new Error(`channel ${channelId}: list-by-condition answered ${answer.status}: ${answer.text.slice(0, 200)}`);
    }
    const byId = new Map<string, Record<string, unknown>>();
    for (const item of parsed) if (isRecord(item)) byId.set(str(item.id), item);
    for (const row of batch) {
      const t = byId.get(row.mj_id);
      if (!t) continue;
      stats.polled++;
      const applied = await applyUpstreamTask(ctx, row, t, opts.now());
      if (applied === 'refunded') stats.refunded++;
      else if (applied === 'updated') stats.updated++;
    }
  }
}

export async function pollMidjourney(ctx: GatewayContext, opts: PollOptions): Promise<PollStats> {
  const stats: PollStats = { polled: 0, updated: 0, refunded: 0 };
  let after = 0;
  while (!opts.signal.aborted) {
    const rows = await ctx.db
      .selectFrom('midjourneys')
      .selectAll()
      .where('status', 'not in', FINISHED)
      .where('mj_id', '!=', '')
      .where('id', '>', after)
      .orderBy('id')
      .limit(PAGE)
      .execute();
    if (rows.length === 0) break;
    after = rows.at(-1)!.id;
    const byChannel = new Map<number, Midjourney[]>();
    for (const row of rows) byChannel.set(row.channel_id, [...(byChannel.get(row.channel_id) ?? []), row]);
    for (const [channelId, list] of byChannel) {
      if (opts.signal.aborted) break;
      await pollChannel(ctx, channelId, list, opts, stats).catch(opts.onError);
    }
    if (rows.length < PAGE) break;
  }
  return stats;
}
