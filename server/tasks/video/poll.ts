/**
 * One polling round of unfinished videos: each asked of its vendor (refresh.ts); a video still
 * unfinished a day after submission fails and is refunded once. One task's trouble is reported and
 * ends only its part.
 */
import type { GatewayContext } from '../../context.js';
import type { PollOptions, PollStats } from '../poll-round.js';
import { failAndRefund } from '../refund.js';
import { refreshVideo } from './refresh.js';
import { listUnfinishedVideos } from './repository.js';
import { videoProperties } from './view.js';

export const VIDEO_TIMEOUT_SECONDS = 24 * 3600;
const PAGE = 200;

export async function pollVideos(ctx: GatewayContext, opts: PollOptions): Promise<PollStats> {
  const stats: PollStats = { polled: 0, updated: 0, refunded: 0 };
  let after = 0;
  while (!opts.signal.aborted) {
    const rows = await listUnfinishedVideos(ctx.db, after, PAGE);
    for (const row of rows) {
      if (opts.signal.aborted) break;
      const now = Math.floor(opts.now() / 1000);
      if (row.submit_time < now - VIDEO_TIMEOUT_SECONDS) {
        const fields = { progress: '100%', finish_time: now, updated_at: now, fail_reason: '任务超时（24 小时未完成）' };
        const detail = { model: videoProperties(row).model, taskId: row.task_id, reason: fields.fail_reason };
        if (await failAndRefund(ctx, 'tasks', row.id, fields, detail)) stats.refunded++;
        continue;
      }
      try {
        const applied = await refreshVideo(ctx, row, now, opts.signal);
        stats.polled++;
        if (applied === 'refunded') stats.refunded++;
        else if (applied === 'updated') stats.updated++;
      } catch (err) {
        opts.onError(err);
      }
    }
    if (rows.length < PAGE) break;
    after = rows.at(-1)!.id;
  }
  return stats;
}
