/**
 * A stream in the client's own protocol, with no watch over its text: passed through byte for byte.
 * Parsing and re-framing every event cost more than the rest of a streamed call, so only the events
 * that matter are parsed — those carrying usage and the closing ones, held back until the call is
 * billed — through the same inspection as forwardStream. Which those are is the format's PassRules.
 * The others go out as they came; their text, needed only for checkpoints or when no usage arrives
 * (a cut stream), is counted later from the raw events kept, in order, a bounded batch at a time.
 *
 * It works on bytes, read through their latin1 text (one character per byte, so a position in the
 * text is one in the bytes; JavaScript's string search is much cheaper than a Buffer's for short
 * events): events end at a blank line, a line end never falls inside a UTF-8 character, and only the
 * events that are read are decoded.
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
  SSE_HEADERS,
  StreamTally,
  type AnswerHooks,
  type EventInspection,
  type ForwardResult,
} from './forward-answer.js';

/** Raw events kept for counting, in bytes, before they are parsed into the count. */
const COUNT_BATCH = 64 * 1024;
const EMPTY: Buffer = Buffer.alloc(0);

/** Which raw events of a format's stream a pass-through must read, judged on their latin1 text. */
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

/**
 * Where the next `"usage"` starts in text at or after `from`, or -1. Found by its tail: JSON is full
 * of quotes, and a search led by one tries a match at each (three times slower on a chunk).
 */
export function usageKeyAt(text: string, from: number): number {
  for (let at = text.indexOf('sage"', from + 2); at !== -1; at = text.indexOf('sage"', at + 5)) {
    if (text.charCodeAt(at - 1) === 117 && text.charCodeAt(at - 2) === 34) return at - 2;
  }
  return -1;
}

/**
 * A usage that is not null: OpenAI puts `"usage":null` on every chunk once usage is asked for, and
 * the Responses API on its opening events, and those need no reading. (Inside a JSON string a quote
 * is escaped, so `"usage"` followed by a colon is always a key.) One regular expression: V8 skips
 * through the text by its literal, where a loop over each `"usage"` found costs four times as much.
 */
const NON_NULL_USAGE = /"usage"[ \t\n\r]*:[ \t\n\r]*(?!null)/;

/** The events that close a stream: `[DONE]`, and the closing events forward-answer.ts names. */
const OPENAI_CLOSING = /\[DONE\]|message_stop|response\.(?:completed|incomplete|failed)/;

/** OpenAI's chat and Responses streams: usage, and the closing events (held back until billed). */
const openaiMatters = (text: string) => NON_NULL_USAGE.test(text) || OPENAI_CLOSING.test(text);

export const OPENAI_PASS: PassRules = { mayMatter: openaiMatters, matters: openaiMatters };

/** Line ends other than CRLF in CRLF-framed text (a CR at the very end may be half of one). */
const NOT_CRLF = /[^\r]\n|^\n|\r[^\n]/;

/**
 * Where, in whole raw events, the last event holding `key` as a JSON key starts and ends (a key is
 * never preceded by a backslash; the same text inside a string always is).
 */
function lastEventWith(text: string, key: string, sep: string): [number, number] | null {
  for (let at = text.lastIndexOf(key); at > 0; at = text.lastIndexOf(key, at - 1)) {
    if (text.charCodeAt(at - 1) === 92) continue;
    const start = text.lastIndexOf(sep, at);
    const end = text.indexOf(sep, at);
    return [start === -1 ? 0 : start + sep.length, end === -1 ? text.length : end + sep.length];
  }
  return null;
}

/** OpenAI's `"usage": null` on every chunk when the gateway asked for usage in the client's stead. */
const NULL_USAGE = ',"usage":null}\n\n';
/** What stripping removes from such a chunk: the member and its comma. */
const NULL_MEMBER = ',"usage":null'.length;

/**
 * Where the trailing `"usage":null` member of the one-line chunk text[start, stop) starts (the
 * top-level object's last member: nothing but its closing brace follows), or -1 when the event is
 * not that. Read in place: slicing each event out of its chunk costs more than the checks.
 */
function nullUsageAt(text: string, start: number, stop: number): number {
  const cut = stop - NULL_USAGE.length;
  // One line, whose only "usage" is that last member (a usage elsewhere is read the long way).
  const one =
    cut > start &&
    text.startsWith(NULL_USAGE, cut) &&
    text.startsWith('data: {', start) &&
    usageKeyAt(text, start) === cut + 1 &&
    text.indexOf('\n', start) === stop - 2;
  return one ? cut : -1;
}

/**
 * The SSE events of complete raw bytes (`text`, their latin1 text). An event of one `data: ` line,
 * after an `event: ` line or not, as nearly all are, is cut out directly; the parser reads the rest.
 */
function eventsOf(raw: Buffer, text: string): SseEvent[] {
  const end = text.length - 2;
  let event = 'message';
  let at = 0;
  if (text.startsWith('event: ')) {
    at = text.indexOf('\n') + 1;
    if (at > 8 && text.charCodeAt(at - 2) !== 13) event = raw.toString('utf8', 7, at - 1);
  }
  if (text.startsWith('data: ', at) && text.indexOf('\n', at) === end && text.charCodeAt(end + 1) === 10) {
    return [{ event, data: raw.toString('utf8', at + 6, end) }];
  }
  return SseParser.eventsIn(raw.toString());
}

/** The UTF-8 text of bytes read as latin1. */
const utf8 = (latin1: string): string => Buffer.from(latin1, 'latin1').toString();

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
  const strip = opts.stripNullUsage === true;
  const latest = rules.latestUsage;
  /** The blank line ending events: LF's unless the first line end is a CRLF. */
  let sep = '\n\n';
  let framingKnown = false;
  /** The latest raw event carrying `latest.key` (latin1), read when its usage is wanted. */
  let usageEvent: string | null = null;
  const readLatest = () => {
    if (latest && usageEvent !== null) tally.note(latest.read(utf8(usageEvent)), undefined);
  };
  out.writeHead(200, SSE_HEADERS);
  const tally = new StreamTally();
  /** Received bytes after the last whole event. */
  let carry = EMPTY;
  let held = '';
  /**
   * Raw events passed through uncounted, as latin1 text: holding the received bytes instead would
   * hold each whole read buffer they were cut from until the stream ends.
   */
  let uncounted: string[] = [];
  let uncountedBytes = 0;
  const count = () => {
    for (const raw of uncounted) for (const ev of SseParser.eventsIn(utf8(raw))) tally.note(null, opts.inspect(ev).text);
    uncounted = [];
    uncountedBytes = 0;
  };
  /** Raw events (their latin1 text) passed on unread. */
  const keep = (text: string) => {
    uncounted.push(text);
    uncountedBytes += text.length;
    const at = latest ? lastEventWith(text, latest.key, sep) : null;
    if (at) usageEvent = text.slice(at[0], at[1]);
    if (uncountedBytes >= COUNT_BATCH) count();
  };
  /** One raw event read and rendered as forwardStream renders it (a closing one held). */
  const read = (raw: Buffer, rawText: string): Buffer => {
    const pieces: Buffer[] = [];
    for (const ev of eventsOf(raw, rawText)) {
      const seen = opts.inspect(ev);
      tally.note(seen.usage, seen.text);
      if (seen.drop) continue;
      const framed = seen.data === undefined ? null : frame({ ...ev, data: seen.data });
      if (isClosing(ev)) held += framed ?? raw.toString();
      else pieces.push(framed === null ? raw : Buffer.from(framed));
    }
    return pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
  };
  /**
   * What whole raw events become for the client: the bytes as received, unless one of them is read
   * or stripped; then one new buffer, copied from the received bytes around the changes (a string
   * built instead is copied once more when written). The events passed on unread are kept for
   * counting in runs, not one by one.
   */
  const passEvents = (bytes: Buffer, text: string): Buffer => {
    if (!strip && !rules.mayMatter(text)) {
      keep(text);
      return bytes;
    }
    /** The output: ranges of `bytes` (a start and an end) and the rendered events between them. */
    const parts: Array<number | Buffer> = [];
    let size = 0;
    /** Where the bytes not yet in `parts` start. */
    let from = 0;
    /** Where the run of events passed on unread starts. */
    let keptFrom = 0;
    /** Whether `parts` holds an event read and rendered anew. */
    let rendered = false;
    let start = 0;
    for (let end = text.indexOf(sep); end !== -1; end = text.indexOf(sep, start)) {
      const stop = end + sep.length;
      const cut = strip ? nullUsageAt(text, start, stop) : -1;
      if (cut !== -1) {
        parts.push(from, cut);
        size += cut - from;
        from = cut + NULL_MEMBER;
      } else {
        const rawText = text.slice(start, stop);
        if (rules.matters(rawText) || (strip && usageKeyAt(rawText, 0) !== -1)) {
          if (start > keptFrom) keep(text.slice(keptFrom, start));
          keptFrom = stop;
          const event = read(bytes.subarray(start, stop), rawText);
          parts.push(from, start, event);
          size += start - from + event.length;
          rendered = true;
          from = stop;
        }
      }
      start = stop;
    }
    if (text.length > keptFrom) keep(keptFrom === 0 ? text : text.slice(keptFrom));
    if (from === 0) return bytes;
    parts.push(from, bytes.length);
    size += bytes.length - from;
    // Only members stripped: the bytes close up in place (they are this stream's alone, and go out
    // after this), with no new buffer.
    if (!rendered) {
      let at = 0;
      for (let i = 0; i < parts.length; i += 2) {
        const start = parts[i] as number;
        const end = parts[i + 1] as number;
        if (start !== at) bytes.copyWithin(at, start, end);
        at += end - start;
      }
      return bytes.subarray(0, at);
    }
    const changed = Buffer.allocUnsafe(size);
    let at = 0;
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      if (typeof part === 'number') at += bytes.copy(changed, at, part, parts[++i] as number);
      else at += part.copy(changed, at);
    }
    return changed;
  };

  /**
   * What the read bringing the closing event (and any after it) adds before that event: it waits
   * with the event until the call is billed, so that the answer's end reaches the client in one
   * write rather than two (each write wakes the client; a short answer comes in a single read).
   */
  const withClosing: Buffer[] = [];
  /** Sends `payload` now, or with the closing event once that has come. */
  const send = (payload: string | Buffer): boolean => {
    if (held === '') return out.write(payload);
    withClosing.push(typeof payload === 'string' ? Buffer.from(payload) : payload);
    return true;
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
      let payload: string | Buffer = EMPTY;
      if (parser) payload = parsed(parser.push(buffer));
      else {
        const bytes = carry.length === 0 ? buffer : Buffer.concat([carry, buffer]);
        const text = bytes.toString('latin1');
        // Framing is known at the first line end (a CR at the very end may be half of a CRLF).
        if (!framingKnown && /\n|\r./s.test(text)) {
          framingKnown = true;
          if (text.includes('\r\n')) sep = '\r\n\r\n';
        }
        if (!framingKnown) {
          // Nothing whole before the first line end: held until it comes.
          carry = bytes;
        } else if (sep === '\n\n' ? text.includes('\r') : NOT_CRLF.test(text)) {
          // From here usage is noted as the parser reads it: the one kept so far is read now.
          readLatest();
          usageEvent = null;
          carry = EMPTY;
          parser = new SseParser();
          payload = parsed(parser.push(bytes));
        } else {
          const last = text.lastIndexOf(sep);
          const end = last === -1 ? 0 : last + sep.length;
          carry = end === bytes.length ? EMPTY : bytes.subarray(end);
          if (end === bytes.length) payload = passEvents(bytes, text);
          else if (end > 0) payload = passEvents(bytes.subarray(0, end), text.slice(0, end));
        }
      }
      if (payload.length > 0) {
        if (isClientGone()) {
          clientAborted = true;
          break;
        }
        if (!send(payload)) await drained(out);
      }
      if (progress?.due()) {
        count();
        readLatest();
        progress.report(tally.usage, tally.count.estimate());
      }
    }
    if (!clientAborted) {
      // An event the upstream left without its closing blank line.
      const rest = parsed(parser ? parser.end() : carry.length > 0 ? eventsOf(carry, carry.toString('latin1')) : []);
      if (rest !== '') send(rest);
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
    else if (!clientAborted) out.end(withClosing.length === 0 ? held : Buffer.concat([...withClosing, Buffer.from(held)]));
  };
  readLatest();
  // A broken stream never reached its usage report: what was generated is counted here.
  const usage = interrupted ? null : tally.usage;
  if (!usage) count();
  const completionTokens = usage ? 0 : await tally.count.total();
  const sendWaiting = () => {
    if (!out.destroyed) for (const part of withClosing.splice(0)) out.write(part);
  };
  return { usage, completionTokens, firstTokenMs, clientAborted, interrupted, finish, sendWaiting };
}
