/**
 * What the relay reports about one call for tracing and body logs, through a handful of hooks:
 * the attempts on upstream channels, their failures, the settlement, the error the client got.
 * `observeCall` answers undefined when neither is on for the call: the relay then does nothing more.
 * The span ends, and the bodies are stored, when the client's answer has closed.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { GatewayContext } from '../context.js';
import type { Channel } from '../db/types.js';
import type { Usage } from '../billing/pricing.js';
import type { AppError } from '../http/errors.js';
import type { RelayCaller, RelayInput } from '../relay/types.js';
import { tapAnswer, type AnswerTap } from './answer-tap.js';
import { operationOf, providerNameOf } from './gen-ai.js';
import { tracingOf, type SpanHandle, type Tracing } from './tracing.js';
import { setUpstreamTraceparent } from './upstream-trace.js';
import { bodyLogLimit, storeBodies } from './body-log.js';

export interface Settlement {
  channel: Channel;
  upstreamModel: string;
  usage: Usage;
  quota: number;
  firstTokenMs: number;
}

export interface CallWatch {
  /** An attempt on `channel` begins: `signal` is the call's cancel signal (its upstream call carries the trace). */
  attempt(channel: Channel, providerName: string, upstreamModel: string, signal: object): void;
  /** The attempt failed: the upstream's status (0: no answer) and message. */
  attemptFailed(status: number, message: string): void;
  settled(s: Settlement): void;
  failed(error: AppError): void;
}

export function observeCall(
  ctx: GatewayContext,
  request: FastifyRequest,
  reply: FastifyReply,
  caller: RelayCaller,
  input: RelayInput,
): CallWatch | undefined {
  const tracing = tracingOf(ctx);
  const keep = bodyLogLimit(ctx, request, caller);
  if (!tracing && keep === 0) return undefined;
  return new Watch(ctx, request, reply.raw, caller, input, tracing, keep);
}

class Watch implements CallWatch {
  private readonly tap: AnswerTap;
  private readonly span: SpanHandle | undefined;
  private readonly operation: string;
  private current: SpanHandle | undefined;
  private attempts = 0;
  private providerName: string | undefined;
  private error: AppError | undefined;

  constructor(
    private readonly ctx: GatewayContext,
    private readonly request: FastifyRequest,
    out: ServerResponse,
    private readonly caller: RelayCaller,
    private readonly input: RelayInput,
    private readonly tracing: Tracing | undefined,
    private readonly keep: number,
  ) {
    this.tap = tapAnswer(out, keep);
    this.operation = operationOf(input.endpoint);
    this.span = tracing?.startCall(`${this.operation} ${input.model}`, request.headers, {
      'gen_ai.operation.name': this.operation,
      'gen_ai.request.model': input.model,
      'gen_ai.request.max_tokens': numberOf(input.body?.max_tokens ?? input.body?.max_completion_tokens),
      'gen_ai.request.temperature': numberOf(input.body?.temperature),
      'gateway.request.id': request.id,
      'gateway.client_format': input.client,
      'gateway.stream': input.stream,
      'gateway.user.id': caller.userId,
      'gateway.user.name': caller.username,
      'gateway.token.id': caller.tokenId || undefined,
      'gateway.token.name': caller.tokenName || undefined,
      'gateway.group': caller.group,
    });
    out.once('close', () => this.close(out));
  }

  attempt(channel: Channel, providerName: string, upstreamModel: string, signal: object): void {
    this.current?.end();
    this.attempts++;
    this.providerName = providerNameOf(providerName);
    if (!this.span || !this.tracing) return;
    this.current = this.tracing.startChild(this.span, `${this.operation} ${upstreamModel}`, {
      'gen_ai.operation.name': this.operation,
      'gen_ai.provider.name': this.providerName,
      'gen_ai.system': this.providerName,
      'gen_ai.request.model': upstreamModel,
      'gateway.channel.id': channel.id,
      'gateway.channel.name': channel.name,
      'gateway.attempt': this.attempts,
    });
    setUpstreamTraceparent(signal, this.current.traceparent());
  }

  attemptFailed(status: number, message: string): void {
    if (!this.current) return;
    this.current.set({ 'http.response.status_code': status || undefined });
    this.current.fail(status ? String(status) : 'connection', message);
    this.current.end();
    this.current = undefined;
  }

  settled(s: Settlement): void {
    this.error = undefined;
    this.current?.set({ 'http.response.status_code': 200 });
    this.span?.set({
      'gen_ai.provider.name': this.providerName,
      'gen_ai.system': this.providerName,
      'gen_ai.usage.input_tokens': s.usage.promptTokens,
      'gen_ai.usage.output_tokens': s.usage.completionTokens,
      'gen_ai.usage.cache_read.input_tokens': s.usage.cachedTokens ?? 0,
      'gateway.channel.id': s.channel.id,
      'gateway.channel.name': s.channel.name,
      'gateway.upstream_model': s.upstreamModel,
      'gateway.quota': s.quota,
      'gateway.time_to_first_token_ms': s.firstTokenMs > 0 ? Math.round(s.firstTokenMs) : undefined,
    });
  }

  /** Kept until the answer closes: a fallback model may still serve the call after this. */
  failed(error: AppError): void {
    this.error = error;
  }

  private close(out: ServerResponse): void {
    this.current?.end();
    if (this.span && this.error) {
      this.span.set({ 'http.response.status_code': this.error.status });
      this.span.fail(this.error.code, this.error.message);
    }
    if (this.span) {
      const reasons = [...this.tap.finishReasons];
      this.span.set({
        'gen_ai.response.model': this.tap.responseModel,
        'gen_ai.response.finish_reasons': reasons.length > 0 ? reasons : undefined,
        'gateway.retries': Math.max(0, this.attempts - 1),
        'gateway.attempts': this.attempts,
        'gateway.answer_bytes': this.tap.bytes,
        'gateway.client_aborted': !out.writableFinished || undefined,
      });
      this.span.end();
    }
    if (this.keep > 0) storeBodies(this.ctx, this.request, this.caller, this.input, this.tap, this.keep);
  }
}

function numberOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
