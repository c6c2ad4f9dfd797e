/**
 * OpenAI chat-completion chunks → the relay's StreamEvents, for answers from OpenAI-compatible
 * channels that a client in another format (Claude, Gemini) is waiting for.
 */
import type { SseEvent } from '../sse.js';
import type { FinishReason, StreamEvent } from '../events.js';
import { usageOf } from './usage.js';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null);

const FINISH: Record<string, FinishReason> = {
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  content_filter: 'content_filter',
};

export function createOpenAIStreamParser(): { push(event: SseEvent): StreamEvent[] } {
  let started = false;
  return {
    push(event) {
      if (event.data === '[DONE]') return [];
      let chunk: Json | null;
      try {
        chunk = obj(JSON.parse(event.data));
      } catch {
        return [];
      }
      if (!chunk) return [];
      const out: StreamEvent[] = [];
      const error = obj(chunk.error);
      if (error) return [{ type: 'error', message: String(error.message ?? 'upstream error') }];
      if (!started) {
        started = true;
        out.push({
          type: 'start',
          id: String(chunk.id ?? ''),
          model: String(chunk.model ?? ''),
          created: Number(chunk.created) || Math.floor(Date.now() / 1000),
        });
      }
      for (const c of Array.isArray(chunk.choices) ? chunk.choices : []) {
        const choice = obj(c);
        if (!choice) continue;
        const index = Number(choice.index) || 0;
        const delta = obj(choice.delta) ?? {};
        if (typeof delta.reasoning_content === 'string' && delta.reasoning_content !== '') {
          out.push({ type: 'reasoning', index, text: delta.reasoning_content });
        }
        if (typeof delta.content === 'string' && delta.content !== '') out.push({ type: 'text', index, text: delta.content });
        for (const t of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
          const call = obj(t);
          if (!call) continue;
          const fn = obj(call.function) ?? {};
          out.push({
            type: 'tool_call',
            index,
            callIndex: Number(call.index) || 0,
            ...(typeof call.id === 'string' ? { id: call.id } : {}),
            ...(typeof fn.name === 'string' ? { name: fn.name } : {}),
            arguments: typeof fn.arguments === 'string' ? fn.arguments : '',
          });
        }
        if (typeof choice.finish_reason === 'string') {
          out.push({ type: 'finish', index, reason: FINISH[choice.finish_reason] ?? 'stop' });
        }
      }
      const usage = usageOf(chunk);
      if (usage) out.push({ type: 'usage', usage });
      return out;
    },
  };
}
