/**
 * Sends a successful upstream answer to the client. Streams are relayed event by event as they
 * arrive (never buffered whole; the client's pace is respected through backpressure), while usage
 * and, when needed, a running token count are taken from the events on the way.
 */
import type { ServerResponse } from 'node:http';
import type { Usage } from '../../billing/pricing.js';
import { SseParser, type SseEvent } from '../wire/sse.js';
import type { StreamEvent } from '../wire/events.js';
import { completionText, usageOf } from '../wire/openai/usage.js';
import { countTokens, estimateTokens } from '../metering/tokenizer.js';
import type { UpstreamResponse } from './call-upstream.js';
import type { FrameDecoder } from '../providers/types.js';
import { readText } from './call-upstream.js';

/**
 * Milliseconds from `started` to the first chunk, at least 1: 0 means no chunk came, and a local
 * upstream can send its first chunk within the same millisecond.
 */
export function firstTokenAfter(started: number): number {
  return Math.max(1, Math.round(performance.now() - started));
}

export interface ForwardResult {
  usage: Usage | null;
  /** Locally counted completion tokens (used when `usage` is null). */
  completionTokens: number;
  /** Milliseconds from the request's start to the first byte sent. */
  firstTokenMs: number;
  /** The client went away before the end. */
  clientAborted: boolean;
  /** The upstream broke off mid-answer (its error's message): what was delivered is billed. */
  interrupted?: string;
  /**
   * Completes the answer. Called after billing, so a client that has seen the end of its answer
   * also sees its balance and log settled.
   */
  finish(): void;
  /**
   * Sends what waits with the answer's end, without the end itself: for an answer that is to end
   * otherwise (its billing failed). Absent where nothing waits.
   */
  sendWaiting?(): void;
}

const COUNT_EVERY = 16 * 1024;

/** Completion text, counted in slices so a long stream keeps a bounded buffer. */
class RunningCount {
  private pending = '';
  private counted = 0;
  add(text: string): void {
    if (text === '') return;
    this.pending += text;
    if (this.pending.length >= COUNT_EVERY) {
      this.counted += estimateTokens(this.pending);
      this.pending = '';
    }
  }
  /** Counted so far, the uncounted rest estimated (cheap: for checkpoints). */
  estimate(): number {
    return this.counted + estimateTokens(this.pending);
  }
  async total(): Promise<number> {
    const rest = await countTokens(this.pending);
    this.pending = '';
    return this.counted + rest;
  }
}

/** Where a stream reports its progress for billing checkpoints. */
export interface StreamProgress {
  /** Whether a checkpoint is due (asked for each chunk: must be cheap). */
  due(): boolean;
  /** What has been delivered so far: the usage seen, or the completion tokens counted. */
  report(usage: Usage | null, completionTokens: number): void;
}

/** What the relay tells the forwarding of an answer. */
export interface AnswerHooks {
  isClientGone: () => boolean;
  progress?: StreamProgress | undefined;
}

/** Waits until the client can take more, or is gone. */
export function drained(out: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
  });
}

function isUsageOnlyChunk(payload: unknown): boolean {
  const p = payload as { choices?: unknown[]; usage?: unknown } | null;
  return !!p && Array.isArray(p.choices) && p.choices.length === 0 && !!p.usage;
}

/** What a stream event tells about billing, and whether the client should not see it. */
export interface EventInspection {
  usage?: Usage | null;
  text?: string;
  drop?: boolean;
  /** The event's data as the client should see it, when it differs from the upstream's. */
  data?: string;
}

/**
 * OpenAI chunks: usage from the usage chunk, text from the deltas. A client that did not ask for
 * usage gets no usage chunk; when the gateway asked in its stead, the `"usage": null` OpenAI then
 * puts on every chunk is taken out too: the client sees what the upstream would have sent it.
 */
export function inspectOpenAIEvent(opts: { clientAsked: boolean; gatewayAsked: boolean }): (ev: SseEvent) => EventInspection {
  return (ev) => {
    if (ev.data === '[DONE]') return {};
    let payload: unknown = null;
    try {
      payload = JSON.parse(ev.data);
    } catch {
      return {};
    }
    const found: EventInspection = {
      usage: usageOf(payload),
      text: completionText(payload),
      drop: !opts.clientAsked && isUsageOnlyChunk(payload),
    };
    const chunk = payload as Record<string, unknown> | null;
    if (opts.gatewayAsked && !opts.clientAsked && chunk && typeof chunk === 'object' && chunk.usage === null) {
      const { usage: _added, ...rest } = chunk;
      found.data = JSON.stringify(rest);
    }
    return found;
  };
}

/** Events of a provider's own protocol, read through its stream parser. */
export function inspectWith(parser: { push(ev: SseEvent): StreamEvent[] }): (ev: SseEvent) => EventInspection {
  return (ev) => {
    const found: EventInspection = { text: '' };
    for (const event of parser.push(ev)) {
      if (event.type === 'usage') found.usage = event.usage;
      else if (event.type === 'text' || event.type === 'reasoning') found.text += event.text;
      else if (event.type === 'tool_call') found.text += event.arguments;
    }
    return found;
  };
}

/**
 * An optional watch over an answer's text (the sensitive-word filter, server/relay/guards/sensitive-words.ts),
 * set per response before forwarding: it may cut a stream before an event reaches the client, or
 * replace a whole answer.
 */
export interface CompletionWatch {
  /** Sees each stream event's text in order; true cuts the stream before that event is sent. */
  stopAt(text: string): boolean;
  /** Closes a cut stream in the client's protocol (used when the stream has no closing of its own). */
  stoppedTail(): string;
  /** A whole answer, parsed: null sends it as it is, otherwise the status and JSON body sent instead. */
  answer(payload: unknown): { status: number; body: string } | null;
}

const watches = new WeakMap<ServerResponse, CompletionWatch>();

export function watchCompletion(out: ServerResponse, watch: CompletionWatch): void {
  watches.set(out, watch);
}

/** Whether an answer's text is watched: then every stream event must be read. */
export const isWatched = (out: ServerResponse): boolean => watches.has(out);

/** What a stream tells about billing as it passes: the last usage seen and a running count. */
export class StreamTally {
  usage: Usage | null = null;
  readonly count = new RunningCount();
  /** Text noted since the last `take()`, kept only for a watch. */
  private fresh = '';
  constructor(private readonly keepText = false) {}
  note(usage: Usage | null | undefined, text: string | undefined): void {
    if (usage) this.usage = usage;
    if (text) this.count.add(text);
    if (text && this.keepText) this.fresh += text;
  }
  take(): string {
    const text = this.fresh;
    this.fresh = '';
    return text;
  }
}

/**
 * The one stream loop: upstream bytes → SSE events → the text each event becomes for the client
 * (`render`), written as it arrives with backpressure; `tail` closes the answer after billing.
 */
async function relayStream(
  upstream: UpstreamResponse,
  out: ServerResponse,
  started: number,
  opts: {
    render: (ev: SseEvent, tally: StreamTally) => string;
    tail: () => string;
    hooks: AnswerHooks;
    decoder?: FrameDecoder | undefined;
  },
): Promise<ForwardResult> {
  const { isClientGone, progress } = opts.hooks;
  out.writeHead(200, SSE_HEADERS);
  const sse = opts.decoder ?? new SseParser();
  const watch = watches.get(out);
  const tally = new StreamTally(watch !== undefined);
  /** Each event's text for the client, until the watch cuts the stream. */
  let stopped = false;
  const renderAll = (events: Iterable<SseEvent>): string => {
    let text = '';
    for (const ev of events) {
      const rendered = opts.render(ev, tally);
      if (watch?.stopAt(tally.take())) {
        stopped = true;
        break;
      }
      text += rendered;
    }
    return text;
  };
  let firstTokenMs = 0;
  let clientAborted = false;
  let interrupted: string | undefined;
  try {
    for await (const chunk of upstream.body) {
      if (firstTokenMs === 0) firstTokenMs = firstTokenAfter(started);
      const text = renderAll(sse.push(chunk as Buffer));
      if (text !== '') {
        if (isClientGone()) {
          clientAborted = true;
          break;
        }
        if (!out.write(text)) await drained(out);
      }
      if (progress?.due()) progress.report(tally.usage, tally.count.estimate());
      // Leaving the loop closes the upstream connection: the rest is not generated.
      if (stopped) break;
    }
    if (!clientAborted && !stopped) {
      // An event the upstream left without its closing blank line.
      const rest = renderAll(sse.end());
      if (rest !== '') out.write(rest);
    }
  } catch (err) {
    if (isClientGone()) clientAborted = true;
    else interrupted = (err as Error).message || 'upstream connection lost';
  }
  if (isClientGone()) clientAborted = true;
  const finish = () => {
    // A broken answer ends broken: the client must not take it for complete.
    if (interrupted) out.destroy();
    else if (!clientAborted) out.end(stopped ? opts.tail() || watch!.stoppedTail() : opts.tail());
  };
  // A cut or broken stream never reached its usage report: what was generated is counted here.
  const usage = stopped || interrupted ? null : tally.usage;
  const completionTokens = usage ? 0 : await tally.count.total();
  return { usage, completionTokens, firstTokenMs, clientAborted, interrupted, finish };
}

/** An SSE event as text again, its `event:` name kept. */
export function frame(ev: SseEvent): string {
  return `${ev.event === 'message' ? '' : `event: ${ev.event}\n`}data: ${ev.data.replace(/\n/g, '\ndata: ')}\n\n`;
}

/** The head of every stream the relay writes. */
export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
};

/** Events that tell a client its stream is complete: OpenAI's `[DONE]`, Claude's and the Responses API's last events. */
const CLOSING_EVENTS = new Set(['message_stop', 'response.completed', 'response.incomplete', 'response.failed']);
export const isClosing = (ev: SseEvent) => ev.data === '[DONE]' || CLOSING_EVENTS.has(ev.event);

/**
 * A stream in the client's own protocol: relayed event by event, inspected on the way. Its closing
 * event is held back until the call is billed (sent by `finish`), like a converted stream's.
 */
export function forwardStream(
  upstream: UpstreamResponse,
  out: ServerResponse,
  started: number,
  opts: { inspect: (ev: SseEvent) => EventInspection; hooks: AnswerHooks; decoder?: FrameDecoder | undefined },
): Promise<ForwardResult> {
  let held = '';
  return relayStream(upstream, out, started, {
    decoder: opts.decoder,
    render(ev, tally) {
      const seen = opts.inspect(ev);
      tally.note(seen.usage, seen.text);
      if (seen.drop) return '';
      const text = frame(seen.data === undefined ? ev : { ...ev, data: seen.data });
      if (!isClosing(ev)) return text;
      held += text;
      return '';
    },
    tail: () => held,
    hooks: opts.hooks,
  });
}

/** A whole JSON answer: read, usage taken, sent on with the upstream's status and type. */
export async function forwardJson(
  upstream: UpstreamResponse,
  out: ServerResponse,
  started: number,
  usageFrom: (payload: unknown) => Usage | null = usageOf,
): Promise<ForwardResult> {
  const text = await readText(upstream, 64 * 1024 * 1024);
  const firstTokenMs = Math.round(performance.now() - started);
  let payload: unknown = null;
  try {
    payload = JSON.parse(text);
  } catch {
    /* not JSON: forwarded as is */
  }
  const usage = usageFrom(payload);
  const completionTokens = usage ? 0 : await countTokens(completionText(payload));
  const swap = payload === null ? null : (watches.get(out)?.answer(payload) ?? null);
  const type = swap ? 'application/json' : String(upstream.headers['content-type'] ?? 'application/json');
  const body = swap?.body ?? text;
  const finish = () => {
    out.writeHead(swap?.status ?? upstream.statusCode, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
    out.end(body);
  };
  return { usage, completionTokens, firstTokenMs, clientAborted: false, finish };
}

/** Binary answers (speech audio): piped through chunk by chunk. */
export async function forwardBinary(upstream: UpstreamResponse, out: ServerResponse, started: number): Promise<ForwardResult> {
  const headers: Record<string, string> = {
    'content-type': String(upstream.headers['content-type'] ?? 'application/octet-stream'),
  };
  out.writeHead(upstream.statusCode, headers);
  let firstTokenMs = 0;
  for await (const chunk of upstream.body) {
    if (firstTokenMs === 0) firstTokenMs = firstTokenAfter(started);
    if (!out.write(chunk)) await drained(out);
  }
  return { usage: null, completionTokens: 0, firstTokenMs, clientAborted: false, finish: () => out.end() };
}

/**
 * A stream in another protocol than the client's: each upstream event is parsed into StreamEvents
 * and serialized in the client's format on the way, event by event.
 */
export function forwardConvertedStream(
  upstream: UpstreamResponse,
  out: ServerResponse,
  started: number,
  opts: {
    parser: { push(event: SseEvent): StreamEvent[] };
    serializer: { push(event: StreamEvent): string; end(): string };
    hooks: AnswerHooks;
    decoder?: FrameDecoder | undefined;
  },
): Promise<ForwardResult> {
  return relayStream(upstream, out, started, {
    decoder: opts.decoder,
    render(ev, tally) {
      let text = '';
      for (const event of opts.parser.push(ev)) {
        if (event.type === 'usage') tally.note(event.usage, undefined);
        else if (event.type === 'text' || event.type === 'reasoning') tally.note(null, event.text);
        else if (event.type === 'tool_call') tally.note(null, event.arguments);
        text += opts.serializer.push(event);
      }
      return text;
    },
    tail: () => opts.serializer.end(),
    hooks: opts.hooks,
  });
}

/** A whole answer in a provider's own protocol, converted to OpenAI's chat.completion. */
export async function forwardConvertedJson(
  upstream: UpstreamResponse,
  out: ServerResponse,
  started: number,
  convert: (payload: unknown) => Promise<{ completion: unknown; usage: Usage | null }>,
): Promise<ForwardResult> {
  const text = await readText(upstream, 64 * 1024 * 1024);
  const firstTokenMs = Math.round(performance.now() - started);
  let payload: unknown = null;
  try {
    payload = JSON.parse(text);
  } catch {
    throw new Error('upstream answered with invalid JSON');
  }
  const { completion, usage } = await convert(payload);
  const completionTokens = usage ? 0 : await countTokens(completionText(completion));
  const swap = watches.get(out)?.answer(completion) ?? null;
  const body = swap?.body ?? JSON.stringify(completion);
  const finish = () => {
    out.writeHead(swap?.status ?? 200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    out.end(body);
  };
  return { usage, completionTokens, firstTokenMs, clientAborted: false, finish };
}
