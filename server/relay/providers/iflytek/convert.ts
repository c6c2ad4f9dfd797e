/**
 * OpenAI chat ⇄ iFlytek Spark websocket frames, pure. A request is one frame
 * `{header:{app_id, uid}, parameter:{chat:{domain, …}}, payload:{message:{text:[{role, content}]}}}`;
 * the answer comes as frames `{header:{code, message, sid, status}, payload:{choices:{status, seq,
 * text:[{role, content, index}]}, usage:{text:{prompt_tokens, completion_tokens, …}}}}`, status 2
 * (and the usage) on the last. Frames whose `header.code` is not 0 are errors.
 */
import type { Usage } from '../../../billing/pricing.js';
import type { SseEvent } from '../../wire/sse.js';
import type { StreamEvent } from '../../wire/events.js';
import { count, maxTokensOf, nowSeconds, num, obj, openAICompletion, str, toTextTurns, type Json } from '../kit/chat-text.js';
import { createJsonEventParser } from '../kit/json-events.js';

const UID_MAX = 32;

/** The request frame for an OpenAI chat body. */
export function convertToSparkFrame(body: Json, opts: { appId: string; domain: string }): Json {
  const { system, turns } = toTextTurns(body.messages);
  const text: Array<{ role: string; content: string }> = system === '' ? [] : [{ role: 'system', content: system }];
  text.push(...turns);
  const chat: Json = { domain: opts.domain };
  const temperature = num(body.temperature);
  if (temperature !== undefined) chat.temperature = temperature;
  const maxTokens = maxTokensOf(body);
  if (maxTokens !== undefined) chat.max_tokens = maxTokens;
  const topK = num(body.top_k);
  if (topK !== undefined) chat.top_k = topK;
  const header: Json = { app_id: opts.appId };
  if (typeof body.user === 'string' && body.user !== '') header.uid = body.user.slice(0, UID_MAX);
  return { header, parameter: { chat }, payload: { message: { text } } };
}

/** A frame's error (`header.code` not 0), or null. */
export function sparkErrorOf(frame: unknown): { code: number; message: string } | null {
  const header = obj(obj(frame)?.header);
  if (!header) {
    const message = str(obj(frame)?.message);
    return message === '' ? null : { code: 0, message };
  }
  const code = Number(header.code) || 0;
  return code === 0 ? null : { code, message: str(header.message) || `讯飞星火返回错误 ${code}` };
}

const BAD_INPUT = new Set([10013, 10014, 10019, 10160, 10161, 10162, 10163, 10907]);
const LIMITED = new Set([11201, 11202, 11203]);

/** The status an error code stands for: input refused 400, no licence 403, limits 429, else 500. */
export function sparkErrorStatus(code: number): number {
  if (BAD_INPUT.has(code)) return 400;
  if (code === 11200) return 403;
  if (LIMITED.has(code)) return 429;
  return 500;
}

export function usageFromSpark(usage: unknown): Usage | null {
  const text = obj(obj(usage)?.text);
  if (!text) return null;
  return { promptTokens: count(text.prompt_tokens), completionTokens: count(text.completion_tokens) };
}

export const isLastFrame = (frame: Json): boolean =>
  obj(frame.header)?.status === 2 || obj(obj(frame.payload)?.choices)?.status === 2;

/** The text one frame carries. */
function frameText(frame: Json): string {
  const choices = obj(obj(frame.payload)?.choices);
  let text = '';
  for (const piece of Array.isArray(choices?.text) ? choices.text : []) text += str(obj(piece)?.content);
  return text;
}

/** Frames collected into one frame of the same shape: the whole answer of a non-streamed request. */
export class SparkAnswer {
  private text = '';
  private usage: unknown = undefined;
  private sid = '';
  /** The last frame arrived. */
  done = false;

  add(frame: Json): void {
    this.text += frameText(frame);
    const usage = obj(frame.payload)?.usage;
    if (usage !== undefined) this.usage = usage;
    this.sid ||= str(obj(frame.header)?.sid);
    if (isLastFrame(frame)) this.done = true;
  }

  frame(): Json {
    const payload: Json = { choices: { status: 2, text: [{ role: 'assistant', content: this.text, index: 0 }] } };
    if (this.usage !== undefined) payload.usage = this.usage;
    return { header: { code: 0, message: 'Success', sid: this.sid, status: 2 }, payload };
  }
}

/** A whole answer (one frame, as SparkAnswer builds it) as an OpenAI chat.completion. */
export function convertSparkResponse(payload: unknown, model: string): { completion: unknown; usage: Usage | null } {
  const frame = obj(payload) ?? {};
  const usage = usageFromSpark(obj(frame.payload)?.usage);
  const completion = openAICompletion({
    id: str(obj(frame.header)?.sid) || `chatcmpl-${Date.now().toString(36)}`,
    model,
    created: nowSeconds(),
    text: frameText(frame),
    finish: 'stop',
    usage,
  });
  return { completion, usage };
}

/** Streamed frames (each relayed as one SSE event) → StreamEvents. */
export function createSparkStreamParser(model: string): { push(event: SseEvent): StreamEvent[] } {
  return createJsonEventParser(model, {
    errorOf: sparkErrorOf,
    startOf: (frame) => ({ id: str(obj(frame.header)?.sid), created: nowSeconds() }),
    eventsOf: (frame) => {
      const out: StreamEvent[] = [];
      const text = frameText(frame);
      if (text !== '') out.push({ type: 'text', index: 0, text });
      const usage = usageFromSpark(obj(frame.payload)?.usage);
      if (usage) out.push({ type: 'usage', usage });
      if (isLastFrame(frame)) out.push({ type: 'finish', index: 0, reason: 'stop' });
      return out;
    },
  });
}
