/**
 * Gemini-format embedding calls (`:embedContent`, `:batchEmbedContents`) inside the exchange:
 * passed through to Gemini channels (the action put back in the provider's URL, batch requests
 * naming the upstream model), converted to OpenAI's /v1/embeddings for the others and answered
 * back in the shape of the action called. Gemini answers carry no token counts: the prompt's text
 * is counted locally.
 */
import type { ServerResponse } from 'node:http';
import type { RelayInput } from './types.js';
import type { UpstreamResponse } from './upstream.js';
import type { ProviderDefinition } from './providers/types.js';
import { forwardConvertedJson, forwardJson, type ForwardResult } from './forward.js';
import { countTokens } from './tokenizer.js';
import { usageOf } from './usage.js';
import {
  convertFromGeminiEmbedRequest,
  convertOpenAIToGeminiEmbedResponse,
  type GeminiEmbedAction,
} from './providers/gemini/gemini-embeddings.js';
import type { GeminiBatchEmbedContentsRequest, GeminiEmbedContentRequest } from './providers/gemini/gemini-api-types.js';
import type { OpenAIEmbeddingsResponse } from './protocol/openai-types.js';

type Body = Record<string, unknown>;

/** A Gemini client's embedding request (its body checked by the route). */
export function isGeminiEmbed(input: RelayInput): input is RelayInput & { body: Body } {
  return input.client === 'gemini' && input.endpoint === 'embeddings' && input.body !== null;
}

/** Gemini channels take their own clients' embedding calls (their providers serve only chat to OpenAI clients). */
export function geminiChannelTakesEmbed(provider: Pick<ProviderDefinition, 'protocol'>, input: RelayInput): boolean {
  return isGeminiEmbed(input) && provider.protocol === 'gemini';
}

/** The action a body is for: only batchEmbedContents bodies hold `requests`. */
export function geminiEmbedAction(body: Body): GeminiEmbedAction {
  return Array.isArray(body.requests) ? 'batchEmbedContents' : 'embedContent';
}

/** A Gemini URL with the body's action in place of the one the provider named (`…:generateContent`). */
export function geminiEmbedUrl(url: string, body: Body): string {
  return url.replace(/:[A-Za-z]+(\?.*)?$/, `:${geminiEmbedAction(body)}`);
}

/** What a mapped model changes in the body: each batch request names the upstream model; embedContent names none. */
export function geminiEmbedModelFields(body: Body, upstreamModel: string): Body {
  if (!Array.isArray(body.requests)) return {};
  const requests = (body.requests as unknown[]).map((r) =>
    r && typeof r === 'object' ? { ...(r as Body), model: `models/${upstreamModel}` } : r,
  );
  return { requests };
}

/** The request as OpenAI's /v1/embeddings body. */
export function geminiEmbedAsOpenAI(body: Body, model: string): Body {
  const request = body as unknown as GeminiEmbedContentRequest | GeminiBatchEmbedContentsRequest;
  return { ...convertFromGeminiEmbedRequest(geminiEmbedAction(body), request, model) };
}

function promptText(body: Body): string {
  const requests = (Array.isArray(body.requests) ? body.requests : [body]) as Array<Partial<GeminiEmbedContentRequest>>;
  const texts: string[] = [];
  for (const r of requests) {
    for (const part of Array.isArray(r?.content?.parts) ? r.content.parts : []) {
      if (typeof part?.text === 'string') texts.push(part.text);
    }
  }
  return texts.join('\n');
}

/** Sends the answer in the client's (Gemini's) shape, with its usage. `native`: the channel spoke Gemini. */
export async function forwardGeminiEmbed(
  input: RelayInput & { body: Body },
  native: boolean,
  res: UpstreamResponse,
  out: ServerResponse,
  started: number,
  /** For channels answering in their own shape (Cohere …): their answer as OpenAI embeddings. */
  asOpenAI: (payload: unknown) => unknown = (payload) => payload,
): Promise<ForwardResult> {
  const promptTokens = await countTokens(promptText(input.body));
  if (native) return forwardJson(res, out, started, () => ({ promptTokens, completionTokens: 0 }));
  const action = geminiEmbedAction(input.body);
  return forwardConvertedJson(res, out, started, (upstream) => {
    const payload = asOpenAI(upstream);
    const answer = payload as OpenAIEmbeddingsResponse | null;
    if (!answer || !Array.isArray(answer.data)) throw new Error('upstream answered without embeddings');
    return {
      completion: convertOpenAIToGeminiEmbedResponse(action, answer),
      usage: usageOf(payload) ?? { promptTokens, completionTokens: 0 },
    };
  });
}
