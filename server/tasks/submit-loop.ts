/**
 * The channel loop every task submission (Midjourney, Suno) shares, run once the call is charged:
 * the submission goes to the channel holding the task it follows up (that channel only, no
 * retries), or to channels chosen like relayed requests, one tier down per retry (`RetryTimes`;
 * none when the caller's key pins a channel), until one channel's answer settles it: the task kept
 * with its charge and consume log, or refused and the charge given back. A charge that no answer
 * settled is given back too.
 */
import type { GatewayContext } from '../context.js';
import type { Channel } from '../db/types.js';
import { relayErrors } from '../relay/errors.js';
import { reportUpstreamFailure, reportUpstreamSuccess } from '../relay/call/report-outcome.js';
import { withKey } from '../channels/keys/picker.js';
import { mapStatus } from '../relay/call/map-model.js';
import type { Transaction } from 'kysely';
import type { Database } from '../db/types.js';
import { keepCharge, type TaskCharge } from './billing.js';
import { recordModelSuccess } from '../ratelimit/model-limit.js';
import { ChannelSlots } from '../ratelimit/channel-slots.js';
import { callPlatform, pickChannel, platformHeaders, retryable, type UpstreamAnswer } from './channel.js';
import type { AppError } from '../http/errors.js';
import { taskErrors } from './errors.js';
import { withHeaderOverride } from '../channels/header-override.js';

const SUBMIT_TIMEOUT_MS = 120_000;

/** What one channel's answer means: the submission's result, or a failure and whether another channel may try. */
export type Attempt<T> = { result: T } | { failure: AppError; retry: boolean };

/** How an answer settles the charge; the loop never gives back a settled charge. */
export interface Settle {
  /**
   * The upstream took the task: the charge is kept with its consume log, in one transaction with
   * `store` (which writes the task row).
   */
  keep(action: string, taskId: string, store: (trx: Transaction<Database>) => Promise<void>): Promise<void>;
  /** The upstream refused the task: the charge is given back. */
  givenBack(): Promise<void>;
}

export interface Submission<T> {
  charged: TaskCharge;
  /** `performance.now()` when the request arrived, and the client's address (for the consume log). */
  started: number;
  clientIp: string;
  /** The platform's channel types. */
  types: ReadonlySet<number>;
  /** The caller's earlier task this submission follows up. */
  origin: { channel_id: number } | undefined;
  url: (channel: Channel) => string;
  body: unknown;
  /** The whole call for a channel, where it depends on the channel's vendor (videos); replaces `url` and `body`. */
  call?: (channel: Channel) => Promise<{ url: string; headers: Record<string, string>; body?: unknown }>;
  /** Reads one channel's answer, settling the charge through `settle` when the answer decides it. */
  answered: (channel: Channel, answer: UpstreamAnswer, settle: Settle) => Promise<Attempt<T>>;
}

export async function submitToChannels<T>(ctx: GatewayContext, s: Submission<T>): Promise<T> {
  const { caller, model } = s.charged;
  let settled = false;
  const tried: number[] = [];
  const settleOn = (channel: Channel): Settle => ({
    async keep(action, taskId, store) {
      settled = true;
      const entry = { charge: s.charged, channelId: channel.id, tried, clientIp: s.clientIp, action, taskId };
      await keepCharge(ctx, { ...entry, useTimeMs: performance.now() - s.started }, store);
      void recordModelSuccess(ctx, { userId: s.charged.caller.user.id, group: s.charged.caller.group });
    },
    async givenBack() {
      settled = true;
      await s.charged.hold.release();
    },
  });
  const slots = new ChannelSlots(ctx);
  try {
    const pinned = s.origin !== undefined || caller.pinnedChannelId !== null;
    const retries = pinned ? 0 : Math.max(0, ctx.options.number('RetryTimes'));
    let failure: AppError | null = null;
    for (let attempt = 0; attempt <= retries; attempt++) {
      const origin = s.origin?.channel_id;
      const channel = await slots.take(
        (full) => {
          if (origin === undefined) return pickChannel(ctx, caller, model, s.types, attempt, [...tried, ...full]);
          const stored = ctx.channels.get(origin);
          return stored && withKey(ctx, stored, caller.user.id);
        },
        () => false,
      );
      if (!channel) {
        failure = slots.refusal ?? (s.origin ? taskErrors.channelGone() : failure);
        break;
      }
      if (s.origin && channel.status !== 1) {
        failure = taskErrors.channelDisabled();
        break;
      }
      tried.push(channel.id);
      let answer;
      const sentAt = performance.now();
      try {
        const own = await s.call?.(channel);
        const c = own
          ? { ...own, headers: withHeaderOverride(own.headers, channel) }
          : { url: s.url(channel), headers: platformHeaders(channel), body: s.body };
        answer = await callPlatform(c.url, c.headers, c.body, SUBMIT_TIMEOUT_MS);
      } catch (err) {
        reportUpstreamFailure(ctx, channel, 0, (err as Error).message);
        failure = relayErrors.connection((err as Error).message);
        continue;
      }
      const attempted = await s.answered(channel, answer, settleOn(channel));
      if ('result' in attempted) {
        reportUpstreamSuccess(ctx, channel, performance.now() - sentAt);
        return attempted.result;
      }
      failure = attempted.failure;
      if (!attempted.retry) break;
    }
    throw failure ?? relayErrors.noChannel(model, caller.group);
  } finally {
    slots.release();
    if (!settled) await s.charged.hold.release();
  }
}

/**
 * An answer that failed on the channel's side: reported to the channel's health, its status mapped
 * through the channel's status-code mapping, retried on another channel when `retryable`.
 */
export function upstreamFailure(ctx: GatewayContext, channel: Channel, status: number, message: string): Attempt<never> {
  reportUpstreamFailure(ctx, channel, status, message);
  return {
    failure: relayErrors.upstream(mapStatus(channel.status_code_mapping, status >= 400 ? status : 502), message),
    retry: retryable(status),
  };
}
