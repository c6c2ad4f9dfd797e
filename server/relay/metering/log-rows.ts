/**
 * The log rows of relayed calls: the consume row a settlement writes with its quota, and the error
 * row of a call no channel served. Both go through the journal with the quota they record.
 */
import type { GatewayContext } from '../../context.js';
import type { Channel } from '../../db/types.js';
import type { Price, Usage } from '../../billing/pricing.js';
import type { HoldRecord } from '../../billing/holds.js';
import type { LogRow } from '../../billing/journal-ops.js';
import { LOG_CONSUME, LOG_ERROR } from '../../logs/types.js';
import type { AppError } from '../../http/errors.js';
import { REFUSALS } from '../../http/refusals.js';
import type { RelayCaller, RelayInput } from '../types.js';
import { fitNotes } from '../wire/fit-to-model.js';

export interface ServedCall {
  /** The HTTP request's id (X-Request-Id), so a client's report can be matched with its row. */
  requestId?: string;
  caller: RelayCaller;
  input: RelayInput;
  channel: Channel;
  price: Price;
  usage: Usage;
  quota: number;
  upstreamModel: string;
  tried: number[];
  clientIp: string;
  useTimeMs: number;
  firstTokenMs: number;
  localCount: boolean;
  clientAborted: boolean;
  /** Why the answer ended early (the upstream broke off): billed for what was delivered. */
  interrupted?: string;
}

/** What the log row's `other` starts from: the prices of the call. */
function priceDetails(price: Price): Record<string, unknown> {
  const details: Record<string, unknown> = {
    model_ratio: price.modelRatio,
    group_ratio: price.groupRatio,
    completion_ratio: price.completionRatio,
    cache_ratio: price.cacheRatio,
    model_price: price.modelPrice ?? -1,
  };
  if (price.unset) details.unset_price = true;
  return details;
}

function priceContent(price: Price): string {
  const base =
    price.modelPrice !== null
      ? `模型价格 ${price.modelPrice}，分组倍率 ${price.groupRatio}`
      : `模型倍率 ${price.modelRatio}，补全倍率 ${price.completionRatio}，分组倍率 ${price.groupRatio}`;
  return price.unset ? `${base}（模型未设置价格，按默认倍率计费）` : base;
}

/** The fixed fields of a call's log row, kept with its hold for a recovery. */
export function holdRecord(caller: RelayCaller, input: RelayInput, price: Price, clientIp: string): HoldRecord {
  return {
    username: caller.username,
    token_name: caller.tokenName,
    model_name: input.model,
    group: caller.group,
    ip: clientIp,
    is_stream: input.stream ? 1 : 0,
    other: priceDetails(price),
  };
}

/** The consume row of a served call; null when consume logs are switched off (LogConsumeEnabled). */
export function consumeLog(ctx: GatewayContext, call: ServedCall): LogRow | null {
  if (!ctx.options.bool('LogConsumeEnabled')) return null;
  const { caller, input, usage, price, channel } = call;
  // Built key by key, not spread: this runs for every call, and a spread object is slow to serialize.
  const other = priceDetails(price);
  other.cache_tokens = usage.cachedTokens ?? 0;
  other.cache_creation_tokens = usage.cacheWriteTokens ?? 0;
  other.frt = call.firstTokenMs;
  other.is_model_mapped = call.upstreamModel !== input.model;
  other.upstream_model_name = call.upstreamModel;
  if (input.requestedModel) other.requested_model = input.requestedModel;
  if (call.localCount) other.local_count = true;
  if (call.clientAborted) other.client_aborted = true;
  if (call.interrupted) other.interrupted = call.interrupted;
  // What the request lost or had mapped to suit the upstream model (wire/fit-to-model.ts).
  const fitted = fitNotes(input);
  if (fitted) other.request_fitted = fitted;
  other.admin_info = { use_channel: call.tried };
  if (call.requestId) other.request_id = call.requestId;
  return {
    user_id: caller.userId,
    created_at: Math.floor(Date.now() / 1000),
    type: LOG_CONSUME,
    content: call.interrupted ? `${priceContent(price)}；上游中断，按已送达部分计费` : priceContent(price),
    username: caller.username,
    token_name: caller.tokenName,
    token_id: caller.tokenId,
    model_name: input.model,
    quota: call.quota,
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    use_time: Math.round(call.useTimeMs / 1000),
    is_stream: input.stream ? 1 : 0,
    channel_id: channel.id,
    group: caller.group,
    ip: call.clientIp,
    other: JSON.stringify(other),
  };
}

/** The error row of a call that was not served (no channel answered, or the answer broke off before any of it). */
export function writeErrorLog(
  ctx: GatewayContext,
  e: {
    caller: RelayCaller;
    input: RelayInput;
    error: AppError;
    tried: number[];
    clientIp: string;
    useTimeMs: number;
    requestId?: string;
  },
): void {
  ctx.journal.log({
    user_id: e.caller.userId,
    created_at: Math.floor(Date.now() / 1000),
    type: LOG_ERROR,
    content: e.error.message,
    username: e.caller.username,
    token_name: e.caller.tokenName,
    token_id: e.caller.tokenId,
    model_name: e.input.model,
    use_time: Math.round(e.useTimeMs / 1000),
    is_stream: e.input.stream ? 1 : 0,
    channel_id: e.tried.at(-1) ?? 0,
    group: e.caller.group,
    ip: e.clientIp,
    other: JSON.stringify({
      status_code: e.error.status,
      admin_info: { use_channel: e.tried },
      ...(e.requestId ? { request_id: e.requestId } : {}),
      // The gateway's own refusal by its code, for the console to word; an upstream's words stay as they are.
      ...(!e.error.upstream && Object.hasOwn(REFUSALS, e.error.code)
        ? { refusal: { code: e.error.code, ...(e.error.params ? { params: e.error.params } : {}) } }
        : {}),
    }),
  });
}
