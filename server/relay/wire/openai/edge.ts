/**
 * OpenAI-format clients: every `/v1/*` endpoint. Their bodies are already OpenAI's, so a channel
 * takes them as they are, except when it converts an endpoint through an adapter of its own, and
 * `/v1/responses` for channels without a Responses API, which goes as chat and comes back as a
 * Responses answer or event stream.
 */
import { randomBytes } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { convertResponsesToChat } from './responses-request.js';
import { convertChatToResponse } from './responses-answer.js';
import { createResponsesSseSerializer } from './responses-stream.js';
import { createOpenAIChunkSerializer } from './openai-chunks.js';
import { forwardBinary, forwardJson, forwardStream, inspectOpenAIEvent, isWatched } from '../../call/forward-answer.js';
import { passStream } from '../../call/pass-stream.js';
import type { Endpoint } from '../../endpoints.js';
import type { OpenAIChatRequest } from './openai-types.js';
import type { RelayInput } from '../../types.js';
import type { ClientFormatDefinition } from '../types.js';
import { convertOnce } from '../convert-once.js';
import { edgeCheck, type EdgeCheck } from '../edge-check.js';
import { OPENAI_SCHEMAS } from './edge-schemas.js';
import { withoutAbsent } from './absent-params.js';
import {
  compactUrl,
  compactionAnswer,
  compactionChatRequest,
  unconvertible,
  withReadableCompactions,
} from './responses-compact.js';

type Provider = Parameters<ClientFormatDefinition['servedBy']>[0];

function adapterFor(provider: Provider, endpoint: Endpoint) {
  return endpoint === 'chat.completions' ? provider.chat : provider.adapters?.[endpoint];
}

/** `/v1/responses` for a channel that does not serve it: converted through OpenAI chat. */
function convertsResponses(provider: Provider, endpoint: Endpoint): boolean {
  return (
    endpoint === 'responses' &&
    !provider.supports('responses') &&
    provider.supports('chat.completions') &&
    (provider.chat !== undefined || provider.protocol === 'openai')
  );
}

/** Why a Responses request a channel would take converted cannot go there (responses-compact.ts). */
function unservedWhy(provider: Provider, input: RelayInput): string | null {
  return convertsResponses(provider, input.endpoint) ? unconvertible(input.body, input.compact === true) : null;
}

function clientWantsUsage(input: RelayInput): boolean {
  return (input.body?.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
}

/** The closing chunk of a stream cut short: `content_filter`, then `[DONE]`. */
function contentFilterTail(input: RelayInput): string {
  if (input.endpoint === 'responses') return '';
  const created = Math.floor(Date.now() / 1000);
  const id = `chatcmpl-${randomBytes(12).toString('hex')}`;
  const chunk =
    input.endpoint === 'completions'
      ? {
          id,
          object: 'text_completion',
          created,
          model: input.model,
          choices: [{ index: 0, text: '', finish_reason: 'content_filter' }],
        }
      : {
          id,
          object: 'chat.completion.chunk',
          created,
          model: input.model,
          choices: [{ index: 0, delta: {}, finish_reason: 'content_filter' }],
        };
  return `data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`;
}

const checks = new Map<Endpoint, EdgeCheck>();
const anyObject = edgeCheck(Type.Object({}));

export const openaiFormat: ClientFormatDefinition = {
  check(endpoint, body) {
    let check = checks.get(endpoint);
    if (!check) {
      const schema = OPENAI_SCHEMAS[endpoint];
      check = schema ? edgeCheck(schema) : anyObject;
      checks.set(endpoint, check);
    }
    return check(body);
  },
  servedBy: (provider, input) =>
    provider.supports(input.endpoint) || (convertsResponses(provider, input.endpoint) && !unservedWhy(provider, input)),
  unservedWhy,
  passesThrough: (provider, input) =>
    !convertsResponses(provider, input.endpoint) && !(input.body && adapterFor(provider, input.endpoint)),
  upstreamBody(input) {
    if (!input.body) return input.body;
    if (input.endpoint === 'chat.completions' || input.endpoint === 'completions') return withoutAbsent(input.body);
    return input.endpoint === 'responses' ? withReadableCompactions(input.body) : input.body;
  },
  toOpenAI(input) {
    const body = openaiFormat.upstreamBody?.(input) ?? input.body ?? {};
    // Bodies were checked against their endpoint's shape at the edge (edge-schemas.ts).
    if (input.endpoint === 'chat.completions') return { endpoint: 'chat.completions', body: body as OpenAIChatRequest };
    if (input.endpoint !== 'responses') return { endpoint: input.endpoint, body };
    if (input.compact) return { endpoint: 'chat.completions', body: convertOnce(body, () => compactionChatRequest(body)) };
    return { endpoint: 'chat.completions', body: convertOnce(body, () => convertResponsesToChat(body)) };
  },
  fromOpenAI: (input, answer) =>
    input.compact
      ? compactionAnswer(answer, input.body)
      : input.endpoint === 'responses'
        ? convertChatToResponse(answer, { model: input.model, request: input.body })
        : answer,
  serializer: (input) =>
    input.endpoint === 'responses'
      ? createResponsesSseSerializer({ model: input.model, request: input.body })
      : createOpenAIChunkSerializer({ includeUsage: clientWantsUsage(input), model: input.model }),
  forwardNative({ input, res, out, started, hooks, streaming, decoder, usageAsked }) {
    if (streaming) {
      const clientAsked = clientWantsUsage(input);
      const inspect = inspectOpenAIEvent({ clientAsked, gatewayAsked: usageAsked });
      // Unwatched, in plain SSE: through untouched but for usage and the closing (pass-stream.ts).
      if (!decoder && !isWatched(out)) {
        return passStream(res, out, started, { inspect, hooks, stripNullUsage: usageAsked && !clientAsked });
      }
      return forwardStream(res, out, started, { inspect, hooks, decoder });
    }
    const contentType = String(res.headers['content-type'] ?? '');
    if (contentType.includes('json') || contentType.startsWith('text/')) return forwardJson(res, out, started);
    return forwardBinary(res, out, started);
  },
  nativeUrl: (url, input) => (input.compact ? compactUrl(url) : url),
  // Only chat and legacy completions take stream_options; the Responses API reports usage itself.
  asksStreamUsage: (provider, input) =>
    input.stream &&
    provider.streamUsageOption === true &&
    (input.endpoint === 'chat.completions' || input.endpoint === 'completions'),
  cutStreamTail: contentFilterTail,
};
