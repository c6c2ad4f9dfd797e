/**
 * What an asynchronous task (Midjourney drawing, Suno music) costs and who pays for it: a fixed
 * price per call from the ModelPrice option (`mj_imagine`, `suno_music` …) × QuotaPerUnit × the
 * group ratio, held (server/billing/holds.ts) before the upstream is asked, released when the
 * upstream refuses, and settled together with the task row and its type-2 consume log when the
 * upstream takes the task. The payer (token) is kept on the task row so that a later refund credits
 * the same user and token and names the token in its log.
 */
import type { FastifyReply } from 'fastify';
import type { Transaction } from 'kysely';
import type { GatewayContext } from '../context.js';
import type { Database } from '../db/types.js';
import { quotaFor, type Price } from '../billing/pricing.js';
import type { Hold } from '../billing/holds.js';
import type { Payer } from '../billing/journal-ops.js';
import { checkModelRateLimit } from '../ratelimit/model-limit.js';
import { LOG_CONSUME } from '../logs/types.js';
import type { Caller } from '../relay/entry/identify-caller.js';
import { afterSettle, holdFor, payerOf, priceFor } from '../relay/metering/charge.js';
import { checkModelLimit, tokenCaller } from '../relay/entry/read-request.js';
import { admitCaller } from '../relay/routing/caller-limits.js';

/** What the task row remembers of the payer (inside its `properties` JSON). */
export interface StoredPayer {
  token_id: number;
  unlimited_token: boolean;
  token_name?: string;
  /** Set when a subscription paid (its id and period), so a refund goes back to it. */
  subscription_id?: number;
  subscription_period?: number;
}

export interface TaskCharge {
  caller: Caller;
  model: string;
  price: Price;
  quota: number;
  payer: Payer;
  hold: Hold;
  /** What the consume log's `other` adds for this call (a video's seconds and price terms). */
  other?: Record<string, unknown>;
}

export function storedPayer(c: TaskCharge): StoredPayer {
  const sub = c.payer.subscription;
  return {
    token_id: c.payer.tokenId,
    unlimited_token: c.payer.unlimitedToken,
    token_name: c.caller.token.name,
    ...(sub ? { subscription_id: sub.id, subscription_period: sub.period } : {}),
  };
}

/** The payer of a task row (and its token's name, when recorded); rows without one are credited to the user alone. */
export function payerFromProperties(userId: number, properties: string | null): Payer & { tokenName: string } {
  try {
    const parsed = JSON.parse(properties ?? '') as { payer?: Partial<StoredPayer> };
    const p = parsed.payer;
    if (p && typeof p.token_id === 'number') {
      return {
        userId,
        tokenId: p.token_id,
        unlimitedToken: p.unlimited_token === true,
        tokenName: typeof p.token_name === 'string' ? p.token_name : '',
        ...(typeof p.subscription_id === 'number' && p.subscription_id > 0
          ? { subscription: { id: p.subscription_id, period: Number(p.subscription_period ?? 0) } }
          : {}),
      };
    }
  } catch {
    /* no payer recorded */
  }
  return { userId, tokenId: 0, unlimitedToken: true, tokenName: '' };
}

/** Refuses a model the token may not use, then prices one call of it (refused when unpriced). */
function priceCall(ctx: GatewayContext, caller: Caller, model: string): { price: Price; quota: number } {
  checkModelLimit(caller, model);
  const price = priceFor(ctx, tokenCaller(caller), model);
  // A per-call task has no tokens: without a fixed price it is billed by the model ratio's 0 tokens.
  const quota =
    price.modelPrice === null ? 0 : quotaFor(price, { promptTokens: 0, completionTokens: 0 }, ctx.options.number('QuotaPerUnit'));
  return { price, quota };
}

/**
 * Holds the call's price on the user and the token, or refuses with the relay's quota errors; a
 * caller that priced the call itself (a video's seconds) passes `priced`.
 */
export async function charge(
  ctx: GatewayContext,
  reply: FastifyReply,
  caller: Caller,
  model: string,
  priced?: { price: Price; quota: number; other?: Record<string, unknown> },
): Promise<TaskCharge> {
  const { price, quota } = priced ?? priceCall(ctx, caller, model);
  await checkModelRateLimit(ctx, { userId: caller.user.id, group: caller.group });
  // A submit is a call of the token as any other: its limits count it, in flight until answered.
  const relayCaller = tokenCaller(caller);
  await admitCaller(ctx, reply, relayCaller);
  const payer = payerOf(relayCaller);
  const clientIp = reply.request.ip;
  const hold = await holdFor(ctx, payer, quota, () => ({
    username: caller.user.username,
    token_name: caller.token.name,
    model_name: model,
    group: caller.group,
    ip: clientIp,
    is_stream: 0,
    other: { model_price: price.modelPrice ?? 0, group_ratio: price.groupRatio },
  }));
  // The hold's payer says which source (wallet or subscription) the charge was drawn from.
  return { caller, model, price, quota, payer: hold.row.payer, hold, ...(priced?.other ? { other: priced.other } : {}) };
}

export interface ConsumeEntry {
  charge: TaskCharge;
  channelId: number;
  tried: readonly number[];
  clientIp: string;
  useTimeMs: number;
  /** The task's action (IMAGINE, MUSIC …) and the upstream's task id, shown in the log. */
  action: string;
  taskId: string;
}

/**
 * Keeps the charge of a task the upstream took: the hold settled with its consume log in the same
 * transaction as `store` (which writes the task row).
 */
export async function keepCharge(
  ctx: GatewayContext,
  e: ConsumeEntry,
  store: (trx: Transaction<Database>) => Promise<void>,
): Promise<void> {
  const { caller, model, price, quota } = e.charge;
  const log = ctx.options.bool('LogConsumeEnabled')
    ? {
        user_id: caller.user.id,
        created_at: Math.floor(Date.now() / 1000),
        type: LOG_CONSUME,
        content: `模型价格 ${price.modelPrice ?? 0}，分组倍率 ${price.groupRatio}，操作 ${e.action}`,
        username: caller.user.username,
        token_name: caller.token.name,
        token_id: caller.token.id,
        model_name: model,
        quota,
        use_time: Math.round(e.useTimeMs / 1000),
        channel_id: e.channelId,
        group: caller.group,
        ip: e.clientIp,
        other: JSON.stringify({
          model_price: price.modelPrice ?? 0,
          group_ratio: price.groupRatio,
          task_action: e.action,
          task_id: e.taskId,
          ...e.charge.other,
          admin_info: { use_channel: e.tried },
        }),
      }
    : null;
  await e.charge.hold.settleWith(quota, e.channelId, log, store);
  afterSettle(ctx, {
    userId: caller.user.id,
    tokenId: caller.token.id,
    username: caller.user.username,
    channelId: e.channelId,
    model,
    quota,
    tokens: 0,
  });
}
