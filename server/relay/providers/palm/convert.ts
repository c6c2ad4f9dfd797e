/**
 * OpenAI chat ⇄ PaLM 2 `generateMessage` (generativelanguage v1beta2), pure. The system prompt is
 * the prompt's `context`; turns are `messages[{author, content}]` with authors "0" (user) and "1"
 * (model); the answer is `candidates[{author, content}]`, with `filters` when the content was
 * blocked. PaLM reports no token usage, so the relay counts locally.
 */
import type { Usage } from '../../../billing/pricing.js';
import type { SseEvent } from '../../wire/sse.js';
import type { StreamEvent } from '../../wire/events.js';
import { nowSeconds, num, obj, openAICompletion, str, toTextTurns, type Json } from '../kit/chat-text.js';

const USER = '0';
const MODEL = '1';

/** The generateMessage body for an OpenAI chat body. */
export function convertToPalmRequest(body: Json): Json {
  const { system, turns } = toTextTurns(body.messages);
  const prompt: Json = { messages: turns.map((t) => ({ author: t.role === 'user' ? USER : MODEL, content: t.content })) };
  if (system !== '') prompt.context = system;
  const out: Json = { prompt };
  const temperature = num(body.temperature);
  if (temperature !== undefined) out.temperature = temperature;
  const topP = num(body.top_p);
  if (topP !== undefined) out.topP = topP;
  const topK = num(body.top_k);
  if (topK !== undefined) out.topK = topK;
  return out;
}

/** Google's `{error: {code, message, status}}`, or null. */
export function palmErrorOf(payload: unknown): { status: string; message: string } | null {
  const error = obj(obj(payload)?.error);
  if (!error) return null;
  return { status: str(error.status), message: str(error.message) || str(error.status) || 'PaLM 返回错误' };
}

/** The first candidate's text, and whether the answer was blocked (no candidate, filters given). */
function candidateOf(payload: unknown): { text: string; blocked: boolean } {
  const p = obj(payload) ?? {};
  const candidates = Array.isArray(p.candidates) ? p.candidates : [];
  const first = obj(candidates[0]);
  if (first) return { text: str(first.content), blocked: false };
  return { text: '', blocked: Array.isArray(p.filters) && p.filters.length > 0 };
}

/** A whole generateMessage answer as an OpenAI chat.completion (no usage: counted locally). */
export function convertPalmResponse(payload: unknown, model: string): { completion: unknown; usage: Usage | null } {
  const { text, blocked } = candidateOf(payload);
  const completion = openAICompletion({
    id: `chatcmpl-${Date.now().toString(36)}`,
    model,
    created: nowSeconds(),
    text,
    finish: blocked ? 'content_filter' : 'stop',
    usage: null,
  });
  return { completion, usage: null };
}

/** The whole answer, served as one SSE event, → StreamEvents. */
export function createPalmStreamParser(model: string): { push(event: SseEvent): StreamEvent[] } {
  return {
    push(event) {
      let payload: unknown;
      try {
        payload = JSON.parse(event.data);
      } catch {
        return [];
      }
      const error = palmErrorOf(payload);
      if (error) return [{ type: 'error', message: error.message }];
      const { text, blocked } = candidateOf(payload);
      const out: StreamEvent[] = [{ type: 'start', id: `chatcmpl-${Date.now().toString(36)}`, model, created: nowSeconds() }];
      if (text !== '') out.push({ type: 'text', index: 0, text });
      out.push({ type: 'finish', index: 0, reason: blocked ? 'content_filter' : 'stop' });
      return out;
    },
  };
}
