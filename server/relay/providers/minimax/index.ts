/**
 * MiniMax (type 35): ChatCompletion v2 at `/v1/text/chatcompletion_v2` with a Bearer key. Its
 * bodies and streams are OpenAI's shape (the last stream chunk repeats the whole message under
 * `message`, which the OpenAI stream parser skips), but failures come back as HTTP 200 with
 * `base_resp.status_code` ≠ 0: the exchange turns those into real error statuses (1004 key → 401,
 * 1002/1039 rate limits → 429, 1008 balance → 403, 1000/1001/1013 server → 500, the rest 400).
 */
import type { SseEvent } from '../../wire/sse.js';
import type { StreamEvent } from '../../wire/events.js';
import { createOpenAIStreamParser } from '../../wire/openai/openai-stream-parser.js';
import { callUpstream, upstreamErrorMessage } from '../../call/call-upstream.js';
import { usageOf } from '../../wire/openai/usage.js';
import { isJsonAnswer, jsonAnswer, readJson } from '../kit/http-like.js';
import { obj, str } from '../kit/chat-text.js';
import type { ChannelAccess, ProviderDefinition } from '../types.js';
import type { UpstreamTarget } from '../../call/call-upstream.js';

const DEFAULT_BASE_URL = 'https://api.minimax.chat';

function targetOf(channel: ChannelAccess): UpstreamTarget {
  const base = (channel.base_url || DEFAULT_BASE_URL).replace(/\/+$/, '');
  return { url: `${base}/v1/text/chatcompletion_v2`, headers: { authorization: `Bearer ${channel.key}` } };
}

/** The failure a MiniMax body reports in `base_resp`, if any. */
export function miniMaxFailure(payload: unknown): { code: number; message: string } | null {
  const base = obj(obj(payload)?.base_resp);
  const code = base?.status_code;
  if (typeof code !== 'number' || code === 0) return null;
  return { code, message: str(base?.status_msg) || `MiniMax error ${code}` };
}

export function miniMaxErrorStatus(code: number): number {
  if (code === 1004) return 401;
  if (code === 1002 || code === 1039) return 429;
  if (code === 1008) return 403;
  if (code === 1000 || code === 1001 || code === 1013) return 500;
  return 400;
}

function createMiniMaxStreamParser(): { push(event: SseEvent): StreamEvent[] } {
  const openai = createOpenAIStreamParser();
  return {
    push(event) {
      try {
        const failure = miniMaxFailure(JSON.parse(event.data));
        if (failure) return [{ type: 'error', message: failure.message }];
      } catch {
        /* `[DONE]` and other non-JSON data */
      }
      return openai.push(event);
    },
  };
}

export const minimax: ProviderDefinition = {
  name: 'MiniMax',
  protocol: 'openai',
  streamUsageOption: true,
  supports: (endpoint) => endpoint === 'chat.completions',
  target: targetOf,
  chat: {
    request(channel, body, stream) {
      const sent: Record<string, unknown> = { ...body, stream };
      if (stream) sent.stream_options = { ...obj(body.stream_options), include_usage: true };
      else delete sent.stream_options;
      return { target: targetOf(channel), body: JSON.stringify(sent) };
    },
    answer(payload, model) {
      return { completion: { ...obj(payload), model }, usage: usageOf(payload) };
    },
    stream: () => createMiniMaxStreamParser(),
    errorMessage: upstreamErrorMessage,
    async send(call, { signal }) {
      const res = await callUpstream(call.target, call.body, 'application/json', signal);
      if (res.statusCode >= 400 || !isJsonAnswer(res)) return res;
      const { text, payload } = await readJson(res);
      if (payload === null)
        return jsonAnswer(502, { error: { message: `MiniMax answered with invalid JSON: ${text.slice(0, 200)}` } });
      const failure = miniMaxFailure(payload);
      if (failure)
        return jsonAnswer(miniMaxErrorStatus(failure.code), { error: { message: failure.message, code: failure.code } });
      return jsonAnswer(200, payload);
    },
  },
};
