/**
 * OpenAI chat ⇄ a Dify app's `POST /v1/chat-messages`, pure functions.
 *
 * Stateless by design: each request starts a new Dify conversation (`conversation_id` empty);
 * `query` is the last user message's text (the app keeps its own prompt, so system messages and
 * earlier turns are not sent); its images given by http(s) link go as `files` (remote_url);
 * `user` is the OpenAI `user` field, else a fixed name. `response_mode` is `streaming` for streams
 * and `blocking` otherwise (agent apps answer in streaming mode only).
 *
 * Answers: the blocking answer's `answer` and `metadata.usage`; stream events (SSE `data:` JSON
 * with an `event` field) `message` and `agent_message` carry text in `answer`, `message_end` the
 * usage, `message_replace` a moderated replacement (the answer ends as content_filter), `error` a
 * failure; workflow, node, agent-thought, file, TTS and ping events carry nothing to relay.
 */
import type { Usage } from '../../../billing/pricing.js';
import type { SseEvent } from '../../wire/sse.js';
import type { StreamEvent } from '../../wire/events.js';
import type { OpenAIChatCompletion } from '../../wire/openai/openai-types.js';
import { nowSeconds, obj, openAICompletion, str, textOf, type Json } from '../kit/chat-text.js';

/** The `user` Dify records when the client names none. */
export const DIFY_DEFAULT_USER = 'ai-gateway';

export interface DifyFile {
  type: 'image';
  transfer_method: 'remote_url';
  url: string;
}

export interface DifyChatRequest {
  inputs: Record<string, unknown>;
  query: string;
  response_mode: 'streaming' | 'blocking';
  conversation_id: '';
  user: string;
  files?: DifyFile[];
}

function imageLinks(content: unknown): DifyFile[] {
  const files: DifyFile[] = [];
  for (const part of Array.isArray(content) ? content : []) {
    const p = obj(part);
    if (p?.type !== 'image_url') continue;
    const url = typeof p.image_url === 'string' ? p.image_url : str(obj(p.image_url)?.url);
    if (/^https?:\/\//i.test(url)) files.push({ type: 'image', transfer_method: 'remote_url', url });
  }
  return files;
}

export function convertToDifyChat(body: Json, stream: boolean): DifyChatRequest {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const last =
    [...messages]
      .reverse()
      .map(obj)
      .find((m) => m?.role === 'user') ?? null;
  const request: DifyChatRequest = {
    inputs: {},
    query: last ? textOf(last.content) : '',
    response_mode: stream ? 'streaming' : 'blocking',
    conversation_id: '',
    user: str(body.user) || DIFY_DEFAULT_USER,
  };
  const files = last ? imageLinks(last.content) : [];
  if (files.length > 0) request.files = files;
  return request;
}

/** Usage from Dify's `metadata.usage`. */
export function usageFromDify(metadata: unknown): Usage | null {
  const usage = obj(obj(metadata)?.usage);
  if (!usage || (typeof usage.prompt_tokens !== 'number' && typeof usage.completion_tokens !== 'number')) return null;
  return { promptTokens: Number(usage.prompt_tokens) || 0, completionTokens: Number(usage.completion_tokens) || 0 };
}

/** A blocking answer as an OpenAI chat.completion. */
export function convertDifyAnswer(payload: unknown, model: string): { completion: OpenAIChatCompletion; usage: Usage | null } {
  const answer = obj(payload) ?? {};
  const usage = usageFromDify(answer.metadata);
  const id = str(answer.message_id) || str(answer.id) || `chatcmpl-dify-${nowSeconds()}`;
  const created = typeof answer.created_at === 'number' ? answer.created_at : nowSeconds();
  const completion = openAICompletion({ id, model, created, text: str(answer.answer), finish: 'stop', usage });
  return { completion, usage };
}

const ANSWER_EVENTS = new Set(['message', 'agent_message', 'message_replace', 'message_end']);

export function createDifyStreamParser(model: string): { push(event: SseEvent): StreamEvent[] } {
  let started = false;
  let replaced = false;
  return {
    push(event) {
      let data: Record<string, unknown> | null;
      try {
        data = obj(JSON.parse(event.data));
      } catch {
        return [];
      }
      if (!data) return [];
      const out: StreamEvent[] = [];
      // The answer starts with its first message event (workflow and ping events come before).
      if (!started && ANSWER_EVENTS.has(str(data.event))) {
        started = true;
        const id = str(data.message_id) || str(data.task_id) || `chatcmpl-dify-${nowSeconds()}`;
        out.push({ type: 'start', id, model, created: typeof data.created_at === 'number' ? data.created_at : nowSeconds() });
      }
      switch (data.event) {
        case 'message':
        case 'agent_message':
          if (typeof data.answer === 'string' && data.answer !== '') out.push({ type: 'text', index: 0, text: data.answer });
          break;
        case 'message_replace':
          replaced = true;
          break;
        case 'message_end': {
          const usage = usageFromDify(data.metadata);
          if (usage) out.push({ type: 'usage', usage });
          out.push({ type: 'finish', index: 0, reason: replaced ? 'content_filter' : 'stop' });
          break;
        }
        case 'error':
          out.push({ type: 'error', message: str(data.message) || str(data.code) || 'Dify reported an error' });
          break;
      }
      return out;
    },
  };
}

/** The message of a Dify error body (`{"code", "message", "status"}`). */
export function difyErrorMessage(text: string, status: number): string {
  try {
    const parsed = obj(JSON.parse(text));
    if (typeof parsed?.message === 'string') return parsed.message;
  } catch {
    /* not JSON */
  }
  return text.slice(0, 500) || `upstream answered ${status}`;
}
