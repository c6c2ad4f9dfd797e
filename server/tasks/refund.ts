/**
 * Failing a task and giving its quota back, exactly once. In one transaction the task row moves to
 * FAILURE by a conditional UPDATE (`… WHERE status NOT IN ('SUCCESS','FAILURE')`) and, only when
 * that UPDATE changed the row, the whole charge is undone: the balance of the user and the token
 * credited, their used_quota and the channel's taken back, and a refund log row written under the
 * token's name. Every other write to a task row is conditional in the same way, so a finished row
 * never changes again: two pollers (or one polling twice) can see the same failure, but only one of
 * them refunds it, and a crash refunds either all of it or none.
 */
import { sql, type Transaction, type Updateable } from 'kysely';
import type { GatewayContext } from '../context.js';
import type { Database, MidjourneysTable, TasksTable } from '../db/types.js';
import { LOG_REFUND } from '../logs/types.js';
import { payerFromProperties } from './billing.js';

export const STATUS_SUCCESS = 'SUCCESS';
export const STATUS_FAILURE = 'FAILURE';
/** Statuses a task never leaves. */
export const FINISHED: readonly string[] = [STATUS_SUCCESS, STATUS_FAILURE];

/** The task tables: drawing tasks (Midjourney) and other platforms' tasks (Suno). */
export type TaskTable = 'midjourneys' | 'tasks';

interface FailedTask {
  id: number;
  user_id: number;
  quota: number;
  channel_id: number;
  properties: string | null;
  /** Seconds. */
  submitted: number;
}

export interface RefundDetail {
  model: string;
  taskId: string;
  reason: string;
}

type Fields<T extends TaskTable> = T extends 'midjourneys' ? Updateable<MidjourneysTable> : Updateable<TasksTable>;

async function markFailed(trx: Transaction<Database>, table: TaskTable, id: number, fields: object): Promise<FailedTask | null> {
  const result = await trx
    .updateTable(table)
    .set({ ...fields, status: STATUS_FAILURE } as never)
    .where('id', '=', id)
    .where('status', 'not in', FINISHED)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return null;
  // Read after the change: a finished row's quota can no longer move.
  const row = await trx
    .selectFrom(table)
    .select(['id', 'user_id', 'quota', 'channel_id', 'properties', 'submit_time'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const submitted = table === 'midjourneys' ? Math.floor(Number(row.submit_time) / 1000) : Number(row.submit_time);
  return { ...row, quota: Number(row.quota), submitted };
}

/**
 * Moves a task to FAILURE (with `fields`) and refunds its charge, unless it already finished.
 * Returns true when this call did it.
 */
export async function failAndRefund<T extends TaskTable>(
  ctx: GatewayContext,
  table: T,
  id: number,
  fields: Fields<T>,
  detail: RefundDetail,
): Promise<boolean> {
  const now = Math.floor(Date.now() / 1000);
  const task = await ctx.db.transaction().execute(async (trx) => {
    const failed = await markFailed(trx, table, id, fields);
    if (failed && failed.quota > 0) await refund(trx, failed, detail, now);
    return failed;
  });
  if (!task) return false;
  if (task.quota > 0) {
    const user = await ctx.users.get(task.user_id).catch(() => null);
    ctx.totals.add({
      userId: task.user_id,
      username: user?.username ?? '',
      channelId: task.channel_id,
      model: detail.model,
      quota: -task.quota,
      tokens: 0,
      count: 0,
      at: task.submitted,
    });
  }
  return true;
}

async function refund(trx: Transaction<Database>, task: FailedTask, detail: RefundDetail, now: number): Promise<void> {
  const payer = payerFromProperties(task.user_id, task.properties);
  const q = task.quota;
  await trx
    .updateTable('users')
    .set({ quota: sql`quota + ${q}`, used_quota: sql`used_quota - ${q}` })
    .where('id', '=', task.user_id)
    .execute();
  let tokenName = payer.tokenName;
  if (payer.tokenId > 0) {
    await trx
      .updateTable('tokens')
      .set(
        payer.unlimitedToken
          ? { used_quota: sql`used_quota - ${q}` }
          : { remain_quota: sql`remain_quota + ${q}`, used_quota: sql`used_quota - ${q}` },
      )
      .where('id', '=', payer.tokenId)
      .execute();
    tokenName ||= (await trx.selectFrom('tokens').select('name').where('id', '=', payer.tokenId).executeTakeFirst())?.name ?? '';
  }
  if (task.channel_id > 0) {
    await trx
      .updateTable('channels')
      .set({ used_quota: sql`used_quota - ${q}` })
      .where('id', '=', task.channel_id)
      .execute();
  }
  const user = await trx.selectFrom('users').select('username').where('id', '=', task.user_id).executeTakeFirst();
  await trx
    .insertInto('logs')
    .values({
      user_id: task.user_id,
      created_at: now,
      type: LOG_REFUND,
      content: `任务 ${detail.taskId} 失败，退还额度 ${q}（${detail.reason.slice(0, 200)}）`,
      username: user?.username ?? '',
      token_name: tokenName,
      token_id: payer.tokenId,
      model_name: detail.model,
      quota: q,
      channel_id: task.channel_id,
      other: JSON.stringify({ task_id: detail.taskId, admin_info: { use_channel: [task.channel_id] } }),
    })
    .execute();
}
