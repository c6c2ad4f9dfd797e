/**
 * OpenAI chat ⇄ Cohere Chat API v2 (`POST /v2/chat`), pure functions.
 *
 * - Request: system/developer, user (text and `image_url` parts), assistant (text, `tool_calls`,
 *   reasoning sent back as `tool_plan`) and tool (`tool_call_id`) messages keep their OpenAI shape,
 *   which v2 shares; `top_p` → `p`, `top_k` → `k`, `stop` → `stop_sequences`,
 *   `max_completion_tokens` → `max_tokens`; `tool_choice` "required"/"none" → REQUIRED/NONE (a
 *   named function becomes REQUIRED: Cohere cannot force one); `response_format` json_object /
 *   json_schema → `{type: "json_object", json_schema}`.
 * - Answer: `message.content` text parts (thinking parts and `tool_plan` → reasoning),
 *   `message.tool_calls`, `finish_reason` (COMPLETE, STOP_SEQUENCE, MAX_TOKENS, TOOL_CALL, ERROR,
 *   ERROR_TOXIC, TIMEOUT) and usage — `billed_units` (what Cohere charges), else `tokens`.
 */
import type { Usage } from '../../../billing/pricing.js';
import type { FinishReason } from '../../wire/events.js';
import type { OpenAIChatCompletion, OpenAIToolCall } from '../../wire/openai/openai-types.js';
import { maxTokensOf, nowSeconds, obj, openAICompletion, stopList, str, textOf, type Json } from '../kit/chat-text.js';

type CohereContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

export type CohereMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | CohereContentPart[] }
  | { role: 'assistant'; content?: string; tool_calls?: OpenAIToolCall[]; tool_plan?: string }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface CohereChatRequest {
  model: string;
  messages: CohereMessage[];
  stream: boolean;
  max_tokens?: number;
  temperature?: number;
  p?: number;
  k?: number;
  seed?: number;
  frequency_penalty?: number;
  presence_penalty?: number;
  stop_sequences?: string[];
  tools?: unknown[];
  tool_choice?: 'REQUIRED' | 'NONE';
  response_format?: { type: 'json_object'; json_schema?: unknown };
}

/** User content: a string, or text and image parts when images are present. */
function userContent(content: unknown): string | CohereContentPart[] {
  if (!Array.isArray(content) || !content.some((p) => obj(p)?.type === 'image_url')) return textOf(content);
  const parts: CohereContentPart[] = [];
  for (const part of content) {
    const p = obj(part);
    if (p?.type === 'text' && typeof p.text === 'string') parts.push({ type: 'text', text: p.text });
    if (p?.type === 'image_url') {
      const url = typeof p.image_url === 'string' ? p.image_url : str(obj(p.image_url)?.url);
      if (url !== '') parts.push({ type: 'image_url', image_url: { url } });
    }
  }
  return parts;
}

function toolCallsOf(calls: unknown): OpenAIToolCall[] {
  const out: OpenAIToolCall[] = [];
  for (const c of Array.isArray(calls) ? calls : []) {
    const call = obj(c);
    const fn = obj(call?.function);
    if (!call || !fn) continue;
    out.push({ id: str(call.id), type: 'function', function: { name: str(fn.name), arguments: str(fn.arguments) || '{}' } });
  }
  return out;
}

function convertMessage(message: Json): CohereMessage | null {
  switch (message.role) {
    case 'system':
    case 'developer':
      return { role: 'system', content: textOf(message.content) };
    case 'user':
      return { role: 'user', content: userContent(message.content) };
    case 'tool':
      return { role: 'tool', tool_call_id: str(message.tool_call_id), content: textOf(message.content) };
    case 'assistant': {
      const out: CohereMessage = { role: 'assistant' };
      const text = textOf(message.content);
      const calls = toolCallsOf(message.tool_calls);
      if (text !== '') out.content = text;
      if (calls.length > 0) {
        out.tool_calls = calls;
        if (typeof message.reasoning_content === 'string' && message.reasoning_content !== '')
          out.tool_plan = message.reasoning_content;
      }
      return text === '' && calls.length === 0 ? null : out;
    }
    default:
      return null;
  }
}

/** An OpenAI chat body (model already the upstream's) as a Cohere v2 chat body. */
export function convertToCohereChat(body: Json, stream: boolean): CohereChatRequest {
  const messages: CohereMessage[] = [];
  for (const m of Array.isArray(body.messages) ? body.messages : []) {
    const message = obj(m);
    const converted = message ? convertMessage(message) : null;
    if (converted) messages.push(converted);
  }
  const request: CohereChatRequest = { model: str(body.model), messages, stream };
  const max = maxTokensOf(body);
  if (max !== undefined) request.max_tokens = max;
  if (typeof body.temperature === 'number') request.temperature = body.temperature;
  if (typeof body.top_p === 'number') request.p = body.top_p;
  if (typeof body.top_k === 'number') request.k = body.top_k;
  if (typeof body.seed === 'number') request.seed = body.seed;
  if (typeof body.frequency_penalty === 'number') request.frequency_penalty = body.frequency_penalty;
  if (typeof body.presence_penalty === 'number') request.presence_penalty = body.presence_penalty;
  const stop = stopList(body.stop);
  if (stop) request.stop_sequences = stop;
  if (Array.isArray(body.tools) && body.tools.length > 0) {
    request.tools = body.tools;
    if (body.tool_choice === 'none') request.tool_choice = 'NONE';
    else if (body.tool_choice === 'required' || obj(body.tool_choice)) request.tool_choice = 'REQUIRED';
  }
  const format = obj(body.response_format);
  if (format?.type === 'json_object') request.response_format = { type: 'json_object' };
  if (format?.type === 'json_schema') {
    const schema = obj(format.json_schema)?.schema;
    request.response_format = schema ? { type: 'json_object', json_schema: schema } : { type: 'json_object' };
  }
  return request;
}

const FINISH: Record<string, FinishReason> = {
  COMPLETE: 'stop',
  STOP_SEQUENCE: 'stop',
  MAX_TOKENS: 'length',
  TOOL_CALL: 'tool_calls',
  ERROR: 'error',
  ERROR_TOXIC: 'content_filter',
  TIMEOUT: 'error',
};

export function mapCohereFinishReason(reason: unknown): FinishReason {
  return (typeof reason === 'string' && FINISH[reason]) || 'stop';
}

/** Usage from Cohere's `usage`: billed units when given, else the raw token counts. */
export function usageFromCohere(usage: unknown): Usage | null {
  const u = obj(usage);
  const counted = obj(u?.billed_units) ?? obj(u?.tokens);
  if (!counted) return null;
  const input = counted.input_tokens;
  const output = counted.output_tokens;
  if (typeof input !== 'number' && typeof output !== 'number') return null;
  return { promptTokens: typeof input === 'number' ? input : 0, completionTokens: typeof output === 'number' ? output : 0 };
}

/** A whole v2 chat answer as an OpenAI chat.completion. */
export function convertCohereChatAnswer(
  payload: unknown,
  model: string,
): { completion: OpenAIChatCompletion; usage: Usage | null } {
  const answer = obj(payload) ?? {};
  const message = obj(answer.message) ?? {};
  const text: string[] = [];
  const thinking: string[] = [];
  for (const part of Array.isArray(message.content) ? message.content : []) {
    const p = obj(part);
    if (p?.type === 'text' && typeof p.text === 'string') text.push(p.text);
    if (p?.type === 'thinking' && typeof p.thinking === 'string') thinking.push(p.thinking);
  }
  if (typeof message.tool_plan === 'string' && message.tool_plan !== '') thinking.push(message.tool_plan);
  const usage = usageFromCohere(answer.usage);
  const completion = openAICompletion({
    id: str(answer.id) || `chatcmpl-cohere-${nowSeconds()}`,
    model,
    created: nowSeconds(),
    text: text.join(''),
    finish: mapCohereFinishReason(answer.finish_reason),
    usage,
    toolCalls: toolCallsOf(message.tool_calls),
  });
  if (thinking.length > 0) completion.choices[0]!.message.reasoning_content = thinking.join('\n');
  return { completion, usage };
}

/** The message of a Cohere error body (`{"message": "..."}`, sometimes with an `id`). */
export function cohereErrorMessage(text: string, status: number): string {
  try {
    const parsed = obj(JSON.parse(text));
    if (typeof parsed?.message === 'string') return parsed.message;
    const error = parsed?.error;
    if (typeof error === 'string') return error;
    if (typeof obj(error)?.message === 'string') return obj(error)!.message as string;
  } catch {
    /* not JSON */
  }
  return text.slice(0, 500) || `upstream answered ${status}`;
}
