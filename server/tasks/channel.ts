/**
 * Channels of the task platforms and calls to them. A new task goes to a channel chosen like any
 * relayed request (the caller's group, the priced model name such as `mj_imagine`, priority tiers,
 * weights, one tier down per retry), restricted to the platform's channel types; a follow-up of an
 * existing task goes to the channel that holds it. Calls use the relay's keep-alive pool.
 */
import { request } from 'undici';
import type { GatewayContext } from '../context.js';
import type { Channel } from '../db/types.js';
import { upstreamAgent } from '../relay/call/call-upstream.js';
import { providerFor } from '../relay/providers/registry.js';
import type { Caller } from '../relay/entry/identify-caller.js';
import { withKey } from '../channels/keys/picker.js';
import { withHeaderOverride } from '../channels/header-override.js';
import { withoutInline } from './video/inline-file.js';

export const MIDJOURNEY_TYPES: ReadonlySet<number> = new Set([2, 5]);
export const SUNO_TYPES: ReadonlySet<number> = new Set([36]);

/**
 * The channel for attempt `attempt` of a new task, skipping channels already tried and channels
 * of other types that happen to list the model. An admin's `sk-KEY-<id>` pins its channel.
 */
export function pickChannel(
  ctx: GatewayContext,
  caller: Caller,
  model: string,
  types: ReadonlySet<number>,
  attempt: number,
  tried: readonly number[],
): Channel | undefined {
  if (caller.pinnedChannelId !== null) {
    const pinned = ctx.channels.get(caller.pinnedChannelId);
    return attempt === 0 && pinned && types.has(pinned.type) ? withKey(ctx, pinned, caller.user.id) : undefined;
  }
  const exclude = new Set(tried);
  for (;;) {
    const channel = ctx.channels.pick(caller.group, model, attempt, exclude);
    if (!channel) return undefined;
    if (types.has(channel.type)) return withKey(ctx, channel, caller.user.id);
    exclude.add(channel.id);
  }
}

/** Upstream answers worth another channel: the channel's own trouble, not the request's. */
export function retryable(status: number): boolean {
  return status >= 500 || status === 401 || status === 403 || status === 429;
}

export function baseUrl(channel: Channel): string {
  return (channel.base_url ?? '').replace(/\/+$/, '');
}

/** The platform's credentials header for a task channel (its provider definition in the relay registry). */
export function platformHeaders(channel: Channel): Record<string, string> {
  return withHeaderOverride(providerFor(channel.type)?.target(channel, 'chat.completions', '').headers ?? {}, channel);
}

export interface UpstreamAnswer {
  status: number;
  text: string;
}

const ANSWER_LIMIT = 8 * 1024 * 1024;

/**
 * One call to a task platform: a JSON body or a multipart form (or none for GET), the whole answer
 * read as text — less the string values of `inline`, a file the vendor sends in its answer.
 */
export async function callPlatform(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  timeoutMs: number,
  signal?: AbortSignal,
  inline?: string,
): Promise<UpstreamAnswer> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const json = body !== undefined && !(body instanceof FormData);
  // A multipart form (an image already in memory) is encoded with its boundary by the platform's Response.
  const form = body instanceof FormData ? new Response(body) : null;
  const res = await request(url, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...headers,
      accept: 'application/json',
      ...(json ? { 'content-type': 'application/json' } : {}),
      ...(form ? { 'content-type': form.headers.get('content-type')! } : {}),
    },
    body: form ? Buffer.from(await form.arrayBuffer()) : json ? JSON.stringify(body) : undefined,
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    dispatcher: upstreamAgent,
  });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of inline ? withoutInline(res.body, inline) : res.body) {
    size += (chunk as Buffer).length;
    if (size > ANSWER_LIMIT) {
      res.body.destroy();
      throw new Error(`answer larger than ${ANSWER_LIMIT} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return { status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') };
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function str(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
}

export function int(v: unknown): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  return Number.isFinite(n) ? Math.trunc(n) : 0;
}
