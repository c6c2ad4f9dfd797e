/** Calls upstream providers through one keep-alive connection pool (undici). */
import { Agent, request, type Dispatcher } from 'undici';
import type { UpstreamTarget } from './providers/types.js';

export const upstreamAgent = new Agent({
  keepAliveTimeout: 30_000,
  connections: 512,
  pipelining: 1,
  headersTimeout: 300_000,
  bodyTimeout: 300_000,
});

export type UpstreamResponse = Dispatcher.ResponseData;

export function callUpstream(
  target: UpstreamTarget,
  body: string | Buffer,
  contentType: string,
  signal: AbortSignal,
): Promise<UpstreamResponse> {
  return request(target.url, {
    method: 'POST',
    headers: { ...target.headers, 'content-type': contentType, accept: '*/*' },
    body,
    signal,
    dispatcher: upstreamAgent,
  });
}

/** Reads a whole (small) upstream body as text. */
export async function readText(res: UpstreamResponse, limit = 4 * 1024 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      res.body.destroy();
      break;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
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
