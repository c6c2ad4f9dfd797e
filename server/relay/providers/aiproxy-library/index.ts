/**
 * AI Proxy knowledge base (type 21): questions to one library at `/api/library/ask`, the library id
 * in the channel's `other` field, the key sent as a Bearer token and as `Api-Key`.
 *
 * - Request: `{model, query, libraryId, stream}`; `query` is the last user message's text.
 * - Whole answer: `{success, answer, documents: [{title, url}]}`, or `{success: false, errCode,
 *   message}` (also behind a 200 status, turned into an error status here).
 * - Stream: SSE `data:` events `{content, finish, model, documents}`.
 * The referenced documents are appended to the answer as a numbered list of links. The service
 * reports no token counts: the relay counts them locally.
 */
import type { SseEvent } from '../../wire/sse.js';
import type { StreamEvent } from '../../wire/events.js';
import { callUpstream, upstreamErrorMessage } from '../../call/call-upstream.js';
import { isJsonAnswer, jsonAnswer, readJson } from '../kit/http-like.js';
import { nowSeconds, obj, openAICompletion, str, textOf, type Json } from '../kit/chat-text.js';
import type { ChannelAccess, ProviderDefinition } from '../types.js';
import type { UpstreamTarget } from '../../call/call-upstream.js';

const DEFAULT_BASE_URL = 'https://api.aiproxy.io';

export interface LibraryRequest {
  model: string;
  query: string;
  libraryId: string;
  stream: boolean;
}

export function convertToLibraryRequest(body: Json, libraryId: string, stream: boolean): LibraryRequest {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const last =
    [...messages]
      .reverse()
      .map(obj)
      .find((m) => m?.role === 'user') ?? null;
  return { model: str(body.model), query: last ? textOf(last.content) : '', libraryId, stream };
}

/** The referenced documents as a numbered list of links after the answer (empty without any). */
export function documentsText(documents: unknown): string {
  const links = (Array.isArray(documents) ? documents : [])
    .map(obj)
    .filter((d): d is Json => !!d)
    .map((d, i) => `${i + 1}. [${str(d.title)}](${str(d.url)})`);
  return links.length > 0 ? `\n\n参考文档：\n${links.join('\n')}` : '';
}

/** The failure a library answer reports, if any. */
export function libraryFailure(payload: unknown): string | null {
  const answer = obj(payload);
  if (!answer) return null;
  const code = answer.errCode;
  if ((typeof code === 'number' && code !== 0) || answer.success === false)
    return str(answer.message) || `AI Proxy error ${String(code)}`;
  return null;
}

export function convertLibraryAnswer(payload: unknown, model: string) {
  const answer = obj(payload) ?? {};
  const completion = openAICompletion({
    id: `chatcmpl-library-${nowSeconds()}`,
    model,
    created: nowSeconds(),
    text: str(answer.answer) + documentsText(answer.documents),
    finish: 'stop',
    usage: null,
  });
  return { completion, usage: null };
}

export function createLibraryStreamParser(model: string): { push(event: SseEvent): StreamEvent[] } {
  let started = false;
  return {
    push(event) {
      let data: Json | null;
      try {
        data = obj(JSON.parse(event.data));
      } catch {
        return [];
      }
      if (!data) return [];
      const failure = libraryFailure(data);
      if (failure) return [{ type: 'error', message: failure }];
      const out: StreamEvent[] = [];
      if (!started) {
        started = true;
        out.push({ type: 'start', id: `chatcmpl-library-${nowSeconds()}`, model, created: nowSeconds() });
      }
      const text = str(data.content) + (data.finish === true ? documentsText(data.documents) : '');
      if (text !== '') out.push({ type: 'text', index: 0, text });
      if (data.finish === true) out.push({ type: 'finish', index: 0, reason: 'stop' });
      return out;
    },
  };
}

function targetOf(channel: ChannelAccess): UpstreamTarget {
  const base = (channel.base_url || DEFAULT_BASE_URL).replace(/\/+$/, '');
  return { url: `${base}/api/library/ask`, headers: { authorization: `Bearer ${channel.key}`, 'api-key': channel.key } };
}

export const aiProxyLibrary: ProviderDefinition = {
  name: 'AI Proxy knowledge base',
  protocol: 'openai',
  streamUsageOption: false,
  supports: (endpoint) => endpoint === 'chat.completions',
  target: targetOf,
  chat: {
    request: (channel, body, stream) => ({
      target: targetOf(channel),
      body: JSON.stringify(convertToLibraryRequest(body, channel.other?.trim() ?? '', stream)),
    }),
    answer: (payload, model) => convertLibraryAnswer(payload, model),
    stream: (model) => createLibraryStreamParser(model),
    errorMessage: upstreamErrorMessage,
    async send(call, { signal }) {
      const res = await callUpstream(call.target, call.body, 'application/json', signal);
      if (res.statusCode >= 400 || !isJsonAnswer(res)) return res;
      const { text, payload } = await readJson(res);
      if (payload === null)
        return jsonAnswer(502, { error: { message: `AI Proxy answered with invalid JSON: ${text.slice(0, 200)}` } });
      const failure = libraryFailure(payload);
      return failure ? jsonAnswer(400, { error: { message: failure } }) : jsonAnswer(200, payload);
    },
  },
};
