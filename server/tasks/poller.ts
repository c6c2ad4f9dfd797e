/**
 * The background poller of unfinished tasks (Midjourney drawings, Suno music, videos): one round every
 * ~15 s on the process holding the jobs lease (server/cluster/leader.ts), rounds never overlapping. Interval and clock are injectable, and
 * `intervalMs: 0` makes a poller that runs only when asked (`pollOnce`), for tests.
 */
import type { GatewayContext } from '../context.js';
import { pollMidjourney } from './midjourney/poll.js';
import { pollSuno } from './suno/poll.js';
import { pollVideos } from './video/poll.js';
import type { PollOptions, PollStats } from './poll-round.js';

export interface RoundStats {
  midjourney: PollStats;
  suno: PollStats;
  video: PollStats;
}

export interface TaskPollerOptions {
  /** Between the end of one round and the start of the next; 0: only `pollOnce`. */
  intervalMs?: number;
  now?: () => number;
  onError?: (err: unknown) => void;
}

export interface TaskPoller {
  /** Runs one round now (after the round in progress, if any). */
  pollOnce(): Promise<RoundStats>;
  /** Stops the timer and waits for the round in progress, which is told to stop early. */
  stop(): Promise<void>;
}

export const DEFAULT_POLL_INTERVAL_MS = 15_000;

const EMPTY: PollStats = { polled: 0, updated: 0, refunded: 0 };

const pollers = new WeakMap<GatewayContext, TaskPoller>();

/** The poller the gateway started for this context (master node only). */
export function taskPollerOf(ctx: GatewayContext): TaskPoller | undefined {
  return pollers.get(ctx);
}

export function startTaskPoller(ctx: GatewayContext, options: TaskPollerOptions = {}): TaskPoller {
  const intervalMs = options.intervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  const abort = new AbortController();
  const poll: PollOptions = {
    now: options.now ?? Date.now,
    signal: abort.signal,
    onError: options.onError ?? ((err) => ctx.log.error({ err }, 'task poll failed')),
  };
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let current: Promise<RoundStats> = Promise.resolve({ midjourney: EMPTY, suno: EMPTY, video: EMPTY });

  const round = async (): Promise<RoundStats> => {
    const midjourney = await pollMidjourney(ctx, poll).catch((err: unknown) => (poll.onError(err), EMPTY));
    const suno = await pollSuno(ctx, poll).catch((err: unknown) => (poll.onError(err), EMPTY));
    const video = await pollVideos(ctx, poll).catch((err: unknown) => (poll.onError(err), EMPTY));
    return { midjourney, suno, video };
  };
  const pollOnce = (): Promise<RoundStats> => {
    current = current.then(round, round);
    return current;
  };
  const schedule = () => {
    if (stopped || intervalMs <= 0) return;
    timer = setTimeout(() => {
      timer = null;
      // Every process keeps the timer; only the one holding the jobs lease polls.
      void (ctx.leader.isLeader ? pollOnce() : Promise.resolve()).finally(schedule);
    }, intervalMs);
    timer.unref();
  };
  schedule();

  return {
    pollOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      abort.abort();
      await current.catch(() => undefined);
    },
  };
}

/** Starts the gateway's poller when this is the master node; the returned function stops it. */
export function startGatewayPoller(ctx: GatewayContext): () => Promise<void> {
  if (!ctx.config.isMaster) return async () => undefined;
  const poller = startTaskPoller(ctx);
  pollers.set(ctx, poller);
  return async () => {
    await poller.stop();
    pollers.delete(ctx);
  };
}
