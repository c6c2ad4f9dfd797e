/**
 * One polling round of unfinished drawing tasks (server/tasks/poll-round.ts): every unfinished
 * task, grouped by channel, asked of its channel in batches through `POST /mj/task/list-by-condition`;
 * status, progress, image, buttons, times and failure reason written back. A task that failed is
 * refunded exactly once (server/tasks/refund.ts); a task whose channel was deleted fails too.
 */
import type { Updateable } from 'kysely';
import type { GatewayContext } from '../../context.js';
import type { Midjourney, MidjourneysTable } from '../../db/types.js';
import { int, isRecord, str } from '../channel.js';
import { failAndRefund } from '../refund.js';
import { STATUS_FAILURE, STATUS_SUCCESS } from '../status.js';
import { pollRound, type Applied, type PollOptions, type PollStats } from '../poll-round.js';
import { modelOf } from './actions.js';
import { listUnfinished, updateUnfinishedTask } from './repository.js';
import { readProperties } from './view.js';

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
  const detail = { model: modelOf(row.action), taskId: row.mj_id, reason };
  return failAndRefund(ctx, 'midjourneys', row.id, { ...fields, fail_reason: reason }, detail);
}

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
  await updateUnfinishedTask(ctx.db, row.id, { ...fields, status });
  return 'updated';
}

export function pollMidjourney(ctx: GatewayContext, opts: PollOptions): Promise<PollStats> {
  return pollRound(
    ctx,
    {
      path: '/mj/task/list-by-condition',
      unfinished: (after, limit) => listUnfinished(ctx.db, after, limit),
      taskId: (row) => row.mj_id,
      tasksOf: (answer) => (Array.isArray(answer) ? answer : null),
      reportedId: (task) => str(task.id),
      orphaned: (row) => fail(ctx, row, { progress: '100%', finish_time: opts.now() }, '渠道已删除'),
      apply: (row, task) => applyUpstreamTask(ctx, row, task, opts.now()),
    },
    opts,
  );
}
