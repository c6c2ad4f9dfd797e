/**
 * Failing a task and giving its quota back, exactly once. The task row is first moved to FAILURE
 * by a conditional UPDATE (`… WHERE status NOT IN ('SUCCESS','FAILURE')`); only the caller whose
 * UPDATE changed the row credits the quota and writes the type-6 refund log. Every other write to
 * a task row is conditional in the same way, so a finished row never changes again: two pollers
 * (or one polling twice) can see the same failure, but only one of them refunds it.
 */
import type { Updateable } from 'kysely';
import type { GatewayContext } from '../context.js';
import type { MidjourneysTable, TasksTable } from '../db/types.js';
import { credit } from '../billing/ledger.js';
import { LOG_REFUND } from '../relay/log.js';
import { payerFromProperties } from './billing.js';

export const STATUS_SUCCESS = 'SUCCESS';
export const STATUS_FAILURE = 'FAILURE';
/** Statuses a task never leaves. */
export const FINISHED: readonly string[] = [STATUS_SUCCESS, STATUS_FAILURE];

export interface FailedTask {
  id: number;
  user_id: number;
  quota: number;
  channel_id: number;
  properties: string | null;
}

/** The task tables: drawing tasks (Midjourney) and other platforms' tasks (Suno). */
export type TaskTable = 'midjourneys' | 'tasks';

/** Moves a task to FAILURE (with `fields`) unless it already finished. Returns the row when this call did it. */
export function markFailed(
  ctx: GatewayContext,
  table: 'midjourneys',
  id: number,
  fields: Updateable<MidjourneysTable>,
): Promise<FailedTask | null>;
export function markFailed(
  ctx: GatewayContext,
  table: 'tasks',
  id: number,
  fields: Updateable<TasksTable>,
): Promise<FailedTask | null>;
export async function markFailed(
  ctx: GatewayContext,
  table: TaskTable,
  id: number,
  fields: Updateable<MidjourneysTable> | Updateable<TasksTable>,
): Promise<FailedTask | null> {
  const result = await ctx.db
    .updateTable(table)
    .set({ ...fields, status: STATUS_FAILURE })
    .where('id', '=', id)
    .where('status', 'not in', FINISHED)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return null;
  // Read after the change: a finished row's quota can no longer move.
  return ctx.db
    .selectFrom(table)
    .select(['id', 'user_id', 'quota', 'channel_id', 'properties'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

/** Credits a failed task's quota to its payer and writes the refund log. Call once per marked row. */
export async function refundTask(
  ctx: GatewayContext,
  task: FailedTask,
  detail: { model: string; taskId: string; reason: string },
): Promise<void> {
  if (task.quota <= 0) return;
  const payer = payerFromProperties(task.user_id, task.properties);
  await credit(ctx.db, payer, task.quota);
  ctx.users.spent(task.user_id, -task.quota);
  const user = await ctx.users.get(task.user_id).catch(() => null);
  ctx.usage.log({
    user_id: task.user_id,
    created_at: Math.floor(Date.now() / 1000),
    type: LOG_REFUND,
    content: `任务 ${detail.taskId} 失败，退还额度 ${task.quota}（${detail.reason.slice(0, 200)}）`,
    username: user?.username ?? '',
    token_id: payer.tokenId,
    model_name: detail.model,
    quota: task.quota,
    channel_id: task.channel_id,
    other: JSON.stringify({ task_id: detail.taskId, admin_info: { use_channel: [task.channel_id] } }),
  });
}
