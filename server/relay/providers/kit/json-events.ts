/**
 * Stream parsers for providers whose every stream event is one JSON object that may carry an
 * in-band error (Baidu, Tencent, iFlytek): an event that is not a JSON object is skipped, an error
 * event becomes an error, the first event starts the answer, and the provider reads the rest.
 */
import type { SseEvent } from '../../wire/sse.js';
import type { StreamEvent } from '../../wire/events.js';
import { obj, type Json } from './chat-text.js';

export interface JsonEventReader {
  /** The in-band error of an event, if any. */
  errorOf: (chunk: Json) => { message: string } | null;
  /** The answer's id and time, read from its first event. */
  startOf: (chunk: Json) => { id: string; created: number };
  /** The text, usage and finish events one event carries. */
  eventsOf: (chunk: Json) => StreamEvent[];
}

export function createJsonEventParser(model: string, reader: JsonEventReader): { push(event: SseEvent): StreamEvent[] } {
  let started = false;
  return {
    push(event) {
      let chunk: Json | null;
      try {
        chunk = obj(JSON.parse(event.data));
      } catch {
        return [];
      }
      if (!chunk) return [];
      const error = reader.errorOf(chunk);
      if (error) return [{ type: 'error', message: error.message }];
      const out: StreamEvent[] = [];
      if (!started) {
        started = true;
        const start = reader.startOf(chunk);
        out.push({ type: 'start', id: start.id, model, created: start.created });
      }
      out.push(...reader.eventsOf(chunk));
      return out;
    },
  };
}
