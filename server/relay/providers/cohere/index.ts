/**
 * Cohere (type 34), API v2 with a Bearer key: chat at `/v2/chat` (typed SSE events), embeddings at
 * `/v2/embed`, rerank at `/v2/rerank`, each converted from and to the OpenAI-side shapes.
 */
import type { Endpoint } from '../../endpoints.js';
import { noStream } from '../../wire/openai/openai-embeddings.js';
import type { ChatAdapter, ChannelAccess, ProviderDefinition } from '../types.js';
import type { UpstreamTarget } from '../../call/call-upstream.js';
import { refusedCall, sendUnlessRefused } from '../refusal.js';
import { cohereErrorMessage, convertCohereChatAnswer, convertToCohereChat } from './convert-cohere.js';
import { createCohereStreamParser } from './cohere-stream.js';
import {
  convertCohereEmbedAnswer,
  convertCohereRerankAnswer,
  convertToCohereEmbed,
  convertToCohereRerank,
} from './cohere-embed-rerank.js';

const DEFAULT_BASE_URL = 'https://api.cohere.ai';

const PATHS: Partial<Record<Endpoint, string>> = {
  'chat.completions': '/v2/chat',
  embeddings: '/v2/embed',
  rerank: '/v2/rerank',
};

function targetOf(channel: ChannelAccess, endpoint: Endpoint): UpstreamTarget {
  const base = (channel.base_url || DEFAULT_BASE_URL).replace(/\/+$/, '');
  return { url: base + (PATHS[endpoint] ?? '/v2/chat'), headers: { authorization: `Bearer ${channel.key}` } };
}

const embeddings: ChatAdapter = {
  request(channel, body) {
    const converted = convertToCohereEmbed(body);
    if (!converted.ok) return refusedCall(converted.message);
    return { target: targetOf(channel, 'embeddings'), body: JSON.stringify(converted.body) };
  },
  answer: (payload, model, request) => convertCohereEmbedAnswer(payload, model, request),
  stream: noStream,
  errorMessage: cohereErrorMessage,
  send: sendUnlessRefused,
};

const rerank: ChatAdapter = {
  request(channel, body) {
    const converted = convertToCohereRerank(body);
    if (!converted.ok) return refusedCall(converted.message);
    return { target: targetOf(channel, 'rerank'), body: JSON.stringify(converted.body) };
  },
  answer: (payload, model, request) => convertCohereRerankAnswer(payload, model, request),
  stream: noStream,
  errorMessage: cohereErrorMessage,
  send: sendUnlessRefused,
};

export const cohere: ProviderDefinition = {
  name: 'Cohere',
  protocol: 'openai',
  streamUsageOption: false,
  supports: (endpoint) => endpoint in PATHS,
  target: targetOf,
  chat: {
    request(channel, body, stream) {
      return { target: targetOf(channel, 'chat.completions'), body: JSON.stringify(convertToCohereChat(body, stream)) };
    },
    answer: (payload, model) => convertCohereChatAnswer(payload, model),
    stream: (model) => createCohereStreamParser(model),
    errorMessage: cohereErrorMessage,
  },
  adapters: { embeddings, rerank },
};
