/**
 * Ollama (type 4), native API: chat at `/api/chat` (NDJSON streams), embeddings at `/api/embed`.
 * No key is needed; one given is sent as a Bearer token (for servers behind an authenticating proxy).
 */
import type { ChatAdapter, ChannelAccess, ProviderDefinition } from '../types.js';
import type { UpstreamTarget } from '../../call/call-upstream.js';
import { noStream } from '../../wire/openai/openai-embeddings.js';
import { upstreamErrorMessage } from '../../call/call-upstream.js';
import { refusedCall, sendUnlessRefused } from '../refusal.js';
import {
  convertOllamaChatAnswer,
  convertOllamaEmbedAnswer,
  convertToOllamaChat,
  convertToOllamaEmbed,
} from './convert-ollama.js';
import { createNdjsonDecoder, createOllamaStreamParser } from './ollama-stream.js';

const DEFAULT_BASE_URL = 'http://localhost:11434';

function targetOf(channel: ChannelAccess, path: '/api/chat' | '/api/embed'): UpstreamTarget {
  const base = (channel.base_url || DEFAULT_BASE_URL).replace(/\/+$/, '');
  const key = channel.key.trim();
  return { url: base + path, headers: key ? { authorization: `Bearer ${key}` } : {} };
}

const embeddings: ChatAdapter = {
  request(channel, body) {
    const converted = convertToOllamaEmbed(body);
    if (!converted.ok) return refusedCall(converted.message);
    return { target: targetOf(channel, '/api/embed'), body: JSON.stringify(converted.body) };
  },
  answer: (payload, model, request) => convertOllamaEmbedAnswer(payload, model, request),
  stream: noStream,
  errorMessage: upstreamErrorMessage,
  send: sendUnlessRefused,
};

export const ollama: ProviderDefinition = {
  name: 'Ollama',
  protocol: 'openai',
  streamUsageOption: false,
  supports: (endpoint) => endpoint === 'chat.completions' || endpoint === 'embeddings',
  target: (channel, endpoint) => targetOf(channel, endpoint === 'embeddings' ? '/api/embed' : '/api/chat'),
  isStream: (contentType) => contentType.includes('ndjson'),
  decoder: createNdjsonDecoder,
  chat: {
    request(channel, body, stream) {
      const converted = convertToOllamaChat(body, stream);
      if (!converted.ok) return refusedCall(converted.message);
      return { target: targetOf(channel, '/api/chat'), body: JSON.stringify(converted.body) };
    },
    answer: (payload, model) => convertOllamaChatAnswer(payload, model),
    stream: () => createOllamaStreamParser(),
    // Ollama's errors are `{"error": "..."}`, which the common reader understands.
    errorMessage: upstreamErrorMessage,
    send: sendUnlessRefused,
  },
  adapters: { embeddings },
};
