/**
 * One polling round of unfinished Suno tasks: first every task unfinished 24 hours after its
 * submission fails (refunded once); then the rest, grouped by channel, are asked of their channel
 * in batches through `POST /suno/fetch` (server/tasks/poll-round.ts) and their status, progress,
 * times, failure reason and result data written back; a task that failed is refunded exactly once
 * (server/tasks/refund.ts).
 */
import type { Updateable } from 'kysely';
import type { GatewayContext } from '../../context.js';
import type { Task, TasksTable } from '../../db/types.js';
import { int, isRecord, str } from '../channel.js';
import { failAndRefund } from '../refund.js';
import { STATUS_FAILURE, STATUS_SUCCESS } from '../status.js';
import { pollRound, type Applied, type PollOptions, type PollStats } from '../poll-round.js';
import { listSubmittedBefore, listUnfinishedSuno, updateUnfinishedSunoTask } from './repository.js';

/** A task still unfinished this long after submission has failed. */
export const SUNO_TIMEOUT_SECONDS = 24 * 3600;
const PAGE = 500;

async function fail(ctx: GatewayContext, row: Task, fields: Updateable<TasksTable>, reason: string): Promise<boolean> {
  const detail = { model: `suno_${row.action.toLowerCase()}`, taskId: row.task_id, reason };
  return failAndRefund(ctx, 'tasks', row.id, { ...fields, fail_reason: reason }, detail);
}

/** Fails and refunds every task submitted before the cut-off. */
async function timeOut(ctx: GatewayContext, nowSeconds: number, stats: PollStats): Promise<void> {
  for (;;) {
    const expired = await listSubmittedBefore(ctx.db, nowSeconds - SUNO_TIMEOUT_SECONDS, PAGE);
    for (const row of expired) {
      const fields = { progress: '100%', finish_time: nowSeconds, updated_at: nowSeconds };
      if (await fail(ctx, row, fields, '任务超时（24 小时未完成）')) stats.refunded++;
    }
    // Each row above has finished (here or elsewhere), so the next page holds only new ones.
    if (expired.length < PAGE) return;
  }
}

/** Applies one upstream task (suno-api's shape) to its row. */
export async function applySunoTask(
  ctx: GatewayContext,
  row: Task,
  t: Record<string, unknown>,
  nowSeconds: number,
): Promise<Applied> {
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
  await updateUnfinishedSunoTask(ctx.db, row.id, { ...fields, status, updated_at: nowSeconds });
  return 'updated';
}

export async function pollSuno(ctx: GatewayContext, opts: PollOptions): Promise<PollStats> {
  const stats: PollStats = { polled: 0, updated: 0, refunded: 0 };
  const nowSeconds = () => Math.floor(opts.now() / 1000);
  await timeOut(ctx, nowSeconds(), stats);
  return pollRound(
    ctx,
    {
      path: '/suno/fetch',
      unfinished: (after, limit) => listUnfinishedSuno(ctx.db, after, limit),
      taskId: (row) => row.task_id,
      tasksOf: (answer) => (isRecord(answer) && answer.code === 'success' && Array.isArray(answer.data) ? answer.data : null),
      reportedId: (task) => str(task.task_id),
      orphaned: (row) => fail(ctx, row, { progress: '100%', finish_time: nowSeconds(), updated_at: nowSeconds() }, '渠道已删除'),
      apply: (row, task) => applySunoTask(ctx, row, task, nowSeconds()),
    },
    opts,
    stats,
  );
}
