/**
 * A stream in the client's own protocol, with no watch over its text: passed through byte for byte.
 * Parsing and re-framing every event cost more than the rest of a streamed call, so only the events
 * that matter are parsed — those carrying usage (`"usage"`) and the closing ones, held back until
 * the call is billed — through the same inspection as forwardStream. The others go out as they came;
 * their text, needed only for checkpoints or when no usage arrives (a cut stream), is counted later
 * from the raw events kept, a bounded batch at a time.
 */
import type { ServerResponse } from 'node:http';
import { SseParser, type SseEvent } from '../wire/sse.js';
import type { UpstreamResponse } from './call-upstream.js';
import {
  drained,
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

/** Whether raw SSE text may hold an event that must be parsed: usage, or a stream's closing. */
const mayMatter = (raw: string) =>
  raw.includes('"usage"') || raw.includes('[DONE]') || raw.includes('event: response.') || raw.includes('message_stop');

/** OpenAI's `"usage": null` on every chunk when the gateway asked for usage in the client's stead. */
const NULL_USAGE = ',"usage":null}\n\n';

/**
 * A one-line chunk without its trailing `"usage":null` (the top-level object's last member: nothing
 * but its closing brace follows), as the client would have had it; null when the event is not that.
 */
function withoutNullUsage(raw: string): string | null {
  if (!raw.endsWith(NULL_USAGE) || !raw.startsWith('data: {')) return null;
  const text = raw.slice(0, -NULL_USAGE.length) + '}\n\n';
  return text.indexOf('\n') === text.length - 2 && !mayMatter(text) ? text : null;
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
  opts: { inspect: (ev: SseEvent) => EventInspection; hooks: AnswerHooks; stripNullUsage: boolean },
): Promise<ForwardResult> {
  const { isClientGone, progress } = opts.hooks;
  out.writeHead(200, SSE_HEADERS);
  const tally = new StreamTally();
  const decoder = new TextDecoder();
  let carry = '';
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
    if (uncountedChars >= COUNT_BATCH) count();
  };
  /** What one raw event becomes for the client. */
  const render = (raw: string): string => {
    const stripped = opts.stripNullUsage ? withoutNullUsage(raw) : null;
    if (stripped !== null) {
      keep(stripped);
      return stripped;
    }
    if (!mayMatter(raw)) {
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
    if (!mayMatter(text)) {
      keep(text);
      return text;
    }
    let rendered = '';
    let start = 0;
    for (let end = text.indexOf('\n\n'); end !== -1; end = text.indexOf('\n\n', start)) {
      rendered += render(text.slice(start, end + 2));
      start = end + 2;
    }
    return rendered;
  };

  let firstTokenMs = 0;
  let clientAborted = false;
  let interrupted: string | undefined;
  /** Set when the upstream frames with CR: its events then go through the full parser. */
  let parser: SseParser | null = null;
  try {
    for await (const chunk of upstream.body) {
      if (firstTokenMs === 0) firstTokenMs = Math.round(performance.now() - started);
      const buffer = chunk as Buffer;
      let payload: string | Buffer = '';
      if (parser) payload = parsed(parser.push(buffer));
      else {
        const text = carry + decoder.decode(buffer, { stream: true });
        if (text.includes('\r')) {
          parser = new SseParser();
          payload = parsed(parser.push(Buffer.from(text)));
        } else {
          const end = text.lastIndexOf('\n\n') + 2;
          carry = text.slice(end);
          const whole = end === text.length && carry === '' && !mayMatter(text);
          // The chunk as received when it is whole events that pass untouched.
          payload = whole ? (keep(text), buffer) : renderAll(text.slice(0, end));
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
  // A broken stream never reached its usage report: what was generated is counted here.
  const usage = interrupted ? null : tally.usage;
  if (!usage) count();
  const completionTokens = usage ? 0 : await tally.count.total();
  return { usage, completionTokens, firstTokenMs, clientAborted, interrupted, finish };
}
