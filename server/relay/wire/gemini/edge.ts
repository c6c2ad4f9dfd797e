/**
 * Gemini-format clients (`/v1beta/models/{model}:generateContent|streamGenerateContent|embedContent|
 * batchEmbedContents`): passed through to Gemini channels (the action put back in the provider's URL,
 * batch embedding requests naming the upstream model), converted through OpenAI chat or embeddings
 * for every other channel and answered back in Google's shapes. Gemini's embedding answers carry no
 * token counts: the relay counts their prompt locally.
 */
import type { GeminiRequest, GeminiResponse } from './gemini-api-types.js';
import type { OpenAIChatCompletion, OpenAIEmbeddingsResponse } from '../openai/openai-types.js';
import { convertFromGeminiRequest, convertOpenAIToGeminiResponse } from './convert-from-gemini-request.js';
import { createGeminiStreamParser, createGeminiStreamSerializer } from './gemini-stream.js';
import { usageFromGemini } from './convert-gemini-response.js';
import {
  convertFromGeminiEmbedRequest,
  convertOpenAIToGeminiEmbedResponse,
  type GeminiEmbedAction,
} from './gemini-embeddings.js';
import type { GeminiBatchEmbedContentsRequest, GeminiEmbedContentRequest } from './gemini-api-types.js';
import { forwardJson, forwardStream, inspectWith, isWatched } from '../../call/forward-answer.js';
import { passStream, type PassRules } from '../../call/pass-stream.js';
import { SseParser } from '../sse.js';
import { isJsonObject } from './gemini-schema.js';
import type { RelayInput } from '../../types.js';
import type { ClientFormatDefinition } from '../types.js';
import { convertOnce } from '../convert-once.js';
import { edgeCheck } from '../edge-check.js';
import { GEMINI_BATCH_EMBED, GEMINI_EMBED, GEMINI_GENERATE } from './edge-schemas.js';
import { relayErrors } from '../../errors.js';

type Body = Record<string, unknown>;

const isEmbed = (input: RelayInput): boolean => input.endpoint === 'embeddings';

/** The action an embedding body is for: only batchEmbedContents bodies hold `requests`. */
function embedAction(body: Body): GeminiEmbedAction {
  return Array.isArray(body.requests) ? 'batchEmbedContents' : 'embedContent';
}

/**
 * Every Gemini chunk repeats the usage so far and none closes the stream: nothing is read as it
 * passes, and only the latest chunk holding usageMetadata is read for billing, as the parser would
 * have reported it.
 */
const GEMINI_PASS: PassRules = {
  mayMatter: () => false,
  matters: () => false,
  latestUsage: {
    key: '"usageMetadata"',
    read(raw) {
      const parser = new SseParser();
      let usage = null;
      for (const ev of [...parser.push(Buffer.from(raw)), ...parser.end()]) {
        try {
          const chunk: unknown = JSON.parse(ev.data);
          if (isJsonObject(chunk) && !isJsonObject(chunk.error) && chunk.usageMetadata)
            usage = usageFromGemini((chunk as GeminiResponse).usageMetadata).billing;
        } catch {
          /* not JSON: no usage, as for the parser */
        }
      }
      return usage;
    },
  },
};

const checkGenerate = edgeCheck(GEMINI_GENERATE);
const checkEmbed = edgeCheck(GEMINI_EMBED);
const checkBatchEmbed = edgeCheck(GEMINI_BATCH_EMBED);

export const geminiFormat: ClientFormatDefinition = {
  check(endpoint, body, action) {
    if (endpoint !== 'embeddings') return checkGenerate(body);
    if (action === 'batchEmbedContents') return checkBatchEmbed(body);
    const single = checkEmbed(body);
    // Only a batch carries `requests`: the action decides the answer's shape.
    if ('requests' in single) throw relayErrors.badBody('requests: only batchEmbedContents takes requests');
    return single;
  },
  servedBy: (provider, input) =>
    isEmbed(input) ? provider.protocol === 'gemini' || provider.supports('embeddings') : provider.supports('chat.completions'),
  passesThrough: (provider, input) => input.body !== null && provider.protocol === 'gemini',
  toOpenAI(input) {
    const body = input.body ?? {};
    // Bodies were checked against Google's request shapes at the edge (edge-schemas.ts).
    if (isEmbed(input)) {
      const request = body as GeminiEmbedContentRequest | GeminiBatchEmbedContentsRequest;
      const embed = convertOnce(body, () => ({ ...convertFromGeminiEmbedRequest(embedAction(body), request, input.model) }));
      return { endpoint: 'embeddings', body: embed };
    }
    const options = { model: input.model, stream: input.stream };
    return {
      endpoint: 'chat.completions',
      body: convertOnce(body, () => convertFromGeminiRequest(body as GeminiRequest, options)),
    };
  },
  fromOpenAI(input, answer) {
    if (!isEmbed(input)) return convertOpenAIToGeminiResponse(answer as OpenAIChatCompletion, input.model);
    const embeddings = answer as OpenAIEmbeddingsResponse | null;
    if (!embeddings || !Array.isArray(embeddings.data)) throw new Error('upstream answered without embeddings');
    return convertOpenAIToGeminiEmbedResponse(embedAction(input.body ?? {}), embeddings);
  },
  serializer: (input) => createGeminiStreamSerializer({ model: input.model }),
  forwardNative({ input, res, out, started, hooks, streaming, decoder }) {
    if (streaming) {
      const inspect = inspectWith(createGeminiStreamParser({ model: input.model }));
      // Unwatched, in plain SSE: through untouched, usage read from the latest chunk (pass-stream.ts).
      if (!decoder && !isWatched(out)) return passStream(res, out, started, { inspect, hooks, rules: GEMINI_PASS });
      return forwardStream(res, out, started, { inspect, hooks, decoder });
    }
    if (isEmbed(input)) return forwardJson(res, out, started, () => null);
    return forwardJson(
      res,
      out,
      started,
      (payload) => usageFromGemini((payload as GeminiResponse | null)?.usageMetadata).billing,
    );
  },
  mappedModel(input, upstreamModel) {
    // Embedding batches name the model inside each request; a single embedding names none.
    const body = input.body ?? {};
    if (!isEmbed(input)) return { model: upstreamModel };
    if (!Array.isArray(body.requests)) return {};
    const requests = (body.requests as unknown[]).map((r) =>
      r && typeof r === 'object' ? { ...(r as Body), model: `models/${upstreamModel}` } : r,
    );
    return { requests };
  },
  nativeUrl: (url, input) => (isEmbed(input) ? url.replace(/:[A-Za-z]+(\?.*)?$/, `:${embedAction(input.body ?? {})}`) : url),
  cutStreamTail: () => '',
};
