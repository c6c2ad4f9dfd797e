/** Hourly totals written the way the gateway writes them: through HourlyTotals, roll-ups and all. */
import type { GatewayContext } from '../../server/context.js';

export interface HourlyRow {
  user_id: number;
  username: string;
  model_name: string;
  channel_id: number;
  /** The start of the hour. */
  created_at: number;
  token_used: number;
  count: number;
  quota: number;
}

export async function writeHourlyTotals(ctx: GatewayContext, rows: readonly HourlyRow[]): Promise<void> {
  for (const r of rows) {
    ctx.totals.add({
      userId: r.user_id,
      username: r.username,
      model: r.model_name,
      channelId: r.channel_id,
      at: r.created_at,
      tokens: r.token_used,
      count: r.count,
      quota: r.quota,
    });
  }
  await ctx.totals.flush();
}
