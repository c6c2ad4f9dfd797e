/**
 * Ollama's streams: newline-delimited JSON (`application/x-ndjson`), one `/api/chat` answer object
 * per line, the last with `done: true`, its `done_reason` and the token counters. A line with an
 * `error` field reports a failure mid-stream.
 */
import type { SseEvent } from '../../wire/sse.js';
import type { StreamEvent } from '../../wire/events.js';
import type { FrameDecoder } from '../types.js';
import { obj, str } from '../kit/chat-text.js';
import { createdOf, mapOllamaDoneReason, toolCallsFromOllama, usageFromOllama } from './convert-ollama.js';

/** NDJSON lines as events (`data` = the line), so the relay's stream loop reads them like SSE. */
export function createNdjsonDecoder(): FrameDecoder {
  const decoder = new TextDecoder();
  let buffer = '';
  const lines = (final: boolean): SseEvent[] => {
    const out: SseEvent[] = [];
    let at = buffer.indexOf('\n');
    while (at !== -1) {
      const line = buffer.slice(0, at).trim();
      buffer = buffer.slice(at + 1);
      if (line !== '') out.push({ event: 'message', data: line });
      at = buffer.indexOf('\n');
    }
    if (final && buffer.trim() !== '') {
      out.push({ event: 'message', data: buffer.trim() });
      buffer = '';
    }
    return out;
  };
  return {
    push(chunk) {
      buffer += decoder.decode(chunk, { stream: true });
      return lines(false);
    },
    end() {
      buffer += decoder.decode();
      return lines(true);
    },
  };
}

/** Ollama `/api/chat` stream lines → StreamEvents. */
export function createOllamaStreamParser(): { push(event: SseEvent): StreamEvent[] } {
  let started = false;
  let calls = 0;
  return {
    push(event) {
      let line: Record<string, unknown> | null;
      try {
        line = obj(JSON.parse(event.data));
      } catch {
        return [];
      }
      if (!line) return [];
      if (typeof line.error === 'string') return [{ type: 'error', message: line.error }];
      const out: StreamEvent[] = [];
      if (!started) {
        started = true;
        const created = createdOf(line.created_at);
        out.push({ type: 'start', id: `chatcmpl-ollama-${created}`, model: str(line.model), created });
      }
      const message = obj(line.message) ?? {};
      const thinking = str(message.thinking);
      if (thinking !== '') out.push({ type: 'reasoning', index: 0, text: thinking });
      const content = str(message.content);
      if (content !== '') out.push({ type: 'text', index: 0, text: content });
      for (const call of toolCallsFromOllama(message.tool_calls, 'call', calls)) {
        out.push({
          type: 'tool_call',
          index: 0,
          callIndex: calls++,
          id: call.id,
          name: call.function.name,
          arguments: call.function.arguments,
        });
      }
      if (line.done === true) {
        const usage = usageFromOllama(line);
        if (usage) out.push({ type: 'usage', usage });
        out.push({ type: 'finish', index: 0, reason: mapOllamaDoneReason(line.done_reason, calls > 0) });
      }
      return out;
    },
  };
}
