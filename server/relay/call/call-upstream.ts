/**
 * Calls upstream providers through one keep-alive connection pool (undici), whose every connection
 * follows the upstream address rule (server/http/upstream-guard.ts).
 */
import { EventEmitter } from 'node:events';
import { Agent, request, type Dispatcher } from 'undici';
import { guardedConnector } from '../../http/upstream-guard.js';
import { upstreamTraceparent } from '../../observability/upstream-trace.js';

export const upstreamAgent = new Agent({
  connect: guardedConnector(),
  keepAliveTimeout: 30_000,
  connections: 512,
  pipelining: 1,
  headersTimeout: 300_000,
  bodyTimeout: 300_000,
});

export type UpstreamResponse = Dispatcher.ResponseData;

/** Where and how to send one upstream call. */
export interface UpstreamTarget {
  url: string;
  headers: Record<string, string>;
}

/**
 * Cancels one relayed call when its client goes away. An AbortController would do, but the hot path
 * pays for one on every call (its EventTarget costs more than the rest of the call's bookkeeping);
 * undici takes an emitter of 'abort' as its signal just as well.
 */
export class CallCancel extends EventEmitter {
  aborted = false;
  reason: Error | undefined;
  cancel(reason = new Error('the client went away')): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }
}

/** What can cancel an upstream call: an AbortSignal (tests, background jobs) or a CallCancel (the relay). */
export type CancelSignal = AbortSignal | CallCancel;

/** Calls `listener` once when `signal` cancels; returns what removes it. */
export function onCancel(signal: CancelSignal, listener: () => void): () => void {
  if (signal instanceof CallCancel) {
    signal.once('abort', listener);
    return () => signal.off('abort', listener);
  }
  signal.addEventListener('abort', listener, { once: true });
  return () => signal.removeEventListener('abort', listener);
}

/** Origin and path of each upstream URL, parsed once: a channel's calls go to a handful of them. */
const parsedUrls = new Map<string, { origin: string; path: string } | null>();
const PARSED_MAX = 4096;

/** `url` split as undici splits it, or null when undici should judge it (not http or https). */
function originAndPath(url: string): { origin: string; path: string } | null {
  let parsed = parsedUrls.get(url);
  if (parsed !== undefined) return parsed;
  let u: URL | null = null;
  try {
    u = new URL(url);
  } catch {
    /* undici refuses it in its words */
  }
  parsed =
    u && (u.protocol === 'http:' || u.protocol === 'https:')
      ? { origin: u.origin, path: u.search ? `${u.pathname}${u.search}` : u.pathname }
      : null;
  if (parsedUrls.size >= PARSED_MAX) parsedUrls.clear();
  parsedUrls.set(url, parsed);
  return parsed;
}

export function callUpstream(
  target: UpstreamTarget,
  body: string | Buffer,
  contentType: string,
  signal: CancelSignal,
): Promise<UpstreamResponse> {
  const traceparent = upstreamTraceparent(signal);
  const headers = { ...target.headers, 'content-type': contentType, accept: '*/*', ...(traceparent && { traceparent }) };
  const at = originAndPath(target.url);
  // Straight to the pool: undici's request() would parse the URL again on every call.
  if (at) return upstreamAgent.request({ origin: at.origin, path: at.path, method: 'POST', headers, body, signal });
  return request(target.url, { method: 'POST', headers, body, signal, dispatcher: upstreamAgent });
}

/**
 * Reads a whole (small) upstream body as text; past `limit` bytes the body is dropped and what came
 * so far is kept. Read through events rather than an async iterator: one promise per body, not one
 * per chunk.
 */
export function readText(res: UpstreamResponse, limit = 4 * 1024 * 1024): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const body = res.body;
    const done = () => {
      body.off('data', onData);
      body.off('error', onError);
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        body.off('end', done);
        body.destroy();
        done();
        return;
      }
      chunks.push(chunk);
    };
    const onError = (err: Error) => {
      body.off('end', done);
      reject(err);
    };
    body.on('data', onData);
    body.once('end', done);
    body.once('error', onError);
  });
}

/** The message of an upstream error body (OpenAI shape or plain text). */
export function upstreamErrorMessage(text: string, status: number): string {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof parsed.error === 'string') return parsed.error;
    if (parsed.error && typeof parsed.error.message === 'string') return parsed.error.message;
    if (typeof parsed.message === 'string') return parsed.message;
  } catch {
    /* not JSON */
  }
  return text.slice(0, 500) || `upstream answered ${status}`;
}
