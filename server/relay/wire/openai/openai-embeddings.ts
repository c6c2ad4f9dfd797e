/**
 * OpenAI-shaped embedding lists and Jina-shaped rerank answers, built from what providers with
 * their own protocols return (Ollama, Cohere, Jina). Pure functions.
 *
 * - `encoding_format: "base64"` (what the OpenAI SDKs ask for by default) is honoured here: each
 *   vector becomes the base64 of its float32 little-endian bytes, as OpenAI sends it. Providers are
 *   always asked for plain floats.
 * - The rerank answer is the shape `/v1/rerank` clients of this gateway family expect:
 *   `{ results: [{ index, relevance_score, document? }], usage }`.
 */
import type { Usage } from '../../../billing/pricing.js';
import type { SseEvent } from '../sse.js';
import type { StreamEvent } from '../events.js';

type Json = Record<string, unknown>;

const obj = (v: unknown): Json | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null);

/** The texts of an OpenAI embeddings `input`: a string or a list of strings; null for token ids. */
export function embeddingInputs(input: unknown): string[] | null {
  if (typeof input === 'string') return [input];
  if (Array.isArray(input) && input.length > 0 && input.every((item) => typeof item === 'string')) return input as string[];
  return null;
}

/** Whether the client asked for base64 vectors. */
export function wantsBase64(request: Json | undefined): boolean {
  return request?.encoding_format === 'base64';
}

/** A vector as OpenAI's base64: float32 little-endian bytes. */
export function vectorToBase64(vector: number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((value, i) => bytes.writeFloatLE(value, i * 4));
  return bytes.toString('base64');
}

export interface OpenAIEmbeddingList {
  object: 'list';
  data: Array<{ object: 'embedding'; index: number; embedding: number[] | string }>;
  model: string;
  usage: { prompt_tokens: number; total_tokens: number };
}

/** Vectors (in input order) as OpenAI's embeddings answer. */
export function embeddingList(vectors: number[][], model: string, usage: Usage | null, base64: boolean): OpenAIEmbeddingList {
  const prompt = usage?.promptTokens ?? 0;
  return {
    object: 'list',
    data: vectors.map((vector, index) => ({
      object: 'embedding',
      index,
      embedding: base64 ? vectorToBase64(vector) : vector,
    })),
    model,
    usage: { prompt_tokens: prompt, total_tokens: prompt },
  };
}

/** A list of number lists, or null when the value is anything else. */
export function vectorsOf(value: unknown): number[][] | null {
  if (!Array.isArray(value)) return null;
  const out: number[][] = [];
  for (const row of value) {
    if (!Array.isArray(row) || !row.every((x) => typeof x === 'number')) return null;
    out.push(row as number[]);
  }
  return out;
}

/** The texts of rerank `documents`: strings, or objects carrying `text`. */
export function rerankDocuments(documents: unknown): string[] | null {
  if (!Array.isArray(documents)) return null;
  const out: string[] = [];
  for (const d of documents) {
    if (typeof d === 'string') out.push(d);
    else if (typeof obj(d)?.text === 'string') out.push(obj(d)!.text as string);
    else return null;
  }
  return out;
}

export interface RerankResult {
  index: number;
  relevance_score: number;
  document?: { text: string };
}

export interface RerankAnswer {
  id?: string;
  model: string;
  results: RerankResult[];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

/**
 * Scored indexes as the gateway's rerank answer. With `return_documents` (true unless the request
 * says false, as Jina does) each result carries its document's text, taken from the request.
 */
export function rerankAnswer(
  scored: Array<{ index: number; relevance_score: number; text?: string }>,
  model: string,
  usage: Usage | null,
  request: Json | undefined,
  id?: string,
): RerankAnswer {
  const documents = rerankDocuments(request?.documents) ?? [];
  const withDocuments = request?.return_documents !== false;
  const results = scored.map(({ index, relevance_score, text }): RerankResult => {
    const document = text ?? documents[index];
    return withDocuments && document !== undefined
      ? { index, relevance_score, document: { text: document } }
      : { index, relevance_score };
  });
  const prompt = usage?.promptTokens ?? 0;
  return {
    ...(id ? { id } : {}),
    model,
    results,
    usage: { prompt_tokens: prompt, completion_tokens: 0, total_tokens: prompt },
  };
}

/** Stream parser for endpoints that never stream (embeddings, rerank). */
export function noStream(): { push(event: SseEvent): StreamEvent[] } {
  return { push: () => [] };
}
