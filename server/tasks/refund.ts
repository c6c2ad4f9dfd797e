/**
 * Failing a task and giving its quota back, exactly once. In one transaction the task row moves to
 * FAILURE by a conditional UPDATE (`… WHERE status NOT IN ('SUCCESS','FAILURE')`) and, only when
 * that UPDATE changed the row, the whole charge is undone: the balance of the user and the token
 * credited, their used_quota and the channel's taken back, and a refund log row written under the
 * token's name. Every other write to a task row is conditional in the same way, so a finished row
 * never changes again: two pollers (or one polling twice) can see the same failure, but only one of
 * them refunds it, and a crash refunds either all of it or none.
 */
import type { Transaction, Updateable } from 'kysely';
import type { GatewayContext } from '../context.js';
import type { Database, MidjourneysTable, TasksTable } from '../db/types.js';
import { refundCharge } from '../billing/ledger.js';
import { logText, withText } from '../logs/messages.js';
import { recordLog } from '../logs/repository.js';
import { LOG_REFUND } from '../logs/types.js';
import { findTokenName } from '../tokens/repository.js';
import { findUsername } from '../users/repository.js';
import { payerFromProperties } from './billing.js';
import { markFailed, type FailedTask } from './repository.js';
import type { TaskTable } from './status.js';

export interface RefundDetail {
  model: string;
  taskId: string;
  reason: string;
}

type Fields<T extends TaskTable> = T extends 'midjourneys' ? Updateable<MidjourneysTable> : Updateable<TasksTable>;

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
    if (failed && failed.quota > 0) await refund(trx, ctx, failed, detail, now);
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

async function refund(
  trx: Transaction<Database>,
  { dbKind: kind, options }: Pick<GatewayContext, 'dbKind' | 'options'>,
  task: FailedTask,
  detail: RefundDetail,
  now: number,
): Promise<void> {
  const payer = payerFromProperties(task.user_id, task.properties);
  const q = task.quota;
  await refundCharge(trx, { ...payer, channelId: task.channel_id, quota: q });
  const tokenName = payer.tokenName || (payer.tokenId > 0 ? ((await findTokenName(trx, payer.tokenId)) ?? '') : '');
  await recordLog(trx, kind, {
    user_id: task.user_id,
    created_at: now,
    type: LOG_REFUND,

    username: (await findUsername(trx, task.user_id)) ?? '',
    token_name: tokenName,
    token_id: payer.tokenId,
    model_name: detail.model,
    quota: q,
    channel_id: task.channel_id,
    ...withText(logText(options, 'task_refund', { task_id: detail.taskId, quota: q, reason: detail.reason.slice(0, 200) }), {
      task_id: detail.taskId,
      admin_info: { use_channel: [task.channel_id] },
    }),
  });
}
