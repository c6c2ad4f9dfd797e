/**
 * Embeddings between OpenAI's /v1/embeddings and Gemini's embedContent / batchEmbedContents.
 *
 * - OpenAI → Gemini: one string → embedContent; a list of strings → batchEmbedContents (each request
 *   names `models/{model}`, as the API requires); `dimensions` → outputDimensionality. Token-id inputs
 *   have no Gemini counterpart and are refused.
 * - Gemini answers carry no token counts, so the caller passes the locally counted prompt tokens.
 * - Gemini → OpenAI (Gemini-format clients on OpenAI channels): the texts of each content's parts
 *   become the input; the answer goes back in the shape of the action the client called.
 */
import type { Usage } from '../../../billing/pricing.js';
import type {
  GeminiBatchEmbedContentsRequest,
  GeminiBatchEmbedContentsResponse,
  GeminiContent,
  GeminiEmbedContentRequest,
  GeminiEmbedContentResponse,
} from './gemini-api-types.js';
import type { OpenAIEmbeddingsRequest, OpenAIEmbeddingsResponse } from '../openai/openai-types.js';

export type GeminiEmbedAction = 'embedContent' | 'batchEmbedContents';

export type GeminiEmbedPlan =
  | { ok: true; action: 'embedContent'; body: GeminiEmbedContentRequest }
  | { ok: true; action: 'batchEmbedContents'; body: GeminiBatchEmbedContentsRequest }
  | { ok: false; message: string };

const textContent = (text: string): GeminiContent => ({ parts: [{ text }] });

/** `model` is the upstream model (after mapping). */
export function convertToGeminiEmbedRequest(request: OpenAIEmbeddingsRequest, model: string): GeminiEmbedPlan {
  const dimensions = typeof request.dimensions === 'number' ? { outputDimensionality: request.dimensions } : {};
  const input = request.input;
  if (typeof input === 'string')
    return { ok: true, action: 'embedContent', body: { content: textContent(input), ...dimensions } };
  if (Array.isArray(input) && input.length > 0 && input.every((item) => typeof item === 'string')) {
    const requests = (input as string[]).map((text) => ({ model: `models/${model}`, content: textContent(text), ...dimensions }));
    return { ok: true, action: 'batchEmbedContents', body: { requests } };
  }
  return { ok: false, message: 'Gemini embeddings take a string or a list of strings as input' };
}

export function convertGeminiEmbedResponse(
  body: GeminiEmbedContentResponse | GeminiBatchEmbedContentsResponse,
  context: { model: string; promptTokens: number },
): { response: OpenAIEmbeddingsResponse; usage: Usage } {
  const vectors = 'embeddings' in body ? body.embeddings.map((e) => e.values) : [body.embedding.values];
  return {
    response: {
      object: 'list',
      data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
      model: context.model,
      usage: { prompt_tokens: context.promptTokens, total_tokens: context.promptTokens },
    },
    usage: { promptTokens: context.promptTokens, completionTokens: 0 },
  };
}

const textOf = (content: GeminiContent | undefined): string =>
  (Array.isArray(content?.parts) ? content.parts : []).map((p) => (typeof p.text === 'string' ? p.text : '')).join('');

/** A Gemini-format embedding request as OpenAI's; `model` is the one in the client's URL. */
export function convertFromGeminiEmbedRequest(
  action: GeminiEmbedAction,
  body: GeminiEmbedContentRequest | GeminiBatchEmbedContentsRequest,
  model: string,
): OpenAIEmbeddingsRequest {
  const requests: GeminiEmbedContentRequest[] =
    'requests' in body && Array.isArray(body.requests) ? body.requests : [body as GeminiEmbedContentRequest];
  const texts = requests.map((r) => textOf(r.content));
  const out: OpenAIEmbeddingsRequest = { model, input: action === 'embedContent' ? (texts[0] ?? '') : texts };
  const dimensions = requests[0]?.outputDimensionality;
  if (typeof dimensions === 'number') out.dimensions = dimensions;
  return out;
}

export function convertOpenAIToGeminiEmbedResponse(
  action: GeminiEmbedAction,
  response: OpenAIEmbeddingsResponse,
): GeminiEmbedContentResponse | GeminiBatchEmbedContentsResponse {
  const values = [...response.data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
  if (action === 'embedContent') return { embedding: { values: values[0] ?? [] } };
  return { embeddings: values.map((v) => ({ values: v })) };
}
