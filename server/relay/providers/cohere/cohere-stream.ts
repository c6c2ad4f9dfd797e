/**
 * Cohere v2 chat stream events → StreamEvents. Each SSE event's JSON carries its `type`:
 * message-start (id), content-delta (`delta.message.content.text`, or `.thinking` for reasoning
 * models), tool-plan-delta (the plan before tool calls, relayed as reasoning), tool-call-start (id,
 * name, first arguments) and tool-call-delta (more arguments), and message-end (`finish_reason`,
 * `usage`). Content/tool-call start and end markers, citations and debug events carry nothing to relay.
 */
import type { SseEvent } from '../../wire/sse.js';
import type { StreamEvent } from '../../wire/events.js';
import { nowSeconds, obj, str } from '../kit/chat-text.js';
import { mapCohereFinishReason, usageFromCohere } from './convert-cohere.js';

export function createCohereStreamParser(model: string): { push(event: SseEvent): StreamEvent[] } {
  let started = false;
  /** Cohere's tool-call index → ours, in order of appearance. */
  const calls = new Map<number, number>();
  const start = (id: string): StreamEvent[] => {
    if (started) return [];
    started = true;
    return [{ type: 'start', id: id || `chatcmpl-cohere-${nowSeconds()}`, model, created: nowSeconds() }];
  };
  return {
    push(event) {
      let data: Record<string, unknown> | null;
      try {
        data = obj(JSON.parse(event.data));
      } catch {
        return [];
      }
      if (!data) return [];
      const type = str(data.type) || event.event;
      const delta = obj(data.delta) ?? {};
      const message = obj(delta.message) ?? {};
      const out: StreamEvent[] = type === 'message-start' ? start(str(data.id)) : start('');
      switch (type) {
        case 'content-delta': {
          const content = obj(message.content) ?? {};
          if (typeof content.thinking === 'string' && content.thinking !== '') {
            out.push({ type: 'reasoning', index: 0, text: content.thinking });
          }
          if (typeof content.text === 'string' && content.text !== '') out.push({ type: 'text', index: 0, text: content.text });
          break;
        }
        case 'tool-plan-delta':
          if (typeof message.tool_plan === 'string' && message.tool_plan !== '') {
            out.push({ type: 'reasoning', index: 0, text: message.tool_plan });
          }
          break;
        case 'tool-call-start':
        case 'tool-call-delta': {
          const call = obj(message.tool_calls) ?? {};
          const fn = obj(call.function) ?? {};
          const cohereIndex = Number(data.index) || 0;
          let callIndex = calls.get(cohereIndex);
          if (callIndex === undefined) {
            callIndex = calls.size;
            calls.set(cohereIndex, callIndex);
          }
          out.push({
            type: 'tool_call',
            index: 0,
            callIndex,
            ...(type === 'tool-call-start' ? { id: str(call.id), name: str(fn.name) } : {}),
            arguments: str(fn.arguments),
          });
          break;
        }
        case 'message-end': {
          if (typeof delta.error === 'string' && delta.error !== '') out.push({ type: 'error', message: delta.error });
          const usage = usageFromCohere(delta.usage);
          if (usage) out.push({ type: 'usage', usage });
          out.push({ type: 'finish', index: 0, reason: mapCohereFinishReason(delta.finish_reason) });
          break;
        }
      }
      return out;
    },
  };
}
