/**
 * One exchange with an upstream, whatever the client's format and the channel's protocol: the
 * request passed through when the client's format says the channel takes it as it is
 * (server/relay/wire/<format>/edge.ts), otherwise converted to OpenAI's and, for a provider with a protocol of
 * its own, on through its adapter; the answer back the same way, through StreamEvents for streams.
 */
import type { ServerResponse } from 'node:http';
import type { GatewayContext } from '../../context.js';
import type { Channel } from '../../db/types.js';
import type { Usage } from '../../billing/pricing.js';
import type { RelayInput } from '../types.js';
import type { UpstreamErrorFields } from '../../http/errors.js';
import type { Endpoint } from '../endpoints.js';
import type { ChatAdapter, PreparedCall, ProviderDefinition, ProviderSettings } from '../providers/types.js';
import { claudeSettingsFrom } from '../wire/claude/convert-to-claude-messages.js';
import { geminiSettingsFrom } from '../wire/gemini/gemini-settings.js';
import { claudeErrorOf } from '../wire/claude/convert-claude-response.js';
import { parseGeminiError } from '../wire/gemini/convert-gemini-response.js';
import { createOpenAIStreamParser } from '../wire/openai/openai-stream-parser.js';
import { paramOverride } from './map-model.js';
import { receivedText } from '../../http/json-body.js';
import { withHeaderOverride } from '../../channels/header-override.js';
import { callUpstream, upstreamErrorMessage, type CancelSignal, type UpstreamResponse } from './call-upstream.js';
import { usageOf } from '../wire/openai/usage.js';
import { forwardConvertedJson, forwardConvertedStream, type AnswerHooks, type ForwardResult } from './forward-answer.js';
import { clientFormat } from '../wire/registry.js';
import type { KvStore } from '../../cache/kv.js';
import { restoreSignatures, sealCompletion, sealedParser, SignatureSealer } from '../wire/gemini/tool-call-signatures.js';
import { fitNativeBody, fitToModel, type FitTarget } from '../wire/fit-to-model.js';
import { capabilityOverridesFrom } from '../wire/model-capabilities.js';

/**
 * How a request travels: `native` when the channel takes the client's request as it is; `adapter`
 * when the channel has a protocol of its own (OpenAI's request in between); `openai` when the channel
 * takes the request converted to OpenAI's.
 */
type Route =
  | { kind: 'native' }
  | { kind: 'adapter'; adapter: ChatAdapter; body: Record<string, unknown> }
  | { kind: 'openai'; endpoint: Endpoint; body: Record<string, unknown> };

/** Whether a channel of this provider can serve the request, as it is or converted. */
export function servesRequest(provider: ProviderDefinition, input: RelayInput): boolean {
  return clientFormat(input.client).servedBy(provider, input);
}

/** Why a channel of this provider cannot serve a request it would take converted; null when that is not why. */
export function unservedWhy(provider: ProviderDefinition, input: RelayInput): string | null {
  return clientFormat(input.client).unservedWhy?.(provider, input) ?? null;
}

/** The adapter converting an endpoint's calls to the provider's own protocol, when it has one. */
export function adapterFor(provider: ProviderDefinition, endpoint: Endpoint): ChatAdapter | undefined {
  return endpoint === 'chat.completions' ? provider.chat : provider.adapters?.[endpoint];
}

function routeFor(provider: ProviderDefinition, input: RelayInput): Route {
  const format = clientFormat(input.client);
  if (format.passesThrough(provider, input)) return { kind: 'native' };
  const request = format.toOpenAI(input);
  const adapter = adapterFor(provider, request.endpoint);
  if (adapter) return { kind: 'adapter', adapter, body: request.body };
  return { kind: 'openai', ...(format.forOpenAIChannel ? format.forOpenAIChannel(request) : request) };
}

function providerSettings(ctx: GatewayContext, input: RelayInput): ProviderSettings {
  const claude = claudeSettingsFrom(ctx.options);
  return {
    claude: input.anthropicBeta ? { ...claude, clientBeta: input.anthropicBeta } : claude,
    gemini: geminiSettingsFrom(ctx.options),
  };
}

function withStreamUsage(body: Record<string, unknown>): Record<string, unknown> {
  const current = body.stream_options;
  return { ...body, stream_options: { ...(current && typeof current === 'object' ? current : {}), include_usage: true } };
}

/**
 * The body for a channel that takes the client's request as it is: untouched unless the model,
 * overrides or usage ask differ, the client sent what the family treats as absent, or `fitNative`
 * (the admin's `relay.fit_native_requests`) fitted it to the model — and always untouched with
 * `global.pass_through_request_enabled`.
 */
function nativeBody(
  input: RelayInput,
  channel: Channel,
  upstreamModel: string,
  askUsage: boolean,
  passThrough: boolean,
  fitNative?: (body: Record<string, unknown>) => Record<string, unknown> | null,
): string | Buffer {
  if (!input.body) return input.raw ?? Buffer.alloc(0);
  if (passThrough) return JSON.stringify(input.body);
  const format = clientFormat(input.client);
  const given = format.upstreamBody?.(input) ?? input.body;
  const fitted = fitNative?.({ ...given, model: upstreamModel }) ?? null;
  const source = fitted ?? given;
  const override = paramOverride(channel.param_override);
  // Unchanged: the text as the client sent it (re-serializing it would cost, not change, the call).
  if (upstreamModel === input.model && !override && !askUsage && !fitted) {
    return (source === input.body ? receivedText(source) : undefined) ?? JSON.stringify(source);
  }
  const model = format.mappedModel ? format.mappedModel(input, upstreamModel) : { model: upstreamModel };
  const body: Record<string, unknown> = { ...source, ...model, ...override };
  return JSON.stringify(askUsage ? withStreamUsage(body) : body);
}

const FIT_TARGETS: Record<ProviderDefinition['protocol'], FitTarget> = {
  openai: 'openai',
  claude: 'claude',
  gemini: 'gemini',
  task: 'other',
};

/** A converted chat request fitted to the upstream model (wire/fit-to-model.ts); the admin's param_override still wins. */
function fit(ctx: GatewayContext, input: RelayInput, body: Record<string, unknown>, provider: ProviderDefinition) {
  return fitToModel(input, body, FIT_TARGETS[provider.protocol], capabilityOverridesFrom(ctx.options));
}

/** Sends one call. `provider` is the definition for the upstream model (registry.providerFor with the model). */
export async function sendUpstream(
  ctx: GatewayContext,
  provider: ProviderDefinition,
  channel: Channel,
  input: RelayInput,
  upstreamModel: string,
  signal: CancelSignal,
): Promise<UpstreamResponse> {
  const route = routeFor(provider, input);
  const override = paramOverride(channel.param_override);
  if (route.kind === 'adapter') {
    const restored = await restoreSignatures({ ...route.body, model: upstreamModel }, ctx.kv);
    const fitted = route.adapter === provider.chat ? fit(ctx, input, restored, provider) : restored;
    const body = { ...fitted, ...override };
    const prepared = await route.adapter.request(channel, body, input.stream, providerSettings(ctx, input));
    const plan = { ...prepared, target: { ...prepared.target, headers: withHeaderOverride(prepared.target.headers, channel) } };
    return route.adapter.send
      ? route.adapter.send(plan, { channel, stream: input.stream, signal })
      : callUpstream(plan.target, plan.body, 'application/json', signal);
  }
  let call: PreparedCall;
  let contentType = 'application/json';
  let endpoint = input.endpoint;
  if (route.kind === 'openai') {
    endpoint = route.endpoint;
    const chat = endpoint === 'chat.completions';
    const converted = { ...route.body, model: upstreamModel };
    const fitted = chat ? fit(ctx, input, converted, provider) : converted;
    const body = { ...fitted, ...(chat ? { stream: input.stream } : {}), ...override };
    call = {
      target: provider.target(channel, endpoint, upstreamModel),
      body: JSON.stringify(chat && input.stream ? withStreamUsage(body) : body),
    };
  } else {
    const format = clientFormat(input.client);
    const askUsage = format.asksStreamUsage?.(provider, input) ?? false;
    const target = provider.target(channel, input.endpoint, upstreamModel, input.stream);
    const url = format.nativeUrl ? format.nativeUrl(target.url, input) : target.url;
    const passThrough = ctx.options.bool('global.pass_through_request_enabled');
    const fitNative = ctx.options.bool('relay.fit_native_requests')
      ? (body: Record<string, unknown>) =>
          fitNativeBody(input, body, FIT_TARGETS[provider.protocol], capabilityOverridesFrom(ctx.options))
      : undefined;
    call = {
      target: { url, headers: input.forwardHeaders ? { ...input.forwardHeaders, ...target.headers } : target.headers },
      body: nativeBody(input, channel, upstreamModel, askUsage, passThrough, fitNative),
    };
    contentType = input.contentType;
  }
  if (provider.prepare) {
    call = await provider.prepare({ ...call, channel, endpoint, model: upstreamModel, stream: input.stream });
  }
  return callUpstream(
    { ...call.target, headers: withHeaderOverride(call.target.headers, channel) },
    call.body,
    contentType,
    signal,
  );
}

export function errorMessageOf(provider: ProviderDefinition, input: RelayInput, text: string, status: number): string {
  const route = routeFor(provider, input);
  if (route.kind === 'adapter') return route.adapter.errorMessage(text, status);
  if (provider.protocol === 'gemini') return parseGeminiError(text)?.message ?? upstreamErrorMessage(text, status);
  if (provider.protocol === 'claude') {
    try {
      return claudeErrorOf(JSON.parse(text))?.message ?? upstreamErrorMessage(text, status);
    } catch {
      return upstreamErrorMessage(text, status);
    }
  }
  return upstreamErrorMessage(text, status);
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** An upstream error body's own fields (OpenAI's type/code/param, Claude's type, Google's status), when it has them. */
export function errorFieldsOf(provider: ProviderDefinition, input: RelayInput, body: string): UpstreamErrorFields | undefined {
  if (provider.protocol === 'gemini') {
    const status = text(parseGeminiError(body)?.status);
    return status ? { protocol: 'gemini', type: status } : undefined;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (provider.protocol === 'claude') {
    const type = text(claudeErrorOf(parsed)?.type);
    return type ? { protocol: 'claude', type } : undefined;
  }
  // An adapter's upstream speaks a protocol of its own, whatever its error looks like.
  if (provider.protocol !== 'openai' || routeFor(provider, input).kind === 'adapter') return undefined;
  const error = (parsed as { error?: unknown } | null)?.error;
  if (typeof error !== 'object' || error === null) return undefined;
  const { type, code, param } = error as Record<string, unknown>;
  return {
    protocol: 'openai',
    type: text(type),
    code: typeof code === 'string' || typeof code === 'number' || code === null ? code : undefined,
    param: text(param),
  };
}

/** `kv` keeps the thought signatures of converted answers' tool calls (tool-call-signatures.ts). */
export async function forwardAnswer(
  provider: ProviderDefinition,
  input: RelayInput,
  res: UpstreamResponse,
  out: ServerResponse,
  started: number,
  hooks: AnswerHooks,
  kv: KvStore,
): Promise<ForwardResult> {
  const format = clientFormat(input.client);
  const contentType = String(res.headers['content-type'] ?? '');
  const streaming = provider.isStream ? provider.isStream(contentType) : contentType.includes('text/event-stream');
  const decoder = provider.decoder?.();
  const route = routeFor(provider, input);
  if (route.kind === 'native') {
    const usageAsked = format.asksStreamUsage?.(provider, input) ?? false;
    return format.forwardNative({ input, res, out, started, hooks, streaming, decoder, usageAsked });
  }
  // Responses clients send Claude's thinking back themselves (encrypted reasoning items): none kept for them.
  const sealer = new SignatureSealer(kv, input.endpoint !== 'responses');
  if (streaming) {
    const parser =
      route.kind === 'adapter' ? sealedParser(route.adapter.stream(input.model, route.body), sealer) : createOpenAIStreamParser();
    const result = await forwardConvertedStream(res, out, started, {
      parser,
      serializer: format.serializer(input),
      hooks,
      decoder,
    });
    await sealer.settle();
    return result;
  }
  return forwardConvertedJson(res, out, started, async (payload) => {
    const { completion, usage }: { completion: unknown; usage: Usage | null } =
      route.kind === 'adapter'
        ? route.adapter.answer(payload, input.model, route.body)
        : { completion: payload, usage: usageOf(payload) };
    if (route.kind === 'adapter') {
      sealCompletion(completion, sealer);
      await sealer.settle();
    }
    return { completion: format.fromOpenAI(input, completion), usage };
  });
}
