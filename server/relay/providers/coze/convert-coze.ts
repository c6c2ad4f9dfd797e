/**
 * OpenAI chat ⇄ Coze Chat API v3 (`POST /v3/chat`), pure functions.
 *
 * - Bot: a model named `bot-<id>` names its bot; otherwise the channel's `other` field holds the
 *   bot id; otherwise the model name is the bot id.
 * - Request: user and assistant turns as `additional_messages` (`content_type` text, or
 *   object_string with the images given by http(s) link); system messages are not sent (a bot keeps
 *   its own persona). `user_id` is the OpenAI `user` field, else a fixed name. Always `stream: true`:
 *   Coze's non-streaming mode only starts a chat that must then be polled, so whole answers are
 *   gathered from the stream instead (see index.ts).
 * - Stream events (SSE `event:` names): `conversation.chat.created` (chat id),
 *   `conversation.message.delta` (assistant `answer` text, `reasoning_content`),
 *   `conversation.message.completed` (the whole message), `conversation.chat.completed` (usage:
 *   input_count, output_count), `conversation.chat.failed` (`last_error`), `error` (`code`, `msg`),
 *   `done`.
 * - A whole answer is the documented non-streaming result: the chat object and its messages.
 */
import type { Usage } from '../../../billing/pricing.js';
import type { SseEvent } from '../../wire/sse.js';
import type { StreamEvent } from '../../wire/events.js';
import type { OpenAIChatCompletion } from '../../wire/openai/openai-types.js';
import { nowSeconds, obj, openAICompletion, str, textOf, type Json } from '../kit/chat-text.js';

/** The `user_id` Coze records when the client names none. */
export const COZE_DEFAULT_USER = 'ai-gateway';

export interface CozeMessage {
  role: 'user' | 'assistant';
  type: 'question' | 'answer';
  content: string;
  content_type: 'text' | 'object_string';
}

export interface CozeChatRequest {
  bot_id: string;
  user_id: string;
  stream: true;
  additional_messages: CozeMessage[];
}

/** The bot a request goes to: `bot-<id>` models name theirs, else the channel's `other`, else the model. */
export function cozeBotId(model: string, other: string | null | undefined): string {
  if (model.startsWith('bot-') && model.length > 4) return model.slice(4);
  return other?.trim() || model;
}

function messageOf(role: 'user' | 'assistant', content: unknown): CozeMessage {
  const type = role === 'user' ? 'question' : 'answer';
  const text = textOf(content);
  const images: string[] = [];
  for (const part of Array.isArray(content) ? content : []) {
    const p = obj(part);
    if (p?.type !== 'image_url') continue;
    const url = typeof p.image_url === 'string' ? p.image_url : str(obj(p.image_url)?.url);
    if (/^https?:\/\//i.test(url)) images.push(url);
  }
  if (images.length === 0) return { role, type, content: text, content_type: 'text' };
  const objects = [...(text !== '' ? [{ type: 'text', text }] : []), ...images.map((file_url) => ({ type: 'image', file_url }))];
  return { role, type, content: JSON.stringify(objects), content_type: 'object_string' };
}

export function convertToCozeChat(body: Json, other: string | null | undefined): CozeChatRequest {
  const additional: CozeMessage[] = [];
  for (const m of Array.isArray(body.messages) ? body.messages : []) {
    const message = obj(m);
    if (message?.role === 'user' || message?.role === 'assistant') additional.push(messageOf(message.role, message.content));
  }
  return {
    bot_id: cozeBotId(str(body.model), other),
    user_id: str(body.user) || COZE_DEFAULT_USER,
    stream: true,
    additional_messages: additional,
  };
}

export function usageFromCoze(usage: unknown): Usage | null {
  const u = obj(usage);
  if (!u || (typeof u.input_count !== 'number' && typeof u.output_count !== 'number')) return null;
  return { promptTokens: Number(u.input_count) || 0, completionTokens: Number(u.output_count) || 0 };
}

const isAnswer = (message: Json): boolean =>
  message.role === 'assistant' && (message.type === 'answer' || message.type === undefined);

export function createCozeStreamParser(model: string): { push(event: SseEvent): StreamEvent[] } {
  let started = false;
  const start = (id: string, created: unknown): StreamEvent[] => {
    if (started) return [];
    started = true;
    return [
      {
        type: 'start',
        id: id || `chatcmpl-coze-${nowSeconds()}`,
        model,
        created: typeof created === 'number' ? created : nowSeconds(),
      },
    ];
  };
  return {
    push(event) {
      if (event.event === 'done') return [];
      let data: Json | null;
      try {
        data = obj(JSON.parse(event.data));
      } catch {
        return [];
      }
      if (!data) return [];
      switch (event.event) {
        case 'conversation.chat.created':
          return start(str(data.id), data.created_at);
        case 'conversation.message.delta': {
          if (!isAnswer(data)) return [];
          const out = start(str(data.chat_id), undefined);
          const reasoning = str(data.reasoning_content);
          if (reasoning !== '') out.push({ type: 'reasoning', index: 0, text: reasoning });
          const content = str(data.content);
          if (content !== '') out.push({ type: 'text', index: 0, text: content });
          return out;
        }
        case 'conversation.chat.completed': {
          const out = start(str(data.id), data.created_at);
          const usage = usageFromCoze(data.usage);
          if (usage) out.push({ type: 'usage', usage });
          out.push({ type: 'finish', index: 0, reason: 'stop' });
          return out;
        }
        case 'conversation.chat.failed':
          return [{ type: 'error', message: str(obj(data.last_error)?.msg) || 'Coze chat failed' }];
        case 'error':
          return [{ type: 'error', message: str(data.msg) || str(data.message) || 'Coze reported an error' }];
        default:
          return [];
      }
    },
  };
}

/** The documented non-streaming result: the chat (status, usage) and its messages. */
export interface CozeWholeChat {
  chat: Json;
  messages: Json[];
}

/**
 * A whole chat gathered from its stream's events: the completed chat and completed messages, or
 * the error that ended it.
 */
export function gatherCozeChat(events: SseEvent[]): CozeWholeChat | { error: string } {
  let chat: Json | null = null;
  const messages: Json[] = [];
  for (const event of events) {
    let data: Json | null = null;
    try {
      data = obj(JSON.parse(event.data));
    } catch {
      /* `done` carries no JSON object */
    }
    if (event.event === 'conversation.message.completed' && data) messages.push(data);
    else if (event.event === 'conversation.chat.completed' && data) chat = data;
    else if (event.event === 'conversation.chat.failed') return { error: str(obj(data?.last_error)?.msg) || 'Coze chat failed' };
    else if (event.event === 'error') return { error: str(data?.msg) || 'Coze reported an error' };
  }
  return chat ? { chat, messages } : { error: 'Coze stream ended before the chat completed' };
}

/** A whole chat (chat object + messages) as an OpenAI chat.completion. */
export function convertCozeAnswer(payload: unknown, model: string): { completion: OpenAIChatCompletion; usage: Usage | null } {
  const whole = obj(payload) ?? {};
  const chat = obj(whole.chat) ?? {};
  const answers = (Array.isArray(whole.messages) ? whole.messages : []).map(obj).filter((m): m is Json => !!m && isAnswer(m));
  const usage = usageFromCoze(chat.usage);
  const completion = openAICompletion({
    id: str(chat.id) || `chatcmpl-coze-${nowSeconds()}`,
    model,
    created: typeof chat.created_at === 'number' ? chat.created_at : nowSeconds(),
    text: answers.map((m) => str(m.content)).join(''),
    finish: 'stop',
    usage,
  });
  const reasoning = answers.map((m) => str(m.reasoning_content)).join('');
  if (reasoning !== '') completion.choices[0]!.message.reasoning_content = reasoning;
  return { completion, usage };
}

/** Coze error bodies: `{code, msg}` (also sent behind a 200 status) or the gateway's own `{error: {message}}`. */
export function cozeErrorMessage(text: string, status: number): string {
  try {
    const parsed = obj(JSON.parse(text));
    if (typeof parsed?.msg === 'string' && parsed.msg !== '') return parsed.msg;
    if (typeof obj(parsed?.error)?.message === 'string') return obj(parsed!.error)!.message as string;
    if (typeof parsed?.message === 'string') return parsed.message;
  } catch {
    /* not JSON */
  }
  return text.slice(0, 500) || `upstream answered ${status}`;
}

/** The HTTP status for a Coze error code sent behind a 200: token problems are 401, the rest 400. */
export function cozeErrorStatus(code: unknown): number {
  return code === 4100 || code === 4101 ? 401 : 400;
}
