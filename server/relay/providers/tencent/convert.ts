/**
 * OpenAI chat ⇄ Tencent hunyuan ChatCompletions (API 3.0, version 2023-09-01), pure. Requests
 * carry `Messages[{Role, Content}]`; whole answers come as `{Response: {Choices[].Message, Usage}}`,
 * stream events as the same fields unwrapped with `Choices[].Delta`. Errors come as
 * `{Response: {Error: {Code, Message}}}` behind a 200 status, so `tencentErrorStatus` gives each
 * code family the status the relay should act on.
 */
import type { Usage } from '../../../billing/pricing.js';
import type { SseEvent } from '../../wire/sse.js';
import type { FinishReason, StreamEvent } from '../../wire/events.js';
import { count, nowSeconds, num, obj, openAICompletion, str, toTextTurns, type Json } from '../kit/chat-text.js';
import { createJsonEventParser } from '../kit/json-events.js';

/** The ChatCompletions body for an OpenAI chat body. */
export function convertToTencentRequest(body: Json, stream: boolean): Json {
  const { system, turns } = toTextTurns(body.messages);
  const messages: Array<{ Role: string; Content: string }> = turns.map((t) => ({ Role: t.role, Content: t.content }));
  if (system !== '') messages.unshift({ Role: 'system', Content: system });
  const out: Json = { Model: String(body.model), Messages: messages, Stream: stream };
  const temperature = num(body.temperature);
  if (temperature !== undefined) out.Temperature = temperature;
  const topP = num(body.top_p);
  if (topP !== undefined) out.TopP = topP;
  return out;
}

const FINISH: Record<string, FinishReason> = {
  stop: 'stop',
  length: 'length',
  sensitive: 'content_filter',
  tool_calls: 'tool_calls',
};

export function usageFromTencent(usage: unknown): Usage | null {
  const u = obj(usage);
  if (!u) return null;
  return { promptTokens: count(u.PromptTokens), completionTokens: count(u.CompletionTokens) };
}

/** `Response.Error` (or a stream event's `ErrorMsg`), or null. */
export function tencentErrorOf(payload: unknown): { code: string; message: string } | null {
  const p = obj(payload);
  const error = obj(obj(p?.Response)?.Error);
  if (error) return { code: str(error.Code), message: str(error.Message) || str(error.Code) || '腾讯云返回错误' };
  const streamError = obj(p?.ErrorMsg);
  if (streamError) return { code: String(streamError.Code ?? ''), message: str(streamError.Msg) || '腾讯混元返回错误' };
  return null;
}

/** The status an error code stands for: auth 401, quota and account 403, limits 429, bad input 400, else 500. */
export function tencentErrorStatus(code: string): number {
  if (code.startsWith('AuthFailure')) return 401;
  if (
    code.startsWith('UnauthorizedOperation') ||
    code.startsWith('ResourceInsufficient') ||
    code.startsWith('ResourceUnavailable')
  )
    return 403;
  if (code.startsWith('FailedOperation.ServiceNotActivated') || code.startsWith('FailedOperation.ServiceStop')) return 403;
  if (code.startsWith('RequestLimitExceeded') || code.startsWith('LimitExceeded')) return 429;
  if (code.startsWith('InvalidParameter') || code.startsWith('MissingParameter') || code.startsWith('UnknownParameter'))
    return 400;
  if (code.startsWith('InvalidAction') || code.startsWith('UnsupportedOperation') || code.startsWith('InvalidRequest'))
    return 400;
  return 500;
}

/** A whole ChatCompletions answer as an OpenAI chat.completion. */
export function convertTencentResponse(payload: unknown, model: string): { completion: unknown; usage: Usage | null } {
  const r = obj(obj(payload)?.Response) ?? {};
  const choice = obj(Array.isArray(r.Choices) ? r.Choices[0] : null) ?? {};
  const usage = usageFromTencent(r.Usage);
  const completion = openAICompletion({
    id: str(r.Id) || `chatcmpl-${Date.now().toString(36)}`,
    model,
    created: num(r.Created) ?? nowSeconds(),
    text: str(obj(choice.Message)?.Content),
    finish: FINISH[str(choice.FinishReason)] ?? 'stop',
    usage,
  });
  return { completion, usage };
}

/** ChatCompletions stream events → StreamEvents. */
export function createTencentStreamParser(model: string): { push(event: SseEvent): StreamEvent[] } {
  return createJsonEventParser(model, {
    errorOf: tencentErrorOf,
    startOf: (chunk) => ({ id: str(chunk.Id), created: num(chunk.Created) ?? nowSeconds() }),
    eventsOf: (chunk) => {
      const out: StreamEvent[] = [];
      for (const [index, c] of (Array.isArray(chunk.Choices) ? chunk.Choices : []).entries()) {
        const choice = obj(c);
        if (!choice) continue;
        const text = str(obj(choice.Delta)?.Content);
        if (text !== '') out.push({ type: 'text', index, text });
        const finish = str(choice.FinishReason);
        if (finish !== '') out.push({ type: 'finish', index, reason: FINISH[finish] ?? 'stop' });
      }
      const usage = usageFromTencent(chunk.Usage);
      if (usage) out.push({ type: 'usage', usage });
      return out;
    },
  });
}
