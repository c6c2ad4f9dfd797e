/**
 * The background upstream model-update check (opt-in: CHANNEL_UPSTREAM_MODEL_UPDATE_TASK_ENABLED,
 * the family's variable, which is on by default there and off here). On the jobs leader, every
 * interval it detects each enabled channel that opted in and was not checked within the minimum
 * interval; a channel with upstream_model_update_auto_sync_enabled gets offered models added at
 * once. One run at a time; a channel that fails is left for the next run.
 */
import type { GatewayContext } from '../context.js';
import { nowSeconds } from '../db/index.js';
import { checkedChannels, detectChannel } from './upstream-check.js';
import { lastCheckTime, parseSettings } from './upstream-updates.js';

export interface CheckRun {
  checked: number;
  failed: number[];
  autoAdded: number;
}

/** One pass over the opted-in channels due for a check. */
export async function runUpstreamModelCheck(ctx: GatewayContext, minCheckSeconds: number): Promise<CheckRun> {
  const run: CheckRun = { checked: 0, failed: [], autoAdded: 0 };
  const now = nowSeconds();
  for (const channel of await checkedChannels(ctx)) {
    if (now - lastCheckTime(parseSettings(channel.settings)) < minCheckSeconds) continue;
    run.checked++;
    try {
      run.autoAdded += (await detectChannel(ctx, channel, true)).auto_added_models;
    } catch {
      run.failed.push(channel.id);
    }
  }
  return run;
}

/** Starts the periodic check when switched on and this is the master node; the returned function stops it. */
export function startUpstreamModelTask(
  ctx: GatewayContext,
  onError: (err: unknown) => void = (err) => ctx.log.error({ err }, 'upstream model update check failed'),
): () => Promise<void> {
  const { enabled, intervalMinutes, minCheckSeconds } = ctx.config.upstreamModelUpdate;
  if (!enabled || !ctx.config.isMaster) return async () => undefined;
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running || !ctx.leader.isLeader) return;
    running = runUpstreamModelCheck(ctx, minCheckSeconds)
      .catch(onError)
      .finally(() => (running = null));
  }, intervalMinutes * 60_000);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
