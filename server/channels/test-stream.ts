/**
 * Streaming channel tests. Some upstreams answer only streams (a relay in front of a web client, a
 * model served streaming-only) and refuse a plain call; tested with one, such a channel would fail
 * every test and never be enabled again. A channel is tested with a stream when its `setting` says
 * `{"stream_only": true}`, or when a plain test was refused with an error saying a stream is
 * required (remembered by this process for the next tests).
 */
import type { Channel } from '../db/types.js';

/** Whether the channel's setting declares it stream-only. */
export function declaredStreamOnly(channel: Pick<Channel, 'setting'>): boolean {
  if (!channel.setting) return false;
  try {
    const setting = JSON.parse(channel.setting) as { stream_only?: unknown };
    return setting.stream_only === true;
  } catch {
    return false;
  }
}

/** Upstream words for "only streams are served here". */
const STREAM_ONLY =
  /\bstream(ing)?\b[^.]{0,40}\b(must|required|only)\b|\bonly\s+supports?\s+stream|\bnon-?stream(ing)?\b[^.]{0,20}\bnot\s+(supported|allowed)|\bstream\b[^.]{0,10}\bmust\s+be\s+(set\s+to\s+)?true\b|仅支持流式|只支持流式/i;

export function saysStreamOnly(message: string): boolean {
  return STREAM_ONLY.test(message);
}

/**
 * Judges a streamed test answer: an event stream with at least one data event that parses and
 * is not an error. Returns the problem, or null for a pass.
 */
export function streamProblem(text: string): string | null {
  let events = 0;
  for (const line of text.split(/\r?\n/)) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (data === '' || data === '[DONE]') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      return `上游流式应答无法解析：${data.slice(0, 200)}`;
    }
    const event = parsed as { error?: unknown; type?: unknown } | null;
    if (event && (event.error || event.type === 'error')) return `上游流式应答出错：${data.slice(0, 200)}`;
    events++;
  }
  return events > 0 ? null : `上游流式应答为空：${text.slice(0, 200)}`;
}
