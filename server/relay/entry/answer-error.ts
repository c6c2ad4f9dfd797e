/**
 * Ends, with an error in the caller's format, an answer the relay already took over from Fastify
 * (`reply.hijack()`), so no call ends without a status: before anything was sent, the error's own
 * status and body; in a stream already begun (its 200 sent), the format's error event in place of
 * the closing event the client waits for.
 */
import type { ServerResponse } from 'node:http';
import type { AppError } from '../../http/errors.js';
import { relayCode, renderError, type WireFormat } from '../../http/wire.js';
import type { Endpoint } from '../endpoints.js';

/** The error event of a stream in `wire` (Responses streams have their own `error` event). */
export function renderStreamError(wire: WireFormat, endpoint: Endpoint, error: AppError): string {
  if (wire === 'openai' && endpoint === 'responses') {
    const event = { type: 'error', code: relayCode(error), message: error.message, param: null };
    return `event: error\ndata: ${JSON.stringify(event)}\n\n`;
  }
  const { body } = renderError(wire, error);
  return `${wire === 'claude' ? 'event: error\n' : ''}data: ${JSON.stringify(body)}\n\n`;
}

export function answerError(out: ServerResponse, wire: WireFormat, endpoint: Endpoint, error: AppError): void {
  if (out.destroyed || out.writableEnded) return;
  if (!out.headersSent) {
    const { status, body } = renderError(wire, error);
    const text = JSON.stringify(body);
    const retry = error.retryAfter === undefined ? {} : { 'retry-after': String(error.retryAfter) };
    out.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...retry });
    out.end(text);
    return;
  }
  // A binary answer (speech) has no way to say it failed: cut, so it is not taken for complete.
  if (!String(out.getHeader('content-type') ?? '').startsWith('text/event-stream')) {
    out.destroy();
    return;
  }
  out.end(renderStreamError(wire, endpoint, error));
}
