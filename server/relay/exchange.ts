/**
 * One exchange with an upstream: the request as the provider wants it (passed through for
 * OpenAI-compatible providers, converted for those with a protocol of their own) and the answer
 * forwarded to the client in OpenAI's format.
 */
import type { ServerResponse } from 'node:http';
import type { GatewayContext } from '../context.js';
import type { Channel } from '../db/types.js';
import type { RelayInput } from './pipeline.js';
import type { ChatAdapter, ProviderDefinition, ProviderSettings } from './providers/types.js';
import { claudeSettingsFrom } from './providers/claude/convert-to-claude-messages.js';
import { geminiSettingsFrom } from './providers/gemini/gemini-settings.js';
import { createOpenAIChunkSerializer } from './protocol/openai-chunks.js';
import { paramOverride } from './model-mapping.js';
import { callUpstream, upstreamErrorMessage, type UpstreamResponse } from './upstream.js';
import {
  forwardBinary,
  forwardConvertedJson,
  forwardConvertedStream,
  forwardJson,
  forwardStream,
  type ForwardResult,
} from './forward.js';

/** The adapter converting this request, when the provider has its own protocol for it. */
function adapterFor(provider: ProviderDefinition, input: RelayInput): ChatAdapter | undefined {
  return input.endpoint === 'chat.completions' && input.body ? provider.chat : undefined;
}

function providerSettings(ctx: GatewayContext): ProviderSettings {
  return { claude: claudeSettingsFrom(ctx.options), gemini: geminiSettingsFrom(ctx.options) };
}

function clientWantsUsage(input: RelayInput): boolean {
  return (input.body?.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
}

/** The body for an OpenAI-compatible upstream: untouched unless the model, overrides or usage ask differ. */
function passThroughBody(input: RelayInput, channel: Channel, upstreamModel: string, askUsage: boolean): string | Buffer {
  if (!input.body) return input.raw ?? Buffer.alloc(0);
  const override = paramOverride(channel.param_override);
  if (upstreamModel === input.model && !override && !askUsage) return JSON.stringify(input.body);
  const body: Record<string, unknown> = { ...input.body, model: upstreamModel, ...override };
  if (askUsage) {
    const current = body.stream_options;
    body.stream_options = { ...(current && typeof current === 'object' ? current : {}), include_usage: true };
  }
  return JSON.stringify(body);
}

export function sendUpstream(
  ctx: GatewayContext,
  provider: ProviderDefinition,
  channel: Channel,
  input: RelayInput,
  upstreamModel: string,
  signal: AbortSignal,
): Promise<UpstreamResponse> {
  const adapter = adapterFor(provider, input);
  if (adapter && input.body) {
    const body = { ...input.body, model: upstreamModel, ...paramOverride(channel.param_override) };
    const plan = adapter.request(channel, body, input.stream, providerSettings(ctx));
    return callUpstream(plan.target, plan.body, 'application/json', signal);
  }
  // Only chat and legacy completions take stream_options; the Responses API reports usage itself.
  const askUsage =
    input.stream && provider.streamUsageOption && (input.endpoint === 'chat.completions' || input.endpoint === 'completions');
  return callUpstream(
    provider.target(channel, input.endpoint, upstreamModel),
    passThroughBody(input, channel, upstreamModel, askUsage),
    input.contentType,
    signal,
  );
}

export function errorMessageOf(provider: ProviderDefinition, input: RelayInput, text: string, status: number): string {
  const adapter = adapterFor(provider, input);
  return adapter ? adapter.errorMessage(text, status) : upstreamErrorMessage(text, status);
}

export function forwardAnswer(
  provider: ProviderDefinition,
  input: RelayInput,
  res: UpstreamResponse,
  out: ServerResponse,
  started: number,
  isClientGone: () => boolean,
): Promise<ForwardResult> {
  const contentType = String(res.headers['content-type'] ?? '');
  const adapter = adapterFor(provider, input);
  if (adapter) {
    if (contentType.includes('text/event-stream')) {
      return forwardConvertedStream(res, out, started, {
        parser: adapter.stream(input.model),
        serializer: createOpenAIChunkSerializer({ includeUsage: clientWantsUsage(input), model: input.model }),
        isClientGone,
      });
    }
    return forwardConvertedJson(res, out, started, (payload) => adapter.answer(payload, input.model));
  }
  if (contentType.includes('text/event-stream')) {
    return forwardStream(res, out, started, { dropUsageChunk: !clientWantsUsage(input), isClientGone });
  }
  if (contentType.includes('json') || contentType.startsWith('text/')) return forwardJson(res, out, started);
  return forwardBinary(res, out, started);
}
