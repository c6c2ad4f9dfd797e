/**
 * OpenAI embeddings ⇄ Cohere `POST /v2/embed`, and the gateway's rerank ⇄ Cohere `POST /v2/rerank`.
 *
 * - Embed: `input` → `texts`; `input_type` is required by Cohere's v3+ models: the client's own
 *   (a Cohere field some clients send) or `search_document`; float vectors are asked for
 *   (`embedding_types: ["float"]`); `dimensions` → `output_dimension`. Usage from
 *   `meta.billed_units.input_tokens`.
 * - Rerank: `query`, `documents` (strings, or objects with `text`), `top_n`; v2 returns only
 *   indexes and scores, so the documents' texts come from the request. Cohere bills rerank in
 *   search units, not tokens: usage comes from `meta.tokens` / `meta.billed_units` token counts
 *   when present, else the relay counts the prompt locally.
 */
import type { Usage } from '../../../billing/pricing.js';
import {
  embeddingInputs,
  embeddingList,
  rerankAnswer,
  rerankDocuments,
  vectorsOf,
  wantsBase64,
  type OpenAIEmbeddingList,
  type RerankAnswer,
} from '../../wire/openai/openai-embeddings.js';
import { obj, str, type Json } from '../kit/chat-text.js';

type Converted<T> = { ok: true; body: T } | { ok: false; message: string };

export interface CohereEmbedRequest {
  model: string;
  texts: string[];
  input_type: string;
  embedding_types: ['float'];
  output_dimension?: number;
  truncate?: string;
}

export function convertToCohereEmbed(body: Json): Converted<CohereEmbedRequest> {
  const texts = embeddingInputs(body.input);
  if (!texts) return { ok: false, message: 'Cohere embeds text only: input must be a string or a list of strings' };
  const request: CohereEmbedRequest = {
    model: str(body.model),
    texts,
    input_type: str(body.input_type) || 'search_document',
    embedding_types: ['float'],
  };
  if (typeof body.dimensions === 'number') request.output_dimension = body.dimensions;
  if (typeof body.truncate === 'string') request.truncate = body.truncate;
  return { ok: true, body: request };
}

function tokenUsage(meta: unknown): Usage | null {
  const m = obj(meta);
  const counted = obj(m?.billed_units) ?? {};
  const raw = obj(m?.tokens) ?? {};
  const input = typeof counted.input_tokens === 'number' ? counted.input_tokens : raw.input_tokens;
  return typeof input === 'number' ? { promptTokens: input, completionTokens: 0 } : null;
}

export function convertCohereEmbedAnswer(
  payload: unknown,
  model: string,
  request?: Json,
): { completion: OpenAIEmbeddingList; usage: Usage | null } {
  const answer = obj(payload) ?? {};
  const embeddings = answer.embeddings;
  const vectors = vectorsOf(obj(embeddings)?.float ?? embeddings);
  if (!vectors) throw new Error('Cohere answered without float embeddings');
  const usage = tokenUsage(answer.meta);
  return { completion: embeddingList(vectors, model, usage, wantsBase64(request)), usage };
}

export interface CohereRerankRequest {
  model: string;
  query: string;
  documents: string[];
  top_n?: number;
  max_tokens_per_doc?: number;
}

export function convertToCohereRerank(body: Json): Converted<CohereRerankRequest> {
  const documents = rerankDocuments(body.documents);
  if (typeof body.query !== 'string' || !documents) {
    return { ok: false, message: 'rerank needs a query and documents (strings or objects with text)' };
  }
  const request: CohereRerankRequest = { model: str(body.model), query: body.query, documents };
  if (typeof body.top_n === 'number') request.top_n = body.top_n;
  if (typeof body.max_tokens_per_doc === 'number') request.max_tokens_per_doc = body.max_tokens_per_doc;
  return { ok: true, body: request };
}

export function convertCohereRerankAnswer(
  payload: unknown,
  model: string,
  request?: Json,
): { completion: RerankAnswer; usage: Usage | null } {
  const answer = obj(payload) ?? {};
  if (!Array.isArray(answer.results)) throw new Error('Cohere answered without rerank results');
  const scored = answer.results.map((r) => {
    const result = obj(r) ?? {};
    return { index: Number(result.index) || 0, relevance_score: Number(result.relevance_score) || 0 };
  });
  const usage = tokenUsage(answer.meta);
  return { completion: rerankAnswer(scored, model, usage, request, str(answer.id) || undefined), usage };
}
