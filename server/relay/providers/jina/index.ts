/**
 * Jina (type 38): embeddings at `/v1/embeddings` and rerank at `/v1/rerank`, Bearer key. Both are
 * close to the OpenAI-side shapes already:
 * - embeddings: Jina names the vector format `embedding_type`, not `encoding_format`; float vectors
 *   are asked for and turned into base64 here when the client asked for that. Jina's own fields
 *   (`task`, `dimensions`, `late_chunking`, …) pass through.
 * - rerank: the request passes through; the answer is mapped to the gateway's rerank shape
 *   (results with their documents, usage with prompt and total tokens from Jina's `total_tokens`).
 */
import type { Usage } from '../../../billing/pricing.js';
import type { Endpoint } from '../../endpoints.js';
import { embeddingList, noStream, rerankAnswer, vectorsOf, wantsBase64 } from '../../wire/openai/openai-embeddings.js';
import { upstreamErrorMessage } from '../../call/call-upstream.js';
import { obj, type Json } from '../kit/chat-text.js';
import type { ChatAdapter, ChannelAccess, ProviderDefinition } from '../types.js';
import type { UpstreamTarget } from '../../call/call-upstream.js';

const DEFAULT_BASE_URL = 'https://api.jina.ai';

function targetOf(channel: ChannelAccess, endpoint: Endpoint): UpstreamTarget {
  const base = (channel.base_url || DEFAULT_BASE_URL).replace(/\/+$/, '');
  const path = endpoint === 'rerank' ? '/v1/rerank' : '/v1/embeddings';
  return { url: base + path, headers: { authorization: `Bearer ${channel.key}` } };
}

function jinaUsage(usage: unknown): Usage | null {
  const u = obj(usage);
  const tokens = typeof u?.prompt_tokens === 'number' ? u.prompt_tokens : u?.total_tokens;
  return typeof tokens === 'number' ? { promptTokens: tokens, completionTokens: 0 } : null;
}

/** An OpenAI embeddings body as Jina's: float vectors asked for, the rest passed on. */
export function convertToJinaEmbeddings(body: Json): Json {
  const { encoding_format: _format, ...rest } = body;
  return { ...rest, embedding_type: 'float' };
}

export function convertJinaEmbeddingsAnswer(payload: unknown, model: string, request?: Json) {
  const answer = obj(payload) ?? {};
  const rows = (Array.isArray(answer.data) ? answer.data : []).map(obj).filter((r): r is Json => !!r);
  rows.sort((a, b) => Number(a.index) - Number(b.index));
  const vectors = vectorsOf(rows.map((r) => r.embedding));
  if (!vectors) throw new Error('Jina answered without float embeddings');
  const usage = jinaUsage(answer.usage);
  return { completion: embeddingList(vectors, model, usage, wantsBase64(request)), usage };
}

export function convertJinaRerankAnswer(payload: unknown, model: string, request?: Json) {
  const answer = obj(payload) ?? {};
  if (!Array.isArray(answer.results)) throw new Error('Jina answered without rerank results');
  const scored = answer.results.map((r) => {
    const result = obj(r) ?? {};
    const document = obj(result.document);
    return {
      index: Number(result.index) || 0,
      relevance_score: Number(result.relevance_score) || 0,
      ...(typeof document?.text === 'string' ? { text: document.text } : {}),
    };
  });
  const usage = jinaUsage(answer.usage);
  return { completion: rerankAnswer(scored, model, usage, request), usage };
}

const embeddings: ChatAdapter = {
  request: (channel, body) => ({ target: targetOf(channel, 'embeddings'), body: JSON.stringify(convertToJinaEmbeddings(body)) }),
  answer: (payload, model, request) => convertJinaEmbeddingsAnswer(payload, model, request),
  stream: noStream,
  errorMessage: upstreamErrorMessage,
};

const rerank: ChatAdapter = {
  request: (channel, body) => ({ target: targetOf(channel, 'rerank'), body: JSON.stringify(body) }),
  answer: (payload, model, request) => convertJinaRerankAnswer(payload, model, request),
  stream: noStream,
  errorMessage: upstreamErrorMessage,
};

export const jina: ProviderDefinition = {
  name: 'Jina',
  protocol: 'openai',
  streamUsageOption: false,
  supports: (endpoint) => endpoint === 'embeddings' || endpoint === 'rerank',
  target: targetOf,
  adapters: { embeddings, rerank },
};
