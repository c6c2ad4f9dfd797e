/**
 * A stream in the client's own protocol, with no watch over its text: passed through byte for byte.
 * Parsing and re-framing every event cost more than the rest of a streamed call, so only the events
 * that matter are parsed — those carrying usage and the closing ones, held back until the call is
 * billed — through the same inspection as forwardStream. Which those are is the format's PassRules.
 * The others go out as they came; their text, needed only for checkpoints or when no usage arrives
 * (a cut stream), is counted later from the raw events kept, in order, a bounded batch at a time.
 */
import type { ServerResponse } from 'node:http';
import type { Usage } from '../../billing/pricing.js';
import { SseParser, type SseEvent } from '../wire/sse.js';
import type { UpstreamResponse } from './call-upstream.js';
import {
  drained,
  firstTokenAfter,
  frame,
  isClosing,
  StreamTally,
  type AnswerHooks,
  type EventInspection,
  type ForwardResult,
} from './forward-answer.js';

/** Raw events kept for counting, in characters, before they are parsed into the count. */
const COUNT_BATCH = 64 * 1024;
const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

/** Which raw events of a format's stream a pass-through must read. */
export interface PassRules {
  /** Whether text (whole raw events, one or several) may hold an event `matters` picks: a cheap sieve. */
  mayMatter(text: string): boolean;
  /** Whether one raw event must be read as it passes: usage, or the stream's closing. */
  matters(raw: string): boolean;
  /**
   * For formats whose every event repeats the usage so far (Gemini): the top-level key that carries
   * it and how to read it. Only the latest event holding the key is read, at checkpoints and the end.
   */
  latestUsage?: { key: string; read(raw: string): Usage | null };
}

/** Whether raw SSE text may hold an event that must be parsed: usage, or a stream's closing. */
const mayMatter = (raw: string) =>
  raw.includes('"usage"') || raw.includes('[DONE]') || raw.includes('event: response.') || raw.includes('message_stop');

/** OpenAI's chat and Responses streams: any event naming usage, and the closing ones. */
export const OPENAI_PASS: PassRules = { mayMatter, matters: mayMatter };

/** Line ends other than CRLF in CRLF-framed text (a CR at the very end may be half of one). */
const NOT_CRLF = /[^\r]\n|^\n|\r[^\n]/;

/**
 * Where, in whole raw events, the last event holding `key` as a JSON key starts and ends (a key is
 * never preceded by a backslash; the same text inside a string always is).
 */
function lastEventWith(text: string, key: string, sep: string): string | null {
  for (let at = text.lastIndexOf(key); at > 0; at = text.lastIndexOf(key, at - 1)) {
    if (text.charCodeAt(at - 1) === 92) continue;
    const start = text.lastIndexOf(sep, at);
    const end = text.indexOf(sep, at);
    return text.slice(start === -1 ? 0 : start + sep.length, end === -1 ? text.length : end + sep.length);
  }
  return null;
}

/** OpenAI's `"usage": null` on every chunk when the gateway asked for usage in the client's stead. */
const NULL_USAGE = ',"usage":null}\n\n';

/**
 * A one-line chunk without its trailing `"usage":null` (the top-level object's last member: nothing
 * but its closing brace follows), as the client would have had it; null when the event is not that.
 */
function withoutNullUsage(raw: string): string | null {
  const cut = raw.length - NULL_USAGE.length;
  // One line, whose only "usage" is that last member (a usage elsewhere is read the long way).
  const one =
    raw.endsWith(NULL_USAGE) &&
    raw.startsWith('data: {') &&
    raw.indexOf('"usage"') === cut + 1 &&
    raw.indexOf('\n') === raw.length - 2;
  return one ? raw.slice(0, cut) + '}\n\n' : null;
}

/** The SSE events of complete raw text. */
function eventsOf(raw: string): SseEvent[] {
  const parser = new SseParser();
  return [...parser.push(Buffer.from(raw)), ...parser.end()];
}

export async function passStream(
  upstream: UpstreamResponse,
  out: ServerResponse,
  started: number,
  opts: {
    inspect: (ev: SseEvent) => EventInspection;
    hooks: AnswerHooks;
    stripNullUsage?: boolean;
    rules?: PassRules;
  },
): Promise<ForwardResult> {
  const { isClientGone, progress } = opts.hooks;
  const rules = opts.rules ?? OPENAI_PASS;
  const latest = rules.latestUsage;
  /** The blank line ending events: LF's unless the first line end is a CRLF. */
  let sep = '\n\n';
  let framingKnown = false;
  /** The latest raw event carrying `latest.key`, read when its usage is wanted. */
  let usageEvent: string | null = null;
  const readLatest = () => {
    if (latest && usageEvent !== null) tally.note(latest.read(usageEvent), undefined);
  };
  out.writeHead(200, SSE_HEADERS);
  const tally = new StreamTally();
  const decoder = new TextDecoder();
  let carry = '';
  /** Whether everything received so far has been decoded and passed on (or held as events). */
  let aligned = true;
  let held = '';
  /** Raw events passed through uncounted. */
  let uncounted: string[] = [];
  let uncountedChars = 0;
  const count = () => {
    for (const raw of uncounted) for (const ev of eventsOf(raw)) tally.note(null, opts.inspect(ev).text);
    uncounted = [];
    uncountedChars = 0;
  };
  const keep = (raw: string) => {
    uncounted.push(raw);
    uncountedChars += raw.length;
    if (latest) usageEvent = lastEventWith(raw, latest.key, sep) ?? usageEvent;
    if (uncountedChars >= COUNT_BATCH) count();
  };
  /** What one raw event becomes for the client. */
  const render = (raw: string): string => {
    const stripped = opts.stripNullUsage ? withoutNullUsage(raw) : null;
    if (stripped !== null) {
      keep(stripped);
      return stripped;
    }
    if (!rules.matters(raw)) {
      keep(raw);
      return raw;
    }
    let text = '';
    for (const ev of eventsOf(raw)) {
      const seen = opts.inspect(ev);
      tally.note(seen.usage, seen.text);
      if (seen.drop) continue;
      const framed = seen.data === undefined ? null : frame({ ...ev, data: seen.data });
      if (isClosing(ev)) held += framed ?? raw;
      else text += framed ?? raw;
    }
    return text;
  };
  /** Complete events of `text`, each kept whole or rendered. */
  const renderAll = (text: string): string => {
    if (!rules.mayMatter(text)) {
      keep(text);
      return text;
    }
    let rendered = '';
    let start = 0;
    for (let end = text.indexOf(sep); end !== -1; end = text.indexOf(sep, start)) {
      rendered += render(text.slice(start, end + sep.length));
      start = end + sep.length;
    }
    return rendered;
  };

  let firstTokenMs = 0;
  let clientAborted = false;
  let interrupted: string | undefined;
  /** Set when the upstream mixes line ends: its events then go through the full parser. */
  let parser: SseParser | null = null;
  try {
    for await (const chunk of upstream.body) {
      if (firstTokenMs === 0) firstTokenMs = firstTokenAfter(started);
      const buffer = chunk as Buffer;
      let payload: string | Buffer = '';
      if (parser) payload = parsed(parser.push(buffer));
      else {
        const text = carry + decoder.decode(buffer, { stream: true });
        // Framing is known at the first line end (a CR at the very end may be half of a CRLF).
        if (!framingKnown && /\n|\r./s.test(text)) {
          framingKnown = true;
          if (text.includes('\r\n')) sep = '\r\n\r\n';
        }
        if (!framingKnown) {
          // Nothing whole before the first line end: held until it comes.
          carry = text;
          aligned = false;
        } else if (sep === '\n\n' ? text.includes('\r') : NOT_CRLF.test(text)) {
          // From here usage is noted as the parser reads it: the one kept so far is read now.
          readLatest();
          usageEvent = null;
          parser = new SseParser();
          payload = parsed(parser.push(Buffer.from(text)));
        } else {
          const last = text.lastIndexOf(sep);
          const end = last === -1 ? 0 : last + sep.length;
          carry = text.slice(end);
          // The chunk as received when it is whole events that pass untouched: nothing of an earlier
          // chunk held back (a partial event, or a character's first bytes in the decoder) and
          // nothing of its own, as it ends on an event's last LF.
          const endsAligned = buffer.length > 0 && buffer[buffer.length - 1] === 10 && carry === '';
          const whole = aligned && endsAligned && !rules.mayMatter(text);
          aligned = endsAligned;
          payload = whole ? (keep(text), buffer) : end === 0 ? '' : renderAll(text.slice(0, end));
        }
      }
      if (payload.length > 0) {
        if (isClientGone()) {
          clientAborted = true;
          break;
        }
        if (!out.write(payload)) await drained(out);
      }
      if (progress?.due()) {
        count();
        readLatest();
        progress.report(tally.usage, tally.count.estimate());
      }
    }
    if (!clientAborted) {
      // An event the upstream left without its closing blank line.
      const tail = parser ? '' : carry + decoder.decode();
      const rest = parsed(parser ? parser.end() : tail ? eventsOf(tail) : []);
      if (rest !== '') out.write(rest);
    }
  } catch (err) {
    if (isClientGone()) clientAborted = true;
    else interrupted = (err as Error).message || 'upstream connection lost';
  }
  if (isClientGone()) clientAborted = true;

  /** Events the full parser gave, rendered as forwardStream renders them. */
  function parsed(events: SseEvent[]): string {
    let text = '';
    for (const ev of events) {
      const seen = opts.inspect(ev);
      tally.note(seen.usage, seen.text);
      if (seen.drop) continue;
      const framed = frame(seen.data === undefined ? ev : { ...ev, data: seen.data });
      if (isClosing(ev)) held += framed;
      else text += framed;
    }
    return text;
  }

  const finish = () => {
    // A broken answer ends broken: the client must not take it for complete.
    if (interrupted) out.destroy();
    else if (!clientAborted) out.end(held);
  };
  readLatest();
  // A broken stream never reached its usage report: what was generated is counted here.
  const usage = interrupted ? null : tally.usage;
  if (!usage) count();
  const completionTokens = usage ? 0 : await tally.count.total();
  return { usage, completionTokens, firstTokenMs, clientAborted, interrupted, finish };
}
