/**
 * Coze (type 49): `/v3/chat` with a personal access token as a Bearer key, the bot chosen as
 * convert-coze.ts says. Every call streams; a whole answer is gathered from the stream into the
 * documented non-streaming result (chat + messages). Coze reports request errors as `{code, msg}`
 * behind a 200 status: they are turned into real error statuses before the relay reads the answer.
 */
import { SseParser, type SseEvent } from '../../wire/sse.js';
import { callUpstream } from '../../call/call-upstream.js';
import { isJsonAnswer, jsonAnswer, readJson } from '../kit/http-like.js';
import { obj } from '../kit/chat-text.js';
import type { ChannelAccess, ProviderDefinition } from '../types.js';
import type { UpstreamTarget } from '../../call/call-upstream.js';
import {
  convertCozeAnswer,
  convertToCozeChat,
  cozeErrorMessage,
  cozeErrorStatus,
  createCozeStreamParser,
  gatherCozeChat,
} from './convert-coze.js';

const DEFAULT_BASE_URL = 'https://api.coze.cn';

function targetOf(channel: ChannelAccess): UpstreamTarget {
  const base = (channel.base_url || DEFAULT_BASE_URL).replace(/\/+$/, '');
  return { url: `${base}/v3/chat`, headers: { authorization: `Bearer ${channel.key}` } };
}

export const coze: ProviderDefinition = {
  name: 'Coze',
  protocol: 'openai',
  streamUsageOption: false,
  supports: (endpoint) => endpoint === 'chat.completions',
  target: targetOf,
  chat: {
    request: (channel, body) => ({ target: targetOf(channel), body: JSON.stringify(convertToCozeChat(body, channel.other)) }),
    answer: (payload, model) => convertCozeAnswer(payload, model),
    stream: (model) => createCozeStreamParser(model),
    errorMessage: cozeErrorMessage,
    async send(call, { stream, signal }) {
      const res = await callUpstream(call.target, call.body, 'application/json', signal);
      if (res.statusCode >= 400) return res;
      if (isJsonAnswer(res)) {
        const { text, payload } = await readJson(res);
        const code = obj(payload)?.code;
        return jsonAnswer(code === 0 ? 502 : cozeErrorStatus(code), { error: { message: cozeErrorMessage(text, 200), code } });
      }
      if (stream) return res;
      // The deltas are repeated whole in the completed messages: only the rest is kept.
      const parser = new SseParser();
      const events: SseEvent[] = [];
      const keep = (list: SseEvent[]) => events.push(...list.filter((e) => e.event !== 'conversation.message.delta'));
      for await (const chunk of res.body) keep(parser.push(chunk as Buffer));
      keep(parser.end());
      const whole = gatherCozeChat(events);
      return 'error' in whole ? jsonAnswer(502, { error: { message: whole.error } }) : jsonAnswer(200, whole);
    },
  },
};
