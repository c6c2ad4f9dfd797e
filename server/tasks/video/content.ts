/**
 * `GET /v1/videos/{id}/content`: the owner's finished video streamed from its vendor through this
 * server chunk by chunk (never held whole, never a redirect to the vendor: its URLs may carry
 * credentials). A redirect the vendor answers is followed here, without the channel's credentials.
 */
import { Readable } from 'node:stream';
import { request, type Dispatcher } from 'undici';
import type { FastifyReply } from 'fastify';
import type { GatewayContext } from '../../context.js';
import type { Task } from '../../db/types.js';
import { withKey } from '../../channels/keys/picker.js';
import { withHeaderOverride } from '../../channels/header-override.js';
import { upstreamAgent } from '../../relay/call/call-upstream.js';
import { relayErrors } from '../../relay/errors.js';
import { channelOf } from '../poll-round.js';
import { taskErrors } from '../errors.js';
import { STATUS_SUCCESS } from '../status.js';
import { videoPlatformOf } from './platforms.js';
import { videoProperties, type VideoProperties } from './view.js';
import type { PlatformCall, VideoPlatform } from './platform.js';
import { inlineBytes } from './inline-file.js';
import type { Channel } from '../../db/types.js';
import { AppError } from '../../http/errors.js';
import { callPlatform, parseJson } from '../channel.js';

const MAX_REDIRECTS = 3;
const HEADERS_TIMEOUT_MS = 60_000;
const LOCATE_TIMEOUT_MS = 30_000;
const PASSED = ['content-type', 'content-length', 'last-modified', 'etag'] as const;

async function open(call: PlatformCall, headers: Record<string, string>): Promise<Dispatcher.ResponseData> {
  let target = call.url;
  let sent = headers;
  // A vendor answering the file inside a JSON answer is asked by POST (Vertex's fetchPredictOperation).
  const json = call.body === undefined ? undefined : JSON.stringify(call.body);
  for (let hop = 0; ; hop++) {
    const res = await request(target, {
      method: json === undefined || hop > 0 ? 'GET' : 'POST',
      headers: json === undefined || hop > 0 ? sent : { ...sent, 'content-type': 'application/json' },
      body: hop > 0 ? undefined : json,
      dispatcher: upstreamAgent,
      headersTimeout: HEADERS_TIMEOUT_MS,
    });
    const location = res.headers.location;
    if (res.statusCode < 300 || res.statusCode >= 400 || typeof location !== 'string' || hop >= MAX_REDIRECTS) return res;
    await res.body.dump();
    const next = new URL(location, target);
    if (next.protocol !== 'https:' && next.protocol !== 'http:') throw new Error('redirect to a non-web address');
    // A redirect names a signed address that carries its own authority: the channel's credentials stay home.
    sent = {};
    target = next.href;
  }
}

/** The file's address as the vendor gives it now (its addresses expire). */
async function locate(channel: Channel, how: NonNullable<VideoPlatform['locate']>, p: VideoProperties): Promise<string> {
  const call = how.call(channel, p.upstream_id, p.file);
  const answer = await callPlatform(call.url, withHeaderOverride(call.headers, channel), undefined, LOCATE_TIMEOUT_MS);
  const address = how.address(answer.status, parseJson(answer.text));
  if (!address) throw relayErrors.upstream(502, `video file: the vendor answered ${answer.status}`);
  return address;
}

async function* prepend(head: Buffer, rest: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  yield head;
  yield* rest;
}

export async function streamVideo(ctx: GatewayContext, row: Task, reply: FastifyReply): Promise<FastifyReply> {
  if (row.status !== STATUS_SUCCESS) throw taskErrors.statusNotSuccess();
  const stored = await channelOf(ctx, row.channel_id);
  const channel = stored && withKey(ctx, stored, 0);
  const platform = channel && videoPlatformOf(channel.type);
  if (!channel || !platform) throw taskErrors.channelGone();
  const p = videoProperties(row);
  let res: Dispatcher.ResponseData;
  let call: PlatformCall;
  try {
    const file = platform.locate ? await locate(channel, platform.locate, p) : p.file;
    call = await platform.content(channel, p.upstream_id, file);
    // A signed address gets no headers at all: an override may hold the key (`{api_key}`).
    res = await open(call, Object.keys(call.headers).length ? withHeaderOverride(call.headers, channel) : {});
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw relayErrors.connection((err as Error).message);
  }
  if (res.statusCode !== 200) {
    // The vendor's words may name its own ids or addresses: only the status goes back.
    await res.body.dump().catch(() => undefined);
    throw relayErrors.upstream(res.statusCode === 404 ? 404 : 502, `video content: the vendor answered ${res.statusCode}`);
  }
  reply.header('cache-control', 'private, no-store');
  if (call.inline) {
    // The vendor's headers describe its JSON answer, not the file decoded out of it.
    reply.header('content-type', 'video/mp4');
    const bytes = inlineBytes(res.body, call.inline);
    const first = await bytes.next().catch(() => null);
    if (!first || first.done) {
      res.body.destroy();
      throw relayErrors.upstream(502, 'video content: no file in the vendor answer');
    }
    return reply.send(Readable.from(prepend(first.value, bytes)));
  }
  for (const name of PASSED) {
    const value = res.headers[name];
    if (typeof value === 'string') reply.header(name, value);
  }
  if (typeof res.headers['content-type'] !== 'string') reply.header('content-type', 'video/mp4');
  return reply.send(res.body);
}
