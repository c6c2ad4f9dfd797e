/**
 * Bedrock's streamed answers (`application/vnd.amazon.eventstream`): binary AWS event-stream
 * messages, each `chunk` event carrying `{"bytes": base64 of one Claude stream event}`. Decoded into
 * the SSE events a Claude stream would have had, so the Claude parser and passthrough read them as
 * they are. An exception message (throttling, model errors mid-stream) becomes Claude's `error` event.
 */
import { EventStreamCodec, type MessageHeaders } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import type { SseEvent } from '../../wire/sse.js';
import type { FrameDecoder } from '../types.js';

export const EVENT_STREAM_CONTENT_TYPE = 'application/vnd.amazon.eventstream';

/** Prelude (total length, headers length, prelude CRC) and the trailing message CRC. */
const PRELUDE_BYTES = 12;
const MIN_MESSAGE_BYTES = 16;
/** Bedrock chunks are small; anything near this is a broken stream, not a message. */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

function headerString(headers: MessageHeaders, name: string): string {
  const header = headers[name];
  return header?.type === 'string' ? header.value : '';
}

function errorEvent(type: string, message: string): SseEvent {
  return { event: 'error', data: JSON.stringify({ type: 'error', error: { type, message } }) };
}

/** The Claude event one event-stream message carries, if any. */
function eventOf(headers: MessageHeaders, body: Uint8Array): SseEvent | null {
  const messageType = headerString(headers, ':message-type');
  const text = toUtf8(body);
  if (messageType === 'exception') {
    const type = headerString(headers, ':exception-type') || 'exception';
    let message = text;
    try {
      const parsed = JSON.parse(text) as { message?: unknown };
      if (typeof parsed.message === 'string') message = parsed.message;
    } catch {
      /* plain text */
    }
    return errorEvent(type, message || type);
  }
  if (messageType === 'error') {
    const code = headerString(headers, ':error-code') || 'error';
    return errorEvent(code, headerString(headers, ':error-message') || code);
  }
  if (headerString(headers, ':event-type') !== 'chunk') return null;
  const payload = JSON.parse(text) as { bytes?: unknown };
  if (typeof payload.bytes !== 'string') return null;
  const data = Buffer.from(payload.bytes, 'base64').toString('utf8');
  const type = (JSON.parse(data) as { type?: unknown }).type;
  return { event: typeof type === 'string' ? type : 'message', data };
}

export function createBedrockEventStreamDecoder(): FrameDecoder {
  const codec = new EventStreamCodec(toUtf8, fromUtf8);
  let buffer: Buffer = Buffer.alloc(0);
  return {
    push(chunk) {
      buffer = buffer.length === 0 ? Buffer.from(chunk) : Buffer.concat([buffer, chunk]);
      const events: SseEvent[] = [];
      while (buffer.length >= PRELUDE_BYTES) {
        const length = buffer.readUInt32BE(0);
        if (length < MIN_MESSAGE_BYTES || length > MAX_MESSAGE_BYTES) {
          throw new Error(`unreadable AWS event stream (message length ${length})`);
        }
        if (buffer.length < length) break;
        // The codec checks both CRCs and throws on a corrupted message.
        const message = codec.decode(buffer.subarray(0, length));
        buffer = buffer.subarray(length);
        const event = eventOf(message.headers, message.body);
        if (event) events.push(event);
      }
      return events;
    },
    end() {
      if (buffer.length > 0) throw new Error('AWS event stream ended inside a message');
      return [];
    },
  };
}
