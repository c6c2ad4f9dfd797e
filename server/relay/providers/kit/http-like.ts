/**
 * Upstream answers made in code, for chat adapters that perform their exchange themselves
 * (`ChatAdapter.send`): iFlytek's websocket, error bodies that providers send behind a 200 status,
 * a whole answer served as a one-event stream. The relay reads an upstream answer only through its
 * status, its content type and its body as a stream of bytes, which is all these give. Also the
 * reading of such answers: a small JSON body whole, and an error body's message.
 */
import { Readable } from 'node:stream';
import type { UpstreamResponse } from '../../call/call-upstream.js';
import { readText, upstreamErrorMessage } from '../../call/call-upstream.js';

/** An answer with this status, content type and body (text, or a stream of bytes). */
export function httpLikeAnswer(statusCode: number, contentType: string, body: string | Readable): UpstreamResponse {
  const stream = typeof body === 'string' ? Readable.from([Buffer.from(body, 'utf8')]) : body;
  const answer = { statusCode, headers: { 'content-type': contentType }, body: stream, trailers: {}, opaque: null, context: {} };
  // Only `statusCode`, `headers['content-type']` and the body's bytes are read by the relay.
  return answer as unknown as UpstreamResponse;
}

/** A JSON answer. */
export function jsonAnswer(statusCode: number, payload: unknown): UpstreamResponse {
  return httpLikeAnswer(statusCode, 'application/json', JSON.stringify(payload));
}

/** One SSE event whose data is this JSON, as a whole stream. */
export function oneEventStream(payload: unknown): UpstreamResponse {
  return httpLikeAnswer(200, 'text/event-stream', `data: ${JSON.stringify(payload)}\n\n`);
}

export function isJsonAnswer(res: UpstreamResponse): boolean {
  return String(res.headers['content-type'] ?? '').includes('json');
}

/** Reads a (small) JSON answer whole; null when it is not JSON. */
export async function readJson(res: UpstreamResponse, limit?: number): Promise<{ text: string; payload: unknown }> {
  const text = await readText(res, limit);
  try {
    return { text, payload: JSON.parse(text) as unknown };
  } catch {
    return { text, payload: null };
  }
}

/** An error answer's message: what `read` finds in its JSON body, else the relay's generic reading of the text. */
export function errorMessageOf(text: string, status: number, read: (payload: unknown) => string | null): string {
  try {
    const message = read(JSON.parse(text) as unknown);
    if (message) return message;
  } catch {
    /* not JSON */
  }
  return upstreamErrorMessage(text, status);
}
