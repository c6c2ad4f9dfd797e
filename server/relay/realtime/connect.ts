/**
 * `GET /v1/realtime?model=…`: OpenAI's Realtime API over a websocket, relayed to an OpenAI-protocol
 * channel (`wss://{base}/v1/realtime?model=…`, Bearer key, `OpenAI-Beta: realtime=v1`) or an Azure
 * one (`/openai/realtime?api-version=…&deployment=…`, api-key). The key comes as a Bearer header
 * or, from browsers, as the subprotocol `openai-insecure-api-key.sk-…`.
 *
 * The upgrade request goes through Fastify's router, so refusals (auth, model, quota, no channel,
 * upstream errors) answer as plain HTTP errors in OpenAI's shape before any websocket exists; the
 * upstream is reached first (with retries down the tiers) and the client upgraded only then. A
 * reservation of PreConsumedQuota tokens is held from the start — a caller who cannot cover it is
 * refused — and the session (session.ts) bills each `response.done`.
 */
import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { GatewayContext } from '../../context.js';
import type { Channel } from '../../db/types.js';
import { refuse, type AppError } from '../../http/errors.js';
import { upstreamLookup, vetUpstreamHost } from '../../http/upstream-guard.js';
import { answerIn } from '../../http/wire.js';
import { relayErrors } from '../errors.js';
import { resolveCaller } from '../entry/identify-caller.js';
import { checkModelRateLimit } from '../../ratelimit/model-limit.js';
import { admitCaller } from '../routing/caller-limits.js';
import { ChannelSlots, chooser } from '../../ratelimit/channel-slots.js';
import { checkModelLimit, tokenCaller } from '../entry/read-request.js';
import { holdFor, payerOf, priceFor, reservationFor } from '../metering/charge.js';
import type { RelayInput } from '../types.js';
import { providerFor } from '../providers/registry.js';
import { azure, azureDeployment } from '../providers/azure/index.js';
import type { UpstreamTarget } from '../call/call-upstream.js';
import { mapModel, mapStatus } from '../call/map-model.js';
import { upstreamErrorMessage } from '../call/call-upstream.js';
import { reportUpstreamFailure, reportUpstreamNeutral, reportUpstreamSuccess } from '../call/report-outcome.js';
import { withKey } from '../../channels/keys/picker.js';
import { holdRecord, writeErrorLog } from '../metering/log-rows.js';
import { RealtimeSession, type Opened } from './session.js';
import { withHeaderOverride } from '../../channels/header-override.js';

const PATH = '/v1/realtime';
/** Browsers cannot set headers on websockets: the key rides in a subprotocol. */
const KEY_PROTOCOL = 'openai-insecure-api-key.';
/** Azure's realtime API is a preview: used when the channel names no api-version. */
const AZURE_REALTIME_VERSION = '2024-10-01-preview';
const HANDSHAKE_TIMEOUT_MS = 30_000;

/** As in the pipeline: a channel's own failures are worth another channel, a 400 is the request's. */
const RETRYABLE = (status: number) => status >= 500 || [401, 403, 404, 408, 429].includes(status);

/** Upgrade requests on their way through the router: the socket and the bytes read past the headers. */
const upgrades = new WeakMap<IncomingMessage, { socket: Socket; head: Buffer }>();

/** The websocket URL and headers of a channel's realtime endpoint (its header override applied); null for channels without one. */
function realtimeTarget(channel: Channel, model: string): UpstreamTarget | null {
  const target = providerTarget(channel, model);
  return target && { ...target, headers: withHeaderOverride(target.headers, channel) };
}

function providerTarget(channel: Channel, model: string): UpstreamTarget | null {
  const provider = providerFor(channel.type);
  if (!provider || provider.protocol !== 'openai') return null;
  const wsUrl = (http: string) => http.replace(/^http(s?):/i, 'ws$1:');
  if (provider === azure) {
    const base = (channel.base_url ?? '').replace(/\/+$/, '');
    const version = channel.other?.trim() || AZURE_REALTIME_VERSION;
    const query = `api-version=${encodeURIComponent(version)}&deployment=${encodeURIComponent(azureDeployment(model))}`;
    return { url: `${wsUrl(base)}/openai/realtime?${query}`, headers: { 'api-key': channel.key } };
  }
  // The provider's chat URL carries its base and path prefix; realtime sits beside it.
  const chat = provider.target(channel, 'chat.completions', model);
  const url = new URL(wsUrl(chat.url));
  url.pathname = url.pathname.replace(/\/chat\/completions$/, '/realtime');
  url.searchParams.set('model', model);
  return { url: url.toString(), headers: { ...chat.headers, 'openai-beta': 'realtime=v1' } };
}

type Connected =
  { ok: true; upstream: WebSocket; early: Array<[RawData, boolean]> } | { ok: false; error: AppError; status?: number };

/** Opens the upstream websocket; frames arriving before the client is upgraded are kept in `early`. */
function connect(target: UpstreamTarget, abort: AbortSignal): Promise<Connected> {
  return new Promise((resolve) => {
    // The upstream address rule, as the relay's pool applies it (upstream-guard.ts).
    try {
      vetUpstreamHost(new URL(target.url).hostname);
    } catch (err) {
      resolve({ ok: false, error: relayErrors.connection((err as Error).message) });
      return;
    }
    const upstream = new WebSocket(target.url, {
      headers: target.headers,
      handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
      perMessageDeflate: false,
      lookup: upstreamLookup,
    });
    const early: Array<[RawData, boolean]> = [];
    const onAbort = () => upstream.terminate();
    abort.addEventListener('abort', onAbort, { once: true });
    let settled = false;
    const fail = (error: AppError, status?: number) => {
      if (settled) return;
      settled = true;
      abort.removeEventListener('abort', onAbort);
      upstream.removeAllListeners();
      upstream.on('error', () => undefined);
      upstream.terminate();
      resolve(status === undefined ? { ok: false, error } : { ok: false, error, status });
    };
    upstream.on('message', (data, isBinary) => early.push([data, isBinary]));
    upstream.once('open', () => {
      settled = true;
      abort.removeEventListener('abort', onAbort);
      upstream.removeAllListeners('error');
      upstream.removeAllListeners('unexpected-response');
      upstream.on('error', () => undefined);
      resolve({ ok: true, upstream, early });
    });
    upstream.on('unexpected-response', (req, res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= 64 * 1024) chunks.push(c);
      });
      res.on('error', () => undefined);
      res.on('end', () => {
        const status = res.statusCode ?? 502;
        fail(relayErrors.upstream(status, upstreamErrorMessage(Buffer.concat(chunks).toString('utf8'), status)), status);
        req.destroy();
      });
    });
    upstream.on('error', (err) => fail(relayErrors.connection(err.message)));
  });
}

function isWebsocketHandshake(request: FastifyRequest): boolean {
  const h = request.headers;
  return (
    String(h.upgrade ?? '').toLowerCase() === 'websocket' &&
    h['sec-websocket-version'] === '13' &&
    /^[+/0-9A-Za-z]{22}==$/.test(String(h['sec-websocket-key'] ?? ''))
  );
}

/** The subprotocol answered: `realtime` when offered, never the key. */
function chooseProtocol(protocols: Set<string>): string | false {
  if (protocols.has('realtime')) return 'realtime';
  for (const p of protocols) if (!p.startsWith(KEY_PROTOCOL)) return p;
  return false;
}

export default async function realtimeRoutes(app: FastifyInstance): Promise<void> {
  const ctx: GatewayContext = app.ctx;
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, handleProtocols: chooseProtocol });
  const sessions = new Set<RealtimeSession>();

  const onUpgrade = (req: IncomingMessage, socket: Socket, head: Buffer) => {
    if ((req.url ?? '').split('?')[0] !== PATH) {
      // Nothing else here takes websockets, unless another listener says otherwise.
      if (app.server.listenerCount('upgrade') === 1) socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    socket.on('error', () => undefined);
    upgrades.set(req, { socket, head });
    const res = new ServerResponse(req);
    res.assignSocket(socket);
    // An HTTP answer (an error before the upgrade) ends the connection.
    res.on('finish', () => socket.end());
    app.routing(req, res);
  };
  app.server.on('upgrade', onUpgrade);
  // Before the HTTP server closes: it waits for every connection, upgraded ones included.
  app.addHook('preClose', async () => {
    app.server.off('upgrade', onUpgrade);
    await Promise.all([...sessions].map((session) => session.stop()));
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  });

  answerIn(app, 'openai');

  app.get(PATH, async (request, reply) => {
    const upgrade = upgrades.get(request.raw);
    upgrades.delete(request.raw);
    if (!upgrade || !isWebsocketHandshake(request)) throw refuse(426, 'upgrade_required', undefined, 'invalid_request_error');
    if (!request.headers.authorization) {
      const offered = String(request.headers['sec-websocket-protocol'] ?? '').split(',');
      const key = offered.map((p) => p.trim()).find((p) => p.startsWith(KEY_PROTOCOL));
      if (key) request.headers.authorization = `Bearer ${key.slice(KEY_PROTOCOL.length)}`;
    }
    const found = await resolveCaller(ctx, request);
    const model = (request.query as Record<string, unknown>).model;
    if (typeof model !== 'string' || model === '') throw relayErrors.modelRequired();
    checkModelLimit(found, model);
    const caller = tokenCaller(found);
    const price = priceFor(ctx, caller, model);
    await checkModelRateLimit(ctx, caller);
    // Held for the session: the answer closes with the websocket's socket.
    await admitCaller(ctx, reply, caller);
    const payer = payerOf(caller);
    // Realtime has no Endpoint of its own; the log reads only the model and the stream flag.
    const input: RelayInput = {
      endpoint: 'chat.completions',
      body: null,
      raw: null,
      contentType: '',
      model,
      stream: true,
      client: 'openai',
    };

    const reserve = reservationFor(ctx, price, 0, 0);
    const record = () => holdRecord(caller, input, price, request.ip);
    const hold = await holdFor(ctx, payer, reserve, record);

    // The client may leave while the upstream is being reached, or before its upgrade completes.
    const abort = new AbortController();
    const onGone = () => abort.abort();
    upgrade.socket.once('close', onGone);

    const started = performance.now();
    const tried: number[] = [];
    const retries = caller.pinnedChannelId ? 0 : Math.max(0, ctx.options.number('RetryTimes'));
    let failure: AppError | null = null;
    let opened: Opened | null = null;
    const slots = new ChannelSlots(ctx);
    for (let attempt = 0; attempt <= retries && !abort.signal.aborted; attempt++) {
      const taken = await slots.take(chooser(ctx, caller, model, attempt, tried), () => abort.signal.aborted);
      if (!taken) {
        failure = slots.refusal ?? failure;
        break;
      }
      const channel = withKey(ctx, taken, caller.userId);
      tried.push(channel.id);
      const mapped = mapModel(channel.model_mapping, model);
      if (!mapped.ok) {
        failure = relayErrors.badBody(mapped.message);
        break;
      }
      const target = realtimeTarget(channel, mapped.model);
      if (!target) {
        reportUpstreamNeutral(ctx, channel);
        failure = relayErrors.channelUnsupported(channel.type);
        continue;
      }
      const sentAt = performance.now();
      const result = await connect(target, abort.signal);
      if (result.ok) {
        reportUpstreamSuccess(ctx, channel, performance.now() - sentAt);
        opened = { upstream: result.upstream, early: result.early, channel, upstreamModel: mapped.model };
        break;
      }
      if (result.status === undefined) {
        if (abort.signal.aborted) reportUpstreamNeutral(ctx, channel);
        else reportUpstreamFailure(ctx, channel, 0, result.error.message);
        failure = result.error;
        continue;
      }
      reportUpstreamFailure(ctx, channel, result.status, result.error.message);
      const status = mapStatus(channel.status_code_mapping, result.status);
      failure = relayErrors.upstream(status, result.error.message);
      if (!RETRYABLE(result.status)) break;
    }

    if (!opened || abort.signal.aborted) {
      slots.release();
      upgrade.socket.off('close', onGone);
      opened?.upstream.terminate();
      await hold.release();
      if (abort.signal.aborted) {
        upgrade.socket.destroy();
        return reply.hijack();
      }
      const error = failure ?? relayErrors.noChannel(model, caller.group);
      writeErrorLog(ctx, {
        caller,
        input,
        error,
        tried,
        clientIp: request.ip,
        useTimeMs: performance.now() - started,
        requestId: request.id,
      });
      throw error;
    }

    reply.hijack();
    const session = new RealtimeSession(ctx, request, { caller, input, price, payer, hold, reserve, tried, slots }, opened);
    sessions.add(session);
    session.onEnd = () => sessions.delete(session);
    // A handshake ws refuses destroys the socket without calling back: the session ends unopened.
    upgrade.socket.once('close', () => session.start(null));
    upgrade.socket.off('close', onGone);
    wss.handleUpgrade(request.raw, upgrade.socket, upgrade.head, (client) => session.start(client));
    return reply;
  });
}
