/**
 * One realtime session once both websockets are open: frames relayed both ways as they come (text
 * and binary), each `response.done` charged in full from its usage and logged, closes passed on. The
 * session holds a reservation between responses; when the balance cannot cover the next one, the
 * client gets an `error` event and the session closes.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { WebSocket, type RawData } from 'ws';
import type { GatewayContext } from '../../context.js';
import type { Channel } from '../../db/types.js';
import { billableQuota, quotaFor, type Price, type Usage } from '../../billing/pricing.js';
import type { Hold } from '../../billing/holds.js';
import type { Payer } from '../../billing/journal-ops.js';
import { AppError } from '../../http/errors.js';
import { relayCode } from '../../http/wire.js';
import { afterSettle, holdFor } from '../metering/charge.js';
import type { ChannelSlots } from '../../ratelimit/channel-slots.js';
import { recordModelTokens } from '../../ratelimit/model-limit.js';
import type { RelayCaller, RelayInput } from '../types.js';
import { consumeLog, holdRecord } from '../metering/log-rows.js';
import { relayErrors } from '../errors.js';

/** An upstream websocket just opened; frames that came before the client was upgraded are in `early`. */
export interface Opened {
  upstream: WebSocket;
  early: Array<[RawData, boolean]>;
  channel: Channel;
  upstreamModel: string;
}

export interface SessionTerms {
  caller: RelayCaller;
  input: RelayInput;
  price: Price;
  payer: Payer;
  /** The hold taken when the session started. */
  hold: Hold;
  /** What each response reserves (the next hold's amount). */
  reserve: number;
  tried: number[];
  /** The slot the session holds on its channel, given back when it ends. */
  slots: ChannelSlots;
}

const obj = (v: unknown): Record<string, unknown> | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/**
 * The usage of a `response.done` event. `input_tokens` and `output_tokens` count text and audio
 * alike: with no audio ratio among the options, audio is billed as prompt and completion tokens.
 */
export function realtimeUsage(event: unknown): Usage | null {
  const usage = obj(obj(obj(event)?.response)?.usage);
  if (!usage) return null;
  return {
    promptTokens: num(usage.input_tokens),
    completionTokens: num(usage.output_tokens),
    cachedTokens: num(obj(usage.input_token_details)?.cached_tokens),
  };
}

const validCloseCode = (code: number) =>
  (code >= 1000 && code <= 1014 && code !== 1004 && code !== 1005 && code !== 1006) || (code >= 3000 && code <= 4999);

export function closeWith(ws: WebSocket, code: number, reason: Buffer | string): void {
  if (ws.readyState === WebSocket.CLOSED || ws.readyState === WebSocket.CLOSING) return;
  if (ws.readyState === WebSocket.CONNECTING) return ws.terminate();
  ws.close(validCloseCode(code) ? code : 1000, reason);
}

/** Bytes queued towards a slow side before the other side is paused (both directions). */
const HIGH_WATER = 4 * 1024 * 1024;

/** Sends a frame on; a side that cannot keep up pauses the sender until its queue drains. */
function relayFrame(to: WebSocket, from: WebSocket, data: RawData | string, isBinary: boolean): void {
  if (to.readyState !== WebSocket.OPEN) return;
  to.send(data, { binary: isBinary }, () => {
    if (from.isPaused && to.bufferedAmount < HIGH_WATER / 2) from.resume();
  });
  if (to.bufferedAmount > HIGH_WATER && !from.isPaused) from.pause();
}

/** An error event in the Realtime API's shape. */
function errorEvent(error: AppError): string {
  return JSON.stringify({
    type: 'error',
    event_id: `event_${randomUUID().replace(/-/g, '')}`,
    error: { type: error.type, code: relayCode(error), message: error.message, param: null, event_id: null },
  });
}

export class RealtimeSession {
  /** Called once when the session ends. */
  onEnd: () => void = () => undefined;
  private client: WebSocket | null = null;
  private started = false;
  private ended = false;
  private hold: Hold | null;
  /** Frames waiting behind the billing of a response.done (and the final refund), kept in order. */
  private queue: Promise<void> | null = null;
  private responseStarted = performance.now();
  private firstTokenMs = 0;

  constructor(
    private readonly ctx: GatewayContext,
    private readonly request: FastifyRequest,
    private readonly terms: SessionTerms,
    private readonly opened: Opened,
  ) {
    this.hold = terms.hold;
  }

  /** Joins the upgraded client to the upstream; `null` when the upgrade failed. Only the first call counts. */
  start(client: WebSocket | null): void {
    if (this.started) return;
    this.started = true;
    const { upstream, early, channel } = this.opened;
    upstream.removeAllListeners('message');
    if (!client) {
      upstream.terminate();
      this.end();
      return;
    }
    this.client = client;
    upstream.on('message', (data, isBinary) => this.fromUpstream(data, isBinary));
    for (const [data, isBinary] of early) this.fromUpstream(data, isBinary);
    early.length = 0;
    client.on('message', (data, isBinary) => relayFrame(upstream, client, data, isBinary));
    client.on('close', (code, reason) => {
      closeWith(upstream, code, reason);
      this.end();
    });
    upstream.on('close', (code, reason) => {
      // Frames still waiting behind billing go out before the close.
      this.enqueue(async () => closeWith(client, code, reason));
      this.end();
    });
    client.on('error', (err) => {
      this.request.log.warn({ err }, 'realtime client error');
      upstream.terminate();
    });
    upstream.on('error', (err) => {
      this.request.log.warn({ err, channel: channel.id }, 'realtime upstream error');
      client.terminate();
    });
    // The upstream may have gone while the client was being upgraded.
    if (upstream.readyState === WebSocket.CLOSED) {
      closeWith(client, 1011, 'upstream closed');
      this.end();
    }
  }

  /** The gateway is shutting down: resolves once the reservation is returned. */
  stop(): Promise<void> {
    if (this.client) closeWith(this.client, 1001, 'server shutting down');
    closeWith(this.opened.upstream, 1001, '');
    this.end();
    return this.queue ?? Promise.resolve();
  }

  private enqueue(step: () => Promise<void>): void {
    const next = (this.queue ?? Promise.resolve())
      .then(step)
      .catch((err: unknown) => this.request.log.error({ err }, 'realtime session step failed'));
    this.queue = next;
    void next.finally(() => {
      if (this.queue === next) this.queue = null;
    });
  }

  private toClient(data: RawData | string, isBinary: boolean): void {
    if (this.client) relayFrame(this.client, this.opened.upstream, data, isBinary);
  }

  private fromUpstream(data: RawData, isBinary: boolean): void {
    let usage: Usage | null = null;
    // Only frames that can matter are parsed: audio deltas are large and many.
    if (!isBinary && Buffer.isBuffer(data)) {
      if (data.includes('response.created') || data.includes('response.done')) {
        let event: Record<string, unknown> | null = null;
        try {
          event = obj(JSON.parse(data.toString('utf8')));
        } catch {
          event = null;
        }
        if (event?.type === 'response.created') {
          this.responseStarted = performance.now();
          this.firstTokenMs = 0;
        } else if (event?.type === 'response.done') usage = realtimeUsage(event);
      } else if (this.firstTokenMs === 0 && data.includes('.delta"')) {
        this.firstTokenMs = Math.round(performance.now() - this.responseStarted);
      }
    }
    if (!usage && !this.queue) return this.toClient(data, isBinary);
    this.enqueue(async () => {
      const short = usage ? await this.bill(usage) : null;
      this.toClient(data, isBinary);
      if (short && this.client) {
        this.toClient(errorEvent(short), false);
        // 1011: the gateway's own failure to bill; 1008: the balance ran out.
        if (short.status >= 500) closeWith(this.client, 1011, 'billing failed');
        else closeWith(this.client, 1008, 'insufficient quota');
        closeWith(this.opened.upstream, 1000, '');
      }
    });
  }

  /** Settles one response; an error when the balance cannot cover the next reservation. */
  private async bill(usage: Usage): Promise<AppError | null> {
    const { caller, input, price, payer, reserve, tried } = this.terms;
    const { channel, upstreamModel } = this.opened;
    let quota: number;
    try {
      quota = billableQuota(quotaFor(price, usage, this.ctx.options.number('QuotaPerUnit')), input.model);
    } catch (err) {
      // Not billable: the session ends; its hold is settled at the close as for any other end.
      this.request.log.error({ err, channel: channel.id }, 'realtime settlement failed');
      return relayErrors.billingFailed();
    }
    const log = consumeLog(this.ctx, {
      caller,
      input,
      channel,
      price,
      usage,
      quota,
      upstreamModel,
      useTimeMs: performance.now() - this.responseStarted,
      firstTokenMs: this.firstTokenMs,
      tried,
      localCount: false,
      clientIp: this.request.ip,
      clientAborted: false,
    });
    const hold = this.hold;
    this.hold = null;
    if (hold) await hold.settle(quota, channel.id, log);
    const tokens = usage.promptTokens + usage.completionTokens;
    afterSettle(this.ctx, {
      userId: caller.userId,
      tokenId: caller.tokenId,
      username: caller.username,
      channelId: channel.id,
      model: input.model,
      quota,
      tokens,
      promptTokens: usage.promptTokens,
      cachedTokens: usage.cachedTokens,
    });
    await recordModelTokens(this.ctx, caller, tokens);
    if (this.ended) return null;
    try {
      this.hold = await holdFor(this.ctx, payer, reserve, () => holdRecord(caller, input, price, this.request.ip));
    } catch (err) {
      if (err instanceof AppError) return err;
      throw err;
    }
    return null;
  }

  /** Once: the reservation still held goes back after whatever billing is under way. */
  private end(): void {
    if (this.ended) return;
    this.ended = true;
    this.terms.slots.release();
    this.onEnd();
    this.enqueue(async () => {
      const hold = this.hold;
      this.hold = null;
      await hold?.release();
    });
  }
}
