/**
 * One relayed request, end to end: price, hold, channel choice with retries down the priority tiers,
 * the upstream call, forwarding (a stream's delivered cost checkpointed as it goes), the settlement
 * with its log row, or the error row when nothing was served. Reads only caches on the way in; quota
 * moves through the journal (server/billing/journal.ts), which batches the writes of concurrent calls.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayContext } from '../../context.js';
import { billableQuota, quotaFor, type Price, type Usage } from '../../billing/pricing.js';
import type { Hold } from '../../billing/holds.js';
import type { Channel } from '../../db/types.js';
import { afterSettle, holdFor, isTrusted, payerOf, priceFor, reservationFor } from '../metering/charge.js';
import { AppError, refuse } from '../../http/errors.js';
import { relayErrors } from '../errors.js';
import { answerError } from '../entry/answer-error.js';
import { wireOf } from '../../http/wire.js';
import { providerFor } from '../providers/registry.js';
import { ChannelConfigError } from '../providers/channel-config-error.js';
import { mapModel, mapStatus } from './map-model.js';
import { CallCancel, readText, type UpstreamResponse } from './call-upstream.js';
import type { ForwardResult, StreamProgress } from './forward-answer.js';
import {
  errorFieldsOf,
  errorMessageOf,
  forwardAnswer,
  sendUpstream,
  servesRequest,
  unservedWhy,
} from './exchange-with-upstream.js';
import { promptText } from '../wire/openai/usage.js';
import { countTokens, estimateTokens } from '../metering/tokenizer.js';
import { reportUpstreamFailure, reportUpstreamNeutral, reportUpstreamSuccess } from './report-outcome.js';
import { withKey } from '../../channels/keys/picker.js';
import { consumeLog, holdRecord, writeErrorLog } from '../metering/log-rows.js';
import { checkPromptSensitive, guardCompletion } from '../guards/sensitive-words.js';
import { checkModelRateLimit, recordModelSuccess } from '../../ratelimit/model-limit.js';
import { ChannelSlots, chooser } from '../../ratelimit/channel-slots.js';
import type { RelayCaller, RelayInput } from '../types.js';
import { admitCaller } from '../routing/caller-limits.js';
import { FallbackChain, serveChain } from '../routing/fallbacks.js';
import { findAffinity, type Affinity } from '../routing/affinity.js';
import { observeCall, type CallWatch } from '../../observability/call-watch.js';

/** Failures of one channel (auth, quota, overload, outage) are worth another channel; 400s are the request's own. */
function retryable(status: number): boolean {
  return status >= 500 || status === 401 || status === 403 || status === 404 || status === 408 || status === 429;
}

/** The completion limit a request sets, in whichever client format it came. */
function maxTokensOf(body: Record<string, unknown>): number {
  const generation = body.generationConfig as { maxOutputTokens?: unknown } | undefined;
  const limit = body.max_tokens ?? body.max_completion_tokens ?? body.max_output_tokens ?? generation?.maxOutputTokens;
  const n = Number(limit ?? 0);
  return Number.isFinite(n) && n > 0 ? n : 0;
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
  // Each is undefined when no limit applies (most calls): nothing to wait for then.
  const limited = checkModelRateLimit(ctx, caller);
  if (limited) await limited;
  const admitting = admitCaller(ctx, reply, caller);
  if (admitting) await admitting;
  checkPromptSensitive(ctx, input);
  const price = priceFor(ctx, caller, input.model);
  const body = input.body ?? {};
  let promptEstimate: number | null = null;
  const estimatePrompt = () => (promptEstimate ??= estimateTokens(promptText(input.endpoint, body)));
  const times = perCallMultiplier(input, price);
  const amount = isTrusted(ctx, caller) ? 0 : reservationFor(ctx, price, estimatePrompt(), maxTokensOf(body), times);
  const holding = holdFor(ctx, payerOf(caller), amount, () => holdRecord(caller, input, price, request.ip));
  const hold = holding instanceof Promise ? await holding : holding;
  const slots = new ChannelSlots(ctx);
  // A pin that cannot be read is no pin: the call is routed as any other.
  let affinity: Affinity | null = null;
  try {
    const finding = findAffinity(ctx, request, caller, input);
    if (finding) affinity = await finding;
  } catch {
    // Routed without one.
  }
  try {
    const chain = new FallbackChain(ctx, caller, input.model);
    const watch = observeCall(ctx, request, reply, caller, input);
    await serveChain(reply.raw, chain, input, (i) =>
      serve(ctx, request, reply, {
        caller,
        input: i,
        price: i === input ? price : priceFor(ctx, caller, i.model),
        hold,
        times,
        estimatePrompt,
        slots,
        chain,
        affinity,
        watch,
      }),
    );
  } finally {
    slots.release();
    affinity?.end();
    // Whatever did not settle the hold (no channel, an error on the way) gives the reservation back.
    const releasing = hold.release();
    if (releasing) await releasing;
  }
}

interface Call {
  caller: RelayCaller;
  input: RelayInput;
  price: Price;
  hold: Hold;
  /** Items a fixed price is charged for. */
  times: number;
  estimatePrompt: () => number;
  /** The slot of the channel being tried, when it has limits. */
  slots: ChannelSlots;
  /** The models to fall back to when this one cannot be served. */
  chain: FallbackChain;
  /** The session's pinned channel and key, when an affinity rule keys the call. */
  affinity: Affinity | null;
  /** Tracing and body logs, when either is on for the call (server/observability). */
  watch: CallWatch | undefined;
}

async function serve(ctx: GatewayContext, request: FastifyRequest, reply: FastifyReply, call: Call): Promise<void> {
  const { caller, input } = call;
  const started = performance.now();
  let clientGone = false;
  const cancel = new CallCancel();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) {
      clientGone = true;
      cancel.cancel();
    }
  });

  const tried: number[] = [];
  const retries = caller.pinnedChannelId ? 0 : Math.max(0, ctx.options.number('RetryTimes'));
  let failure: AppError | null = null;
  for (let attempt = 0; attempt <= retries && !clientGone; attempt++) {
    const proposals = chooser(ctx, caller, input.model, attempt, tried);
    const taking = call.slots.take(call.affinity?.propose(proposals, input.model, attempt, tried) ?? proposals, () => clientGone);
    // A channel without limits is known at once: no turn of the event loop for it.
    const taken = taking instanceof Promise ? await taking : taking;
    if (!taken) {
      failure = call.slots.refusal ?? failure;
      break;
    }
    const channel = call.affinity?.keyFor(taken) ?? withKey(ctx, taken, caller.userId);
    if (tried.length > 0) ctx.metrics.retries.inc();
    tried.push(channel.id);
    const mapped = mapModel(channel.model_mapping, input.model);
    if (!mapped.ok) {
      failure = relayErrors.badBody(mapped.message);
      break;
    }
    const provider = providerFor(channel.type, mapped.model);
    if (!provider || !servesRequest(provider, input)) {
      reportUpstreamNeutral(ctx, channel);
      const why = provider ? unservedWhy(provider, input) : null;
      failure = why ? relayErrors.badBody(why) : relayErrors.channelUnsupported(channel.type);
      continue;
    }
    let res: UpstreamResponse;
    call.watch?.attempt(channel, provider.name, mapped.model, cancel);
    const sentAt = performance.now();
    try {
      res = await sendUpstream(ctx, provider, channel, input, mapped.model, cancel);
    } catch (err) {
      call.watch?.attemptFailed(0, (err as Error).message);
      if (clientGone) {
        reportUpstreamNeutral(ctx, channel);
        break;
      }
      if (err instanceof ChannelConfigError) {
        reportUpstreamFailure(ctx, channel, 401, err.message);
        failure = relayErrors.upstream(mapStatus(channel.status_code_mapping, 401), err.message);
      } else if (isCodingError(err)) {
        // A converter choking on a body the edge let through is our bug, not the upstream's: no
        // other channel would fare better, and the client is not shown JavaScript's words.
        request.log.error({ err, channel: channel.id }, 'request conversion failed');
        reportUpstreamNeutral(ctx, channel);
        failure = refuse(500, 'server.internal_error');
        break;
      } else {
        reportUpstreamFailure(ctx, channel, 0, (err as Error).message);
        ctx.metrics.upstreamErrors.inc({ channel: String(channel.id), status: '0' });
        failure = relayErrors.connection((err as Error).message);
      }
      continue;
    }
    if (res.statusCode >= 400) {
      ctx.metrics.upstreamErrors.inc({ channel: String(channel.id), status: String(res.statusCode) });
      const text = await readText(res);
      const message = errorMessageOf(provider, input, text, res.statusCode);
      reportUpstreamFailure(ctx, channel, res.statusCode, message);
      call.watch?.attemptFailed(res.statusCode, message);
      const status = mapStatus(channel.status_code_mapping, res.statusCode);
      failure = relayErrors.upstream(status, message, errorFieldsOf(provider, input, text));
      // An error class the model's fallback rule lists goes to the next model at once.
      const toNextModel = call.chain.skipsTiers(res.statusCode, message);
      if (retryable(res.statusCode) && !toNextModel) continue;
      break;
    }

    reply.hijack();
    request.servedBy = { model: input.model, channel: channel.id, stream: input.stream };
    guardCompletion(ctx, input, reply.raw);
    const log = { caller, input, tried, clientIp: request.ip, started, requestId: request.id };
    let outcome: ForwardResult;
    if (input.stream) ctx.metrics.inFlightNow.now.stream++;
    try {
      outcome = await forwardAnswer(
        provider,
        input,
        res,
        reply.raw,
        started,
        {
          isClientGone: () => clientGone,
          progress: input.stream ? checkpoints(ctx, call, channel.id) : undefined,
        },
        ctx.kv,
      );
    } catch (err) {
      // A whole answer broke off, or was no answer (an AppError), before any of it was sent: nothing served, nothing billed.
      const refused = err instanceof AppError ? err : null;
      if (refused) answerError(reply.raw, wireOf(request), input.endpoint, refused);
      else reply.raw.destroy();
      reportUpstreamFailure(ctx, channel, 0, (err as Error).message);
      request.log.warn({ err, channel: channel.id }, 'upstream answer broke off');
      const error = refused ?? relayErrors.interrupted((err as Error).message);
      call.watch?.failed(error);
      writeErrorLog(ctx, { ...log, error, useTimeMs: performance.now() - started });
      return;
    } finally {
      if (input.stream) ctx.metrics.inFlightNow.now.stream--;
    }
    if (outcome.interrupted && outcome.firstTokenMs === 0) {
      reportUpstreamFailure(ctx, channel, 0, outcome.interrupted);
      outcome.finish();
      const error = relayErrors.interrupted(outcome.interrupted);
      call.watch?.failed(error);
      writeErrorLog(ctx, { ...log, error, useTimeMs: performance.now() - started });
      return;
    }
    reportUpstreamSuccess(ctx, channel, (outcome.firstTokenMs > 0 ? started + outcome.firstTokenMs : performance.now()) - sentAt);
    call.affinity?.served(channel);
    await settleServed(ctx, request, reply, call, { channel, upstreamModel: mapped.model, outcome, tried, started });
    return;
  }

  if (clientGone) return;
  const error = failure ?? relayErrors.noChannel(input.model, caller.group);
  // The next model of the chain is tried: this one's failure is not the call's.
  if (call.chain.takes(error)) throw error;
  writeErrorLog(ctx, {
    caller,
    input,
    error,
    tried,
    clientIp: request.ip,
    useTimeMs: performance.now() - started,
    requestId: request.id,
  });
  call.watch?.failed(error);
  throw error;
}

/** A stream's checkpoints: the cost of what it has delivered so far, on its hold. */
function checkpoints(ctx: GatewayContext, call: Call, channelId: number): StreamProgress {
  const quotaPerUnit = ctx.options.number('QuotaPerUnit');
  return {
    due: () => call.hold.checkpointDue(),
    report(usage, counted) {
      const promptTokens = usage?.promptTokens || call.estimatePrompt();
      const completionTokens = Math.max(usage?.completionTokens ?? 0, counted);
      const usageSoFar: Usage = { promptTokens, completionTokens, cachedTokens: usage?.cachedTokens ?? 0 };
      const delivered = quotaFor(call.price, usageSoFar, quotaPerUnit) * call.times;
      call.hold.checkpoint(delivered, promptTokens, completionTokens, channelId);
    },
  };
}

/**
 * Charges a served answer in full with its log row, then completes it for the client. A settlement
 * that fails ends the answer with an error in the caller's format and an error row instead: the
 * client never waits on an answer that will not complete, and never sees one complete unbilled
 * (a hold the journal could not settle stays for the recovery to charge what was delivered).
 */
async function settleServed(
  ctx: GatewayContext,
  request: FastifyRequest,
  reply: FastifyReply,
  call: Call,
  a: { channel: Channel; upstreamModel: string; outcome: ForwardResult; tried: number[]; started: number },
): Promise<void> {
  const { caller, input, price } = call;
  const { outcome, channel } = a;
  let usage: Usage;
  let quota: number;
  try {
    usage = outcome.usage ?? {
      promptTokens: await countTokens(promptText(input.endpoint, input.body ?? {})),
      completionTokens: outcome.completionTokens,
    };
    quota = billableQuota(quotaFor(price, usage, ctx.options.number('QuotaPerUnit')) * call.times, input.model);
    const log = consumeLog(ctx, {
      requestId: request.id,
      caller,
      input,
      channel,
      price,
      usage,
      quota,
      upstreamModel: a.upstreamModel,
      tried: a.tried,
      clientIp: request.ip,
      useTimeMs: performance.now() - a.started,
      firstTokenMs: outcome.firstTokenMs,
      localCount: outcome.usage === null,
      clientAborted: outcome.clientAborted,
      interrupted: outcome.interrupted,
    });
    await call.hold.settle(quota, channel.id, log);
    call.watch?.settled({ channel, upstreamModel: a.upstreamModel, usage, quota, firstTokenMs: outcome.firstTokenMs });
  } catch (err) {
    request.log.error({ err, channel: channel.id }, 'settlement failed');
    const error = relayErrors.billingFailed();
    call.watch?.failed(error);
    const useTimeMs = performance.now() - a.started;
    writeErrorLog(ctx, { caller, input, error, tried: a.tried, clientIp: request.ip, useTimeMs, requestId: request.id });
    outcome.sendWaiting?.();
    answerError(reply.raw, wireOf(request), input.endpoint, error);
    return;
  }
  // Billed: whatever the bookkeeping after it does, the answer completes.
  try {
    ctx.metrics.billed.inc(input.model, () => ({ model: input.model }), quota);
    if (input.stream && outcome.firstTokenMs > 0)
      ctx.metrics.firstToken.observe(input.client, () => ({ format: input.client }), outcome.firstTokenMs / 1000);
    const tokens = usage.promptTokens + usage.completionTokens;
    afterSettle(ctx, {
      userId: caller.userId,
      tokenId: caller.tokenId,
      username: caller.username,
      channelId: channel.id,
      model: input.model,
      quota,
      tokens,
      promptTokens: usage.promptTokens,
      cachedTokens: usage.cachedTokens,
    });
    const counting = recordModelSuccess(ctx, caller, tokens);
    if (counting) await counting;
  } catch (err) {
    request.log.error({ err }, 'bookkeeping after settlement failed');
  } finally {
    outcome.finish();
  }
}

/**
 * An error of the gateway's own code (a TypeError reading a field of the wrong type…), as opposed
 * to the network's: those carry a code (ECONNREFUSED, UND_ERR_…), and fetch reports them as
 * "fetch failed".
 */
function isCodingError(err: unknown): boolean {
  if (!(err instanceof TypeError || err instanceof RangeError || err instanceof ReferenceError)) return false;
  return !('code' in err) && err.message !== 'fetch failed';
}
