/**
 * A finished video settles on what the vendor made: the row moves to SUCCESS by a conditional UPDATE
 * (as every finishing write, server/tasks/refund.ts) with the quota of the reported seconds, and only
 * when that UPDATE changed the row is the difference to the charge on submit given back (or taken),
 * with its log row, in the same transaction. Two gateways reading the same answer settle it once.
 */
import type { GatewayContext } from '../../context.js';
import type { Task } from '../../db/types.js';
import { refundCharge } from '../../billing/ledger.js';
import { logText, withText } from '../../logs/messages.js';
import { recordLog } from '../../logs/repository.js';
import { LOG_CONSUME, LOG_REFUND } from '../../logs/types.js';
import { findUsername } from '../../users/repository.js';
import { payerFromProperties } from '../billing.js';
import { STATUS_SUCCESS } from '../status.js';
import { finishUnfinishedVideo } from './repository.js';
import type { VideoState } from './platform.js';
import { quotaOfSeconds } from './price.js';
import { videoProperties, type VideoProperties } from './view.js';

/** The quota of the seconds made, at the prices recorded on submit. */
function settledQuota(ctx: GatewayContext, row: Task, p: VideoProperties, made: number): number {
  if (p.price.per_second === null) return row.quota;
  const price = {
    perSecond: p.price.per_second,
    resolutionRatio: p.price.resolution_ratio,
    groupRatio: p.price.group_ratio,
    fixed: null,
  };
  return quotaOfSeconds(ctx, price, made);
}

/** Settles a completed video; true when this call did it. */
export async function completeVideo(ctx: GatewayContext, row: Task, state: VideoState, now: number): Promise<boolean> {
  const p = videoProperties(row);
  const made = state.seconds ? Math.ceil(state.seconds) : p.seconds;
  const quota = settledQuota(ctx, row, p, made);
  const delta = row.quota - quota;
  const properties: VideoProperties = { ...p, made_seconds: made, ...(state.file ? { file: state.file } : {}) };
  const done = await ctx.db.transaction().execute(async (trx) => {
    const finished = await finishUnfinishedVideo(trx, row.id, {
      status: STATUS_SUCCESS,
      progress: '100%',
      quota,
      finish_time: now,
      updated_at: now,
      properties: JSON.stringify(properties),
    });
    if (!finished) return false;
    if (delta === 0) return true;
    const payer = payerFromProperties(row.user_id, row.properties);
    // A negative refund takes the shortfall: billed = served, even past the balance.
    await refundCharge(trx, { ...payer, channelId: row.channel_id, quota: delta });
    const values = { task_id: row.task_id, seconds: made, asked: p.seconds, quota: Math.abs(delta) };
    await recordLog(trx, ctx.dbKind, {
      user_id: row.user_id,
      created_at: now,
      type: delta > 0 ? LOG_REFUND : LOG_CONSUME,
      username: (await findUsername(trx, row.user_id)) ?? '',
      token_name: payer.tokenName,
      token_id: payer.tokenId,
      model_name: p.model,
      quota: Math.abs(delta),
      channel_id: row.channel_id,
      ...withText(logText(ctx.options, delta > 0 ? 'video_settle_refund' : 'video_settle_charge', values), {
        task_id: row.task_id,
        video_seconds: made,
        admin_info: { use_channel: [row.channel_id] },
      }),
    });
    return true;
  });
  if (done && delta !== 0) {
    const user = await ctx.users.get(row.user_id).catch(() => null);
    ctx.totals.add({
      userId: row.user_id,
      username: user?.username ?? '',
      channelId: row.channel_id,
      model: p.model,
      quota: -delta,
      tokens: 0,
      count: 0,
      at: row.submit_time,
    });
  }
  return done;
}
