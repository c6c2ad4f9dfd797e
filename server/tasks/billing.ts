/**
 * What an asynchronous task (Midjourney drawing, Suno music) costs and who pays for it: a fixed
 * price per call from the ModelPrice option (`mj_imagine`, `suno_music` …) × QuotaPerUnit × the
 * group ratio, debited atomically through the ledger before the upstream is asked, given back when
 * the upstream refuses, and recorded as a type-2 consume log. The payer (token) is kept on the task
 * row so that a later refund credits the same user and token.
 */
import type { GatewayContext } from '../context.js';
import { quotaFor, type Price } from '../billing/pricing.js';
import { checkModelRateLimit } from '../ratelimit/model-limit.js';
import { credit, debit, type Payer } from '../billing/ledger.js';
import { LOG_CONSUME } from '../relay/log.js';
import { relayErrors } from '../relay/errors.js';
import type { Caller } from '../relay/caller.js';
import { payerOf, priceFor } from '../relay/charge.js';
import { checkModelLimit, tokenCaller } from '../relay/request.js';

/** What the task row remembers of the payer (inside its `properties` JSON). */
export interface StoredPayer {
  token_id: number;
  unlimited_token: boolean;
}

export interface TaskCharge {
  caller: Caller;
  model: string;
  price: Price;
  quota: number;
  payer: Payer;
}

export function storedPayer(payer: Payer): StoredPayer {
  return { token_id: payer.tokenId, unlimited_token: payer.unlimitedToken };
}

/** The payer of a task row; rows without one are credited to the user alone. */
export function payerFromProperties(userId: number, properties: string | null): Payer {
  try {
    const parsed = JSON.parse(properties ?? '') as { payer?: Partial<StoredPayer> };
    const p = parsed.payer;
    if (p && typeof p.token_id === 'number') {
      return { userId, tokenId: p.token_id, unlimitedToken: p.unlimited_token === true };
    }
  } catch {
    /* no payer recorded */
  }
  return { userId, tokenId: 0, unlimitedToken: true };
}

/** Refuses a model the token may not use, then prices one call of it (refused when unpriced). */
function priceCall(ctx: GatewayContext, caller: Caller, model: string): { price: Price; quota: number } {
  checkModelLimit(caller, model);
  const price = priceFor(ctx, tokenCaller(caller), model);
  // A per-call task has no tokens: without a fixed price it costs nothing (self-use mode).
  const quota =
    price.modelPrice === null ? 0 : quotaFor(price, { promptTokens: 0, completionTokens: 0 }, ctx.options.number('QuotaPerUnit'));
  return { price, quota };
}

/** Takes the call's price from the user and the token, or refuses with the relay's quota errors. */
export async function charge(ctx: GatewayContext, caller: Caller, model: string): Promise<TaskCharge> {
  const { price, quota } = priceCall(ctx, caller, model);
  await checkModelRateLimit(ctx, { userId: caller.user.id, group: caller.group });
  const payer = payerOf(tokenCaller(caller));
  const result = await debit(ctx.db, payer, quota);
  if (!result.ok) throw result.reason === 'user_quota' ? relayErrors.userQuota() : relayErrors.tokenQuota();
  ctx.users.spent(caller.user.id, quota);
  return { caller, model, price, quota, payer };
}

/** Gives a charge back in full (the upstream refused or could not be reached). */
export async function giveBack(ctx: GatewayContext, c: TaskCharge): Promise<void> {
  await credit(ctx.db, c.payer, c.quota);
  ctx.users.spent(c.caller.user.id, -c.quota);
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

/** The usage counters and the type-2 log row of a charged task submission. */
export function logConsume(ctx: GatewayContext, e: ConsumeEntry): void {
  const { caller, model, price, quota } = e.charge;
  ctx.usage.usage({
    userId: caller.user.id,
    username: caller.user.username,
    tokenId: caller.token.id,
    channelId: e.channelId,
    model,
    quota,
    tokens: 0,
  });
  if (!ctx.options.bool('LogConsumeEnabled')) return;
  ctx.usage.log({
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
      admin_info: { use_channel: e.tried },
    }),
  });
}
