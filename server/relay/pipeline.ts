/**
 * One relayed request, end to end: price, pre-charge, channel choice with retries down the
 * priority tiers, the upstream call, forwarding, settlement and the log. Reads only caches on the
 * way in; the only synchronous database work is the atomic debit and credit of quota.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayContext } from '../context.js';
import { quotaFor, type Price, type Usage } from '../billing/pricing.js';
import { credit, debit } from '../billing/ledger.js';
import { payerOf, priceFor, settle } from './charge.js';
import type { Endpoint } from './endpoints.js';
import { RelayError, relayErrors } from './errors.js';
import { providerFor } from './providers/registry.js';
import { ChannelConfigError } from './providers/channel-config-error.js';
import { mapModel, mapStatus } from './model-mapping.js';
import { readText, type UpstreamResponse } from './upstream.js';
import type { ForwardResult } from './forward.js';
import { errorMessageOf, forwardAnswer, sendUpstream, servesEndpoint, type ClientFormat } from './exchange.js';
import { geminiChannelTakesEmbed } from './gemini-embed.js';
import { promptText } from './usage.js';
import { countTokens, estimateTokens } from './tokenizer.js';
import { reportUpstreamFailure } from './health.js';
import { writeRelayLog } from './log.js';
import { checkPromptSensitive, guardCompletion } from './sensitive.js';
import { checkModelRateLimit, recordModelSuccess } from '../ratelimit/model-limit.js';

/** Who pays, in the relay's terms (an sk- token, or the playground's console session). */
export interface RelayCaller {
  userId: number;
  username: string;
  group: string;
  tokenId: number;
  tokenName: string;
  unlimitedToken: boolean;
  /** Balance hints from the caches (not authoritative) for skipping the pre-charge. */
  userQuotaHint: number;
  tokenQuotaHint: number;
  acceptUnsetPrice: boolean;
  pinnedChannelId: number | null;
}

export interface RelayInput {
  endpoint: Endpoint;
  /** The parsed JSON body; null for multipart bodies sent on as `raw`. */
  body: Record<string, unknown> | null;
  raw: Buffer | null;
  contentType: string;
  model: string;
  stream: boolean;
  /** The client's wire format (OpenAI unless a native endpoint such as /v1/messages was called). */
  client: ClientFormat;
  /** Client headers a channel of the client's own protocol should see (e.g. `anthropic-beta`). */
  forwardHeaders?: Record<string, string>;
}

const TRUSTED_USD = 10;

/** Failures of one channel (auth, quota, overload, outage) are worth another channel; 400s are the request's own. */
function retryable(status: number): boolean {
  return status >= 500 || status === 401 || status === 403 || status === 404 || status === 408 || status === 429;
}

function estimateQuota(input: RelayInput, price: Price, quotaPerUnit: number): number {
  const body = input.body ?? {};
  const maxTokens = Number(body.max_tokens ?? body.max_completion_tokens ?? body.max_output_tokens ?? 0) || 0;
  const usage: Usage = { promptTokens: estimateTokens(promptText(input.endpoint, body)), completionTokens: maxTokens };
  const quota = quotaFor(price, usage, quotaPerUnit) * perCallMultiplier(input, price);
  // A priced call always reserves something, so an empty balance is refused before the upstream
  // is called (a body whose text the estimate cannot read would otherwise reserve nothing).
  return quota === 0 && !isFree(price) ? 1 : quota;
}

function isFree(price: Price): boolean {
  return price.groupRatio === 0 || (price.modelPrice !== null ? price.modelPrice === 0 : price.modelRatio === 0);
}

/** Fixed-price image calls cost once per image. */
function perCallMultiplier(input: RelayInput, price: Price): number {
  if (price.modelPrice === null || input.endpoint !== 'images.generations') return 1;
  const n = Number(input.body?.n ?? 1);
  return Number.isInteger(n) && n > 0 ? n : 1;
}

export async function relay(
  ctx: GatewayContext,
  request: FastifyRequest,
  reply: FastifyReply,
  caller: RelayCaller,
  input: RelayInput,
): Promise<void> {
  const started = performance.now();
  await checkModelRateLimit(ctx, caller);
  checkPromptSensitive(ctx, input);
  const price = priceFor(ctx, caller, input.model);
  const quotaPerUnit = ctx.options.number('QuotaPerUnit');
  const payer = payerOf(caller);

  const trusted =
    caller.userQuotaHint > TRUSTED_USD * quotaPerUnit &&
    (caller.unlimitedToken || caller.tokenQuotaHint > TRUSTED_USD * quotaPerUnit);
  const preQuota = trusted ? 0 : estimateQuota(input, price, quotaPerUnit);
  const pre = await debit(ctx.db, payer, preQuota);
  if (!pre.ok) throw pre.reason === 'user_quota' ? relayErrors.userQuota() : relayErrors.tokenQuota();

  let clientGone = false;
  const abort = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) {
      clientGone = true;
      abort.abort();
    }
  });

  const tried: number[] = [];
  const retries = caller.pinnedChannelId ? 0 : Math.max(0, ctx.options.number('RetryTimes'));
  let failure: RelayError | null = null;
  for (let attempt = 0; attempt <= retries && !clientGone; attempt++) {
    const channel = caller.pinnedChannelId
      ? ctx.channels.get(caller.pinnedChannelId)
      : ctx.channels.pick(caller.group, input.model, attempt, new Set(tried));
    if (!channel) break;
    tried.push(channel.id);
    const mapped = mapModel(channel.model_mapping, input.model);
    if (!mapped.ok) {
      failure = relayErrors.badBody(mapped.message);
      break;
    }
    const provider = providerFor(channel.type, mapped.model);
    if (!provider || !(servesEndpoint(provider, input.endpoint) || geminiChannelTakesEmbed(provider, input))) {
      failure = new RelayError(400, `渠道类型 ${channel.type} 不支持此接口`, 'channel_unsupported');
      continue;
    }
    let res: UpstreamResponse;
    try {
      res = await sendUpstream(ctx, provider, channel, input, mapped.model, abort.signal);
    } catch (err) {
      if (clientGone) break;
      if (err instanceof ChannelConfigError) {
        reportUpstreamFailure(ctx, channel, 401, err.message);
        failure = new RelayError(mapStatus(channel.status_code_mapping, 401), err.message, 'upstream_error', 'upstream_error');
      } else {
        failure = new RelayError(502, `上游连接失败：${(err as Error).message}`, 'upstream_connection_error');
      }
      continue;
    }
    if (res.statusCode >= 400) {
      const message = errorMessageOf(provider, input, await readText(res), res.statusCode);
      reportUpstreamFailure(ctx, channel, res.statusCode, message);
      failure = new RelayError(
        mapStatus(channel.status_code_mapping, res.statusCode),
        message,
        'upstream_error',
        'upstream_error',
      );
      if (retryable(res.statusCode)) continue;
      break;
    }

    reply.hijack();
    guardCompletion(ctx, input, reply.raw);
    let outcome: ForwardResult;
    try {
      outcome = await forwardAnswer(provider, input, res, reply.raw, started, () => clientGone);
    } catch (err) {
      // The answer broke off mid-way: bill nothing for it and close the client's connection.
      reply.raw.destroy();
      await credit(ctx.db, payer, preQuota);
      request.log.warn({ err, channel: channel.id }, 'upstream answer broke off');
      return;
    }
    const usage: Usage = outcome.usage ?? {
      promptTokens: await countTokens(promptText(input.endpoint, input.body ?? {})),
      completionTokens: outcome.completionTokens,
    };
    const actual = quotaFor(price, usage, quotaPerUnit) * perCallMultiplier(input, price);
    const charged = await settle(ctx, payer, preQuota, actual);
    writeRelayLog(ctx, {
      caller,
      input,
      channel,
      price,
      usage,
      quota: charged,
      upstreamModel: mapped.model,
      useTimeMs: performance.now() - started,
      firstTokenMs: outcome.firstTokenMs,
      tried,
      localCount: outcome.usage === null,
      clientIp: request.ip,
      clientAborted: outcome.clientAborted,
    });
    await recordModelSuccess(ctx, caller);
    outcome.finish();
    return;
  }

  await credit(ctx.db, payer, preQuota);
  if (clientGone) return;
  const error = failure ?? relayErrors.noChannel(input.model, caller.group);
  writeRelayLog(ctx, { caller, input, error, tried, clientIp: request.ip, useTimeMs: performance.now() - started });
  throw error;
}
