/** The log rows and usage counters of relayed requests (queued; written in batches). */
import type { GatewayContext } from '../context.js';
import type { Channel } from '../db/types.js';
import type { Price, Usage } from '../billing/pricing.js';
import type { RelayError } from './errors.js';
import type { RelayCaller, RelayInput } from './pipeline.js';

export const LOG_TOPUP = 1;
export const LOG_CONSUME = 2;
export const LOG_MANAGE = 3;
export const LOG_SYSTEM = 4;
export const LOG_ERROR = 5;
export const LOG_REFUND = 6;

interface Common {
  caller: RelayCaller;
  input: RelayInput;
  tried: number[];
  clientIp: string;
  useTimeMs: number;
}

export type RelayLog =
  | (Common & {
      channel: Channel;
      price: Price;
      usage: Usage;
      quota: number;
      upstreamModel: string;
      firstTokenMs: number;
      localCount: boolean;
      clientAborted: boolean;
      error?: undefined;
    })
  | (Common & { error: RelayError; channel?: undefined });

export function writeRelayLog(ctx: GatewayContext, entry: RelayLog): void {
  const { caller, input } = entry;
  const now = Math.floor(Date.now() / 1000);
  const base = {
    user_id: caller.userId,
    created_at: now,
    username: caller.username,
    token_name: caller.tokenName,
    token_id: caller.tokenId,
    model_name: input.model,
    use_time: Math.round(entry.useTimeMs / 1000),
    is_stream: input.stream ? 1 : 0,
    group: caller.group,
    ip: entry.clientIp,
  };
  if (entry.error) {
    ctx.usage.log({
      ...base,
      type: LOG_ERROR,
      content: entry.error.message,
      channel_id: entry.tried.at(-1) ?? 0,
      other: JSON.stringify({ status_code: entry.error.status, admin_info: { use_channel: entry.tried } }),
    });
    return;
  }
  const { usage, price, channel } = entry;
  ctx.usage.usage({
    userId: caller.userId,
    username: caller.username,
    tokenId: caller.tokenId,
    channelId: channel.id,
    model: input.model,
    quota: entry.quota,
    tokens: usage.promptTokens + usage.completionTokens,
  });
  if (!ctx.options.bool('LogConsumeEnabled')) return;
  const other = {
    model_ratio: price.modelRatio,
    group_ratio: price.groupRatio,
    completion_ratio: price.completionRatio,
    cache_ratio: price.cacheRatio,
    model_price: price.modelPrice ?? -1,
    cache_tokens: usage.cachedTokens ?? 0,
    cache_creation_tokens: usage.cacheWriteTokens ?? 0,
    frt: entry.firstTokenMs,
    is_model_mapped: entry.upstreamModel !== input.model,
    upstream_model_name: entry.upstreamModel,
    local_count: entry.localCount || undefined,
    client_aborted: entry.clientAborted || undefined,
    admin_info: { use_channel: entry.tried },
  };
  ctx.usage.log({
    ...base,
    type: LOG_CONSUME,
    content:
      price.modelPrice !== null
        ? `模型价格 ${price.modelPrice}，分组倍率 ${price.groupRatio}`
        : `模型倍率 ${price.modelRatio}，补全倍率 ${price.completionRatio}，分组倍率 ${price.groupRatio}`,
    quota: entry.quota,
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    channel_id: channel.id,
    other: JSON.stringify(other),
  });
}
