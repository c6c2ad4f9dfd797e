/**
 * OpenAI chat ⇄ Baidu ERNIE chat (wenxinworkshop), pure. Requests carry the system prompt in its own
 * field and alternating user/assistant turns; answers carry the text in `result`, and errors come
 * as `{error_code, error_msg}` — often behind a 200 status, so `baiduErrorStatus` gives each code
 * the status the relay should act on.
 */
import type { Usage } from '../../../billing/pricing.js';
import type { SseEvent } from '../../wire/sse.js';
import type { FinishReason, StreamEvent } from '../../wire/events.js';
import {
  count,
  maxTokensOf,
  nowSeconds,
  num,
  obj,
  openAICompletion,
  stopList,
  str,
  toTextTurns,
  type Json,
} from '../kit/chat-text.js';
import { createJsonEventParser } from '../kit/json-events.js';

/** The ERNIE chat request for an OpenAI chat body. */
export function convertToBaiduRequest(body: Json, stream: boolean): Json {
  const { system, turns } = toTextTurns(body.messages);
  const out: Json = { messages: turns, stream };
  if (system !== '') out.system = system;
  const temperature = num(body.temperature);
  if (temperature !== undefined) out.temperature = temperature;
  const topP = num(body.top_p);
  if (topP !== undefined) out.top_p = topP;
  const stop = stopList(body.stop);
  if (stop) out.stop = stop;
  const maxTokens = maxTokensOf(body);
  if (maxTokens !== undefined) out.max_output_tokens = maxTokens;
  if (typeof body.user === 'string' && body.user !== '') out.user_id = body.user;
  if (obj(body.response_format)?.type === 'json_object') out.response_format = 'json_object';
  return out;
}

const FINISH: Record<string, FinishReason> = {
  normal: 'stop',
  stop: 'stop',
  length: 'length',
  content_filter: 'content_filter',
  function_call: 'tool_calls',
};

/**
 * Baidu's usage as ours. In streams `total_tokens` is the running total while `completion_tokens`
 * may count only the last piece, so the completion is the total less the prompt when a total is given.
 */
export function usageFromBaidu(usage: unknown): Usage | null {
  const u = obj(usage);
  if (!u) return null;
  const prompt = count(u.prompt_tokens);
  const total = count(u.total_tokens);
  return { promptTokens: prompt, completionTokens: total > 0 ? Math.max(0, total - prompt) : count(u.completion_tokens) };
}

/** `{error_code, error_msg}` from Baidu, or null. */
export function baiduErrorOf(payload: unknown): { code: number; message: string } | null {
  const p = obj(payload);
  if (!p || p.error_code === undefined || p.error_code === 0) return null;
  const code = Number(p.error_code) || 0;
  return { code, message: str(p.error_msg) || `百度返回错误 ${String(p.error_code)}` };
}

/** Token invalid (110) or expired (111). */
export const isTokenError = (code: number): boolean => code === 110 || code === 111;

const RATE_LIMITED = new Set([4, 17, 18, 19, 336501, 336502, 336503, 336504, 336505, 336507]);
const NO_PERMISSION = new Set([6, 13, 14, 15, 100]);

/** The status an error code stands for: auth 401, permission 403, limits 429, bad input 400, else 500. */
export function baiduErrorStatus(code: number): number {
  if (isTokenError(code)) return 401;
  if (NO_PERMISSION.has(code)) return 403;
  if (RATE_LIMITED.has(code)) return 429;
  if ((code >= 336001 && code <= 336099) || code === 336103 || code === 336104 || code === 336006 || code === 336007) return 400;
  return 500;
}

/** A whole ERNIE answer as an OpenAI chat.completion. */
export function convertBaiduResponse(payload: unknown, model: string): { completion: unknown; usage: Usage | null } {
  const p = obj(payload) ?? {};
  const usage = usageFromBaidu(p.usage);
  const completion = openAICompletion({
    id: str(p.id) || `chatcmpl-${Date.now().toString(36)}`,
    model,
    created: num(p.created) ?? nowSeconds(),
    text: str(p.result),
    finish: FINISH[str(p.finish_reason)] ?? 'stop',
    usage,
  });
  return { completion, usage };
}

/** ERNIE stream events (`data: {…, result, is_end, usage}`) → StreamEvents. */
export function createBaiduStreamParser(model: string): { push(event: SseEvent): StreamEvent[] } {
  return createJsonEventParser(model, {
    errorOf: baiduErrorOf,
    startOf: (chunk) => ({ id: str(chunk.id), created: num(chunk.created) ?? nowSeconds() }),
    eventsOf: (chunk) => {
      const out: StreamEvent[] = [];
      const text = str(chunk.result);
      if (text !== '') out.push({ type: 'text', index: 0, text });
      const usage = usageFromBaidu(chunk.usage);
      if (usage) out.push({ type: 'usage', usage });
      if (chunk.is_end === true) out.push({ type: 'finish', index: 0, reason: FINISH[str(chunk.finish_reason)] ?? 'stop' });
      return out;
    },
  });
}
