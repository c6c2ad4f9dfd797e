/**
 * One exchange with an upstream, in whichever combination of formats the client and the channel
 * speak: passed through when they agree, otherwise converted through OpenAI chat (requests) and
 * StreamEvents (answers).
 */
import type { ServerResponse } from 'node:http';
import type { GatewayContext } from '../context.js';
import type { Channel } from '../db/types.js';
import type { Usage } from '../billing/pricing.js';
import type { RelayInput } from './types.js';
import type { Endpoint } from './endpoints.js';
import type { ChatAdapter, PreparedCall, ProviderDefinition, ProviderSettings } from './providers/types.js';
import { claudeSettingsFrom } from './providers/claude/convert-to-claude-messages.js';
import { geminiSettingsFrom } from './providers/gemini/gemini-settings.js';
import { claudeErrorOf, usageFromClaude } from './providers/claude/convert-claude-response.js';
import { createClaudeStreamParser } from './providers/claude/claude-stream.js';
import {
  convertFromClaudeRequest,
  convertToClaudeResponse,
  createClaudeSseSerializer,
} from './providers/claude/convert-from-claude-messages.js';
import type { ClaudeRequest } from './providers/claude/claude-api-types.js';
import { convertFromGeminiRequest, convertOpenAIToGeminiResponse } from './providers/gemini/convert-from-gemini-request.js';
import { createGeminiStreamParser, createGeminiStreamSerializer } from './providers/gemini/gemini-stream.js';
import { parseGeminiError, usageFromGemini } from './providers/gemini/convert-gemini-response.js';
import type { GeminiRequest, GeminiResponse } from './providers/gemini/gemini-api-types.js';
import type { OpenAIChatCompletion } from './protocol/openai-types.js';
import type { StreamEvent } from './protocol/events.js';
import { createOpenAIChunkSerializer } from './protocol/openai-chunks.js';
import { createOpenAIStreamParser } from './protocol/openai-stream-parser.js';
import { convertResponsesToChat } from './protocol/responses-request.js';
import { convertChatToResponse } from './protocol/responses-answer.js';
import { createResponsesSseSerializer } from './protocol/responses-stream.js';
import { paramOverride } from './model-mapping.js';
import {
  forwardGeminiEmbed,
  geminiEmbedAsOpenAI,
  geminiEmbedModelFields,
  geminiEmbedUrl,
  isGeminiEmbed,
} from './gemini-embed.js';
import { callUpstream, upstreamErrorMessage, type CancelSignal, type UpstreamResponse } from './upstream.js';
import { usageOf } from './usage.js';
import {
  forwardBinary,
  forwardConvertedJson,
  forwardConvertedStream,
  forwardJson,
  forwardStream,
  inspectOpenAIEvent,
  inspectWith,
  type AnswerHooks,
  type ForwardResult,
} from './forward.js';

/**
 * How a request travels: `native` when client and channel speak the same protocol; `adapter` when
 * the channel has its own protocol (OpenAI chat in between); `openai` when a non-OpenAI client
 * reaches an OpenAI-compatible channel.
 */
type Route =
  | { kind: 'native' }
  | { kind: 'adapter'; adapter: ChatAdapter; chat: Record<string, unknown> }
  | { kind: 'openai'; chat: Record<string, unknown> }
  /** A Gemini client's embeddings for an OpenAI-protocol channel, as an OpenAI /v1/embeddings body. */
  | { kind: 'embeddings'; body: Record<string, unknown> };

/**
 * A Claude, Gemini or Responses request as OpenAI chat, converted once per request: the route is
 * asked for more than once (to send, to read the answer, to read an error).
 */
const converted = new WeakMap<object, Record<string, unknown>>();
function asOpenAIChat(input: RelayInput, body: Record<string, unknown>): Record<string, unknown> {
  let chat = converted.get(body);
  if (!chat) {
    const result =
      input.endpoint === 'responses'
        ? convertResponsesToChat(body)
        : input.client === 'claude'
          ? convertFromClaudeRequest(body as unknown as ClaudeRequest)
          : convertFromGeminiRequest(body as unknown as GeminiRequest, { model: input.model, stream: input.stream });
    chat = result as unknown as Record<string, unknown>;
    converted.set(body, chat);
  }
  return chat;
}

/** `/v1/responses` for a channel that does not serve it: converted through OpenAI chat. */
function convertsResponses(provider: ProviderDefinition, endpoint: Endpoint): boolean {
  return (
    endpoint === 'responses' &&
    !provider.supports('responses') &&
    provider.supports('chat.completions') &&
    (provider.chat !== undefined || provider.protocol === 'openai')
  );
}

/** Whether a channel of this provider takes requests for the endpoint, passed through or converted. */
export function servesEndpoint(provider: ProviderDefinition, endpoint: Endpoint): boolean {
  return provider.supports(endpoint) || convertsResponses(provider, endpoint);
}

/** The adapter converting an endpoint's calls to the provider's own protocol, when it has one. */
export function adapterFor(provider: ProviderDefinition, endpoint: Endpoint): ChatAdapter | undefined {
  return endpoint === 'chat.completions' ? provider.chat : provider.adapters?.[endpoint];
}

function routeFor(provider: ProviderDefinition, input: RelayInput): Route {
  if (isGeminiEmbed(input) && provider.protocol !== 'gemini') {
    const body = geminiEmbedAsOpenAI(input.body, input.model);
    const adapter = adapterFor(provider, 'embeddings');
    return adapter ? { kind: 'adapter', adapter, chat: body } : { kind: 'embeddings', body };
  }
  if (input.body && input.client !== 'openai' && provider.protocol === input.client) return { kind: 'native' };
  if (input.body && (input.client !== 'openai' || convertsResponses(provider, input.endpoint))) {
    const chat = asOpenAIChat(input, input.body);
    return provider.chat ? { kind: 'adapter', adapter: provider.chat, chat } : { kind: 'openai', chat };
  }
  const adapter = adapterFor(provider, input.endpoint);
  if (adapter && input.body) return { kind: 'adapter', adapter, chat: input.body };
  return { kind: 'native' };
}

function providerSettings(ctx: GatewayContext): ProviderSettings {
  return { claude: claudeSettingsFrom(ctx.options), gemini: geminiSettingsFrom(ctx.options) };
}

function clientWantsUsage(input: RelayInput): boolean {
  return (input.body?.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
}

function withStreamUsage(body: Record<string, unknown>): Record<string, unknown> {
  const current = body.stream_options;
  return { ...body, stream_options: { ...(current && typeof current === 'object' ? current : {}), include_usage: true } };
}

/**
 * The body for a channel of the client's own protocol: untouched unless the model, overrides or
 * usage ask differ — and always untouched with `global.pass_through_request_enabled` (`passThrough`).
 */
function nativeBody(
  input: RelayInput,
  channel: Channel,
  upstreamModel: string,
  askUsage: boolean,
  passThrough: boolean,
): string | Buffer {
  if (!input.body) return input.raw ?? Buffer.alloc(0);
  if (passThrough) return JSON.stringify(input.body);
  const override = paramOverride(channel.param_override);
  if (upstreamModel === input.model && !override && !askUsage) return JSON.stringify(input.body);
  // Gemini embedding bodies name the model only inside batch requests.
  const model = isGeminiEmbed(input) ? geminiEmbedModelFields(input.body, upstreamModel) : { model: upstreamModel };
  const body: Record<string, unknown> = { ...input.body, ...model, ...override };
  return JSON.stringify(askUsage ? withStreamUsage(body) : body);
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
    const plan = await route.adapter.request(
      channel,
      { ...route.chat, model: upstreamModel, ...override },
      input.stream,
      providerSettings(ctx),
    );
    return route.adapter.send
      ? route.adapter.send(plan, { channel, stream: input.stream, signal })
      : callUpstream(plan.target, plan.body, 'application/json', signal);
  }
  let call: PreparedCall;
  let contentType = 'application/json';
  let endpoint = input.endpoint;
  if (route.kind === 'openai') {
    const body = { ...route.chat, model: upstreamModel, stream: input.stream, ...override };
    endpoint = 'chat.completions';
    call = {
      target: provider.target(channel, endpoint, upstreamModel),
      body: JSON.stringify(input.stream ? withStreamUsage(body) : body),
    };
  } else if (route.kind === 'embeddings') {
    call = {
      target: provider.target(channel, 'embeddings', upstreamModel),
      body: JSON.stringify({ ...route.body, model: upstreamModel, ...override }),
    };
  } else {
    // Only chat and legacy completions take stream_options; the Responses API reports usage itself.
    const askUsage =
      input.client === 'openai' &&
      input.stream &&
      provider.streamUsageOption &&
      (input.endpoint === 'chat.completions' || input.endpoint === 'completions');
    const target = provider.target(channel, input.endpoint, upstreamModel, input.stream);
    const url = isGeminiEmbed(input) ? geminiEmbedUrl(target.url, input.body) : target.url;
    const passThrough = ctx.options.bool('global.pass_through_request_enabled');
    call = {
      target: { url, headers: { ...input.forwardHeaders, ...target.headers } },
      body: nativeBody(input, channel, upstreamModel, askUsage, passThrough),
    };
    contentType = input.contentType;
  }
  if (provider.prepare) {
    call = await provider.prepare({ ...call, channel, endpoint, model: upstreamModel, stream: input.stream });
  }
  return callUpstream(call.target, call.body, contentType, signal);
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

/** The client's serializer for StreamEvents. */
function serializerFor(input: RelayInput): { push(event: StreamEvent): string; end(): string } {
  if (input.endpoint === 'responses') return createResponsesSseSerializer({ model: input.model, request: input.body });
  if (input.client === 'claude') return createClaudeSseSerializer({ model: input.model });
  if (input.client === 'gemini') return createGeminiStreamSerializer({ model: input.model });
  return createOpenAIChunkSerializer({ includeUsage: clientWantsUsage(input), model: input.model });
}

/** An OpenAI chat.completion in the client's format. */
function answerFor(input: RelayInput, completion: unknown): unknown {
  if (input.endpoint === 'responses') return convertChatToResponse(completion, { model: input.model, request: input.body });
  if (input.client === 'claude') return convertToClaudeResponse(completion, { model: input.model });
  if (input.client === 'gemini') return convertOpenAIToGeminiResponse(completion as OpenAIChatCompletion, input.model);
  return completion;
}

export function forwardAnswer(
  provider: ProviderDefinition,
  input: RelayInput,
  res: UpstreamResponse,
  out: ServerResponse,
  started: number,
  hooks: AnswerHooks,
): Promise<ForwardResult> {
  if (isGeminiEmbed(input)) {
    const adapter = provider.protocol === 'gemini' ? undefined : adapterFor(provider, 'embeddings');
    const asOpenAI = adapter && ((payload: unknown) => adapter.answer(payload, input.model).completion);
    return forwardGeminiEmbed(input, provider.protocol === 'gemini', res, out, started, asOpenAI);
  }
  const contentType = String(res.headers['content-type'] ?? '');
  const streaming = provider.isStream ? provider.isStream(contentType) : contentType.includes('text/event-stream');
  const decoder = provider.decoder?.();
  const route = routeFor(provider, input);
  if (route.kind !== 'native') {
    const parser = route.kind === 'adapter' ? route.adapter.stream(input.model) : createOpenAIStreamParser();
    if (streaming) return forwardConvertedStream(res, out, started, { parser, serializer: serializerFor(input), hooks, decoder });
    return forwardConvertedJson(res, out, started, (payload) => {
      const { completion, usage }: { completion: unknown; usage: Usage | null } =
        route.kind === 'adapter'
          ? route.adapter.answer(payload, input.model, route.chat)
          : { completion: payload, usage: usageOf(payload) };
      return { completion: answerFor(input, completion), usage };
    });
  }
  if (input.client === 'claude') {
    if (streaming) return forwardStream(res, out, started, { inspect: inspectWith(createClaudeStreamParser()), hooks, decoder });
    return forwardJson(res, out, started, (payload) => usageFromClaude((payload as { usage?: unknown } | null)?.usage));
  }
  if (input.client === 'gemini') {
    const parser = createGeminiStreamParser({ model: input.model });
    if (streaming) return forwardStream(res, out, started, { inspect: inspectWith(parser), hooks, decoder });
    return forwardJson(
      res,
      out,
      started,
      (payload) => usageFromGemini((payload as GeminiResponse | null)?.usageMetadata).billing,
    );
  }
  if (streaming)
    return forwardStream(res, out, started, { inspect: inspectOpenAIEvent(!clientWantsUsage(input)), hooks, decoder });
  if (contentType.includes('json') || contentType.startsWith('text/')) return forwardJson(res, out, started);
  return forwardBinary(res, out, started);
}
