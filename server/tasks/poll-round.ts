/**
 * The steps every platform's polling round shares: the unfinished tasks read in pages (oldest
 * first) and grouped by channel; the tasks of a channel that was deleted failed; the others asked
 * of their channel in batches (`POST <path>` with `{ids}`) and each task the channel reports
 * applied to its row. One channel's trouble is reported through `onError` and ends only its part.
 */
import type { GatewayContext } from '../context.js';
import { findChannel } from '../channels/repository.js';
import { withKey } from '../channels/keys/picker.js';
import type { Channel } from '../db/types.js';
import { baseUrl, callPlatform, platformHeaders, isRecord, parseJson } from './channel.js';

export interface PollOptions {
  /** Milliseconds since the epoch. */
  now: () => number;
  signal: AbortSignal;
  onError: (err: unknown) => void;
}

export interface PollStats {
  /** Tasks the upstream reported on. */
  polled: number;
  updated: number;
  refunded: number;
}

const PAGE = 500;
const BATCH = 100;
const POLL_TIMEOUT_MS = 30_000;

/** What applying one upstream task did to its row. */
export type Applied = 'refunded' | 'updated' | 'unchanged';

export interface PollPlatform<R extends { id: number; channel_id: number }> {
  /** The upstream's batch query path, such as `/suno/fetch`. */
  path: string;
  /** Up to `limit` unfinished rows that have an upstream id, with a row id above `after`, by id. */
  unfinished: (after: number, limit: number) => Promise<R[]>;
  /** The upstream's id of a row's task. */
  taskId: (row: R) => string;
  /** The tasks in a readable answer to a batch query; null for an answer it cannot read. */
  tasksOf: (answer: unknown) => unknown[] | null;
  /** The upstream's id of one reported task. */
  reportedId: (task: Record<string, unknown>) => string;
  /** Fails and refunds a task whose channel was deleted; true when this call refunded it. */
  orphaned: (row: R) => Promise<boolean>;
  /** Applies one reported task to its row. */
  apply: (row: R, task: Record<string, unknown>) => Promise<Applied>;
}

/** The channel of a task, from the cache or (a channel this process has not loaded yet) the database. */
export async function channelOf(ctx: GatewayContext, id: number): Promise<Channel | null> {
  const cached = ctx.channels.get(id);
  if (cached) return cached;
  return (await findChannel(ctx.db, id)) ?? null;
}

async function pollChannel<R extends { id: number; channel_id: number }>(
  ctx: GatewayContext,
  platform: PollPlatform<R>,
  channelId: number,
  rows: R[],
  opts: PollOptions,
  stats: PollStats,
): Promise<void> {
  const stored = await channelOf(ctx, channelId);
  const channel = stored && withKey(ctx, stored, 0);
  if (!channel) {
    for (const row of rows) if (await platform.orphaned(row)) stats.refunded++;
    return;
  }
  for (let i = 0; i < rows.length && !opts.signal.aborted; i += BATCH) {
    const batch = rows.slice(i, i + BATCH);
    const answer = await callPlatform(
      `${baseUrl(channel)}${platform.path}`,
      platformHeaders(channel),
      { ids: batch.map(platform.taskId) },
      POLL_TIMEOUT_MS,
      opts.signal,
    );
    const tasks = answer.status === 200 ? platform.tasksOf(parseJson(answer.text)) : null;
    if (!tasks) throw new Error(`channel ${channelId}: ${platform.path} answered ${answer.status}: ${answer.text.slice(0, 200)}`);
    const byId = new Map<string, Record<string, unknown>>();
    for (const item of tasks) if (isRecord(item)) byId.set(platform.reportedId(item), item);
    for (const row of batch) {
      const t = byId.get(platform.taskId(row));
      if (!t) continue;
      stats.polled++;
      const applied = await platform.apply(row, t);
      if (applied === 'refunded') stats.refunded++;
      else if (applied === 'updated') stats.updated++;
    }
  }
}

/** One round over a platform's unfinished tasks, counted into `stats`. */
export async function pollRound<R extends { id: number; channel_id: number }>(
  ctx: GatewayContext,
  platform: PollPlatform<R>,
  opts: PollOptions,
  stats: PollStats = { polled: 0, updated: 0, refunded: 0 },
): Promise<PollStats> {
  let after = 0;
  while (!opts.signal.aborted) {
    const rows = await platform.unfinished(after, PAGE);
    if (rows.length === 0) break;
    after = rows.at(-1)!.id;
    const byChannel = new Map<number, R[]>();
    for (const row of rows) byChannel.set(row.channel_id, [...(byChannel.get(row.channel_id) ?? []), row]);
    for (const [channelId, list] of byChannel) {
      if (opts.signal.aborted) break;
      await pollChannel(ctx, platform, channelId, list, opts, stats).catch(opts.onError);
    }
    if (rows.length < PAGE) break;
  }
  return stats;
}
