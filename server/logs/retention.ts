/**
 * LogRetentionDays (0: keep every row): the process holding the jobs lease deletes the log rows
 * older than that many days, checked every hour. The rows go in batches of about 50 ms each (at
 * most 5,000 rows, server/logs/repository.ts), each in a short transaction of its own with a pause
 * after it, so the relay's log writes (and SQLite's single writer) get their turn between batches
 * however much is due. The totals the stat and the
 * dashboard read (log_totals, quota_data) stay: they are totals, not rows.
 */
import type { GatewayContext } from '../context.js';
import { deleteLogsBefore, MAX_CLEANUP_BATCH, type CleanupPace } from './repository.js';
import { deleteLogBodiesBefore } from './bodies-repository.js';

const DAY = 86_400;
const CHECK_MS = 3_600_000;
/** The first check after start, so a restart does not run it while the process warms up. */
const FIRST_CHECK_MS = 60_000;
const PAUSE_MS = 20;

export interface RetentionRun {
  /** Rows created before this (Unix seconds) were deleted. */
  before: number;
  deleted: number;
}

/**
 * Deletes the log rows created before `before` wherever they are: with LOG_SQL_DSN, those the main
 * database has not shipped yet first (or the shipper would bring them back), then the log database's.
 */
export async function deleteLogsEverywhere(
  ctx: Pick<GatewayContext, 'db' | 'logDb'>,
  before: number,
  pace?: CleanupPace,
): Promise<number> {
  const waiting = ctx.logDb === ctx.db ? 0 : await deleteLogsBefore(ctx.db, before, pace);
  return waiting + (await deleteLogsBefore(ctx.logDb, before, pace));
}

/**
 * One retention pass at `now` (Unix seconds): null when this process does not hold the jobs lease
 * or retention is off. `between` runs after each full batch (by default a short pause); `maxBatch`
 * caps a batch.
 */
export async function runLogRetention(
  ctx: GatewayContext,
  now: number,
  maxBatch = MAX_CLEANUP_BATCH,
  between: () => Promise<void> = () => new Promise((resolve) => setTimeout(resolve, PAUSE_MS)),
): Promise<RetentionRun | null> {
  const days = Math.floor(ctx.options.number('LogRetentionDays'));
  if (!ctx.leader.isLeader || days <= 0) return null;
  const before = now - days * DAY;
  const deleted = await deleteLogsEverywhere(ctx, before, { maxBatch, between });
  if (deleted > 0) {
    ctx.log.info(
      `log retention (${days} days): deleted ${deleted} log rows created before ${new Date(before * 1000).toISOString()}`,
    );
  }
  return { before, deleted };
}

/**
 * BodyLogRetentionDays (0: keep them): the kept request and answer bodies older than that many
 * days go, on the same hourly check as the log rows but on their own clock — bodies are large and
 * usually kept for far shorter than the rows. Null when not the jobs leader or retention is off.
 */
export async function runBodyLogRetention(ctx: GatewayContext, now: number): Promise<RetentionRun | null> {
  const days = Math.floor(ctx.options.number('BodyLogRetentionDays'));
  if (!ctx.leader.isLeader || days <= 0) return null;
  const before = now - days * DAY;
  const deleted = await deleteLogBodiesBefore(ctx.logDb, before);
  if (deleted > 0) ctx.log.info(`body log retention (${days} days): deleted ${deleted} kept bodies`);
  return { before, deleted };
}

/** Starts the hourly check on a master node; the returned function stops it and waits for a pass in progress. */
export function startLogRetention(
  ctx: GatewayContext,
  onError: (err: unknown) => void = (err) => ctx.log.error({ err }, 'log retention failed'),
): () => Promise<void> {
  if (!ctx.config.isMaster) return async () => undefined;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const check = () => {
    if (stopped) return;
    const now = Math.floor(Date.now() / 1000);
    running = Promise.all([runLogRetention(ctx, now).catch(onError), runBodyLogRetention(ctx, now).catch(onError)]);
  };
  const first = setTimeout(check, FIRST_CHECK_MS);
  const timer = setInterval(check, CHECK_MS);
  first.unref();
  timer.unref();
  return async () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(timer);
    await running;
  };
}
