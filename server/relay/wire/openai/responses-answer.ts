/**
 * OpenAI Responses answers built from OpenAI chat answers: the Response object's shape (shared with
 * the stream serializer, whose `response.created` and `response.completed` events carry it), its
 * usage, and a whole `chat.completion` → Response conversion.
 *
 * Output items: a `reasoning` item per thinking block (its signature as `encrypted_content`, so a
 * client sending the item back gets it to the provider untouched; a redacted block's data likewise,
 * marked with REDACTED_THINKING_PREFIX) or one for plain reasoning text,
 * then a `message` item with the text, then a `function_call` item per tool call.
 */
import { randomBytes } from 'node:crypto';
import type { Usage } from '../../../billing/pricing.js';
import type { FinishReason } from '../events.js';
import { REDACTED_THINKING_PREFIX } from './responses-request.js';
import { callName, namespacedNames, type Namespaced } from './namespace-tools.js';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

export interface ResponsesOutputText {
  type: 'output_text';
  text: string;
  annotations: unknown[];
}

export type ResponsesOutputItem =
  | {
      type: 'message';
      id: string;
      status: 'in_progress' | 'completed' | 'incomplete';
      role: 'assistant';
      content: Array<ResponsesOutputText | { type: 'refusal'; refusal: string }>;
    }
  | {
      type: 'function_call';
      id: string;
      status: 'in_progress' | 'completed' | 'incomplete';
      call_id: string;
      /** Codex's namespace tools: the namespace of a flattened function (namespace-tools.ts). */
      namespace?: string;
      name: string;
      arguments: string;
    }
  | {
      type: 'reasoning';
      id: string;
      summary: Array<{ type: 'summary_text'; text: string }>;
      encrypted_content?: string;
    };

export interface ResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

export type ResponseStatus = 'in_progress' | 'completed' | 'incomplete' | 'failed';

export interface ResponsesResponse {
  id: string;
  object: 'response';
  created_at: number;
  status: ResponseStatus;
  error: { code: string; message: string } | null;
  incomplete_details: { reason: string } | null;
  instructions: unknown;
  max_output_tokens: number | null;
  model: string;
  output: ResponsesOutputItem[];
  parallel_tool_calls: boolean;
  previous_response_id: string | null;
  reasoning: { effort: string | null; summary: string | null };
  store: boolean;
  temperature: number;
  text: unknown;
  tool_choice: unknown;
  tools: unknown[];
  top_p: number;
  truncation: string;
  usage: ResponsesUsage | null;
  user: string | null;
  metadata: Json;
}

/** What an answer needs to know besides the upstream's answer. */
export interface ResponseContext {
  /** The model the client asked for (named in the answer). */
  model: string;
  /** The client's Responses request: its settings are echoed in the answer. */
  request: Json | null;
  /** Fixed ids and times for tests; generated otherwise. */
  id?: string;
  createdAt?: number;
}

export function newResponseId(): string {
  return `resp_${randomBytes(24).toString('hex')}`;
}

/** The id of output item `n` of a response (`msg_…`, `fc_…`, `rs_…`). */
export function itemId(prefix: 'msg' | 'fc' | 'rs', responseId: string, n: number): string {
  return `${prefix}_${responseId.replace(/^resp_/, '')}_${n}`;
}

/** A Response with no output yet: the request's settings echoed, nothing stored (`store: false`). */
export function responseShell(ctx: ResponseContext, id: string, createdAt: number): ResponsesResponse {
  const request = ctx.request ?? {};
  const reasoning = obj(request.reasoning);
  const numberOr = (v: unknown, fallback: number): number => (typeof v === 'number' ? v : fallback);
  return {
    id,
    object: 'response',
    created_at: createdAt,
    status: 'in_progress',
    error: null,
    incomplete_details: null,
    instructions: request.instructions ?? null,
    max_output_tokens: typeof request.max_output_tokens === 'number' ? request.max_output_tokens : null,
    model: ctx.model,
    output: [],
    parallel_tool_calls: typeof request.parallel_tool_calls === 'boolean' ? request.parallel_tool_calls : true,
    previous_response_id: null,
    reasoning: {
      effort: typeof reasoning?.effort === 'string' ? reasoning.effort : null,
      summary: typeof reasoning?.summary === 'string' ? reasoning.summary : null,
    },
    store: false,
    temperature: numberOr(request.temperature, 1),
    text: obj(request.text) ?? { format: { type: 'text' } },
    tool_choice: request.tool_choice ?? 'auto',
    tools: Array.isArray(request.tools) ? request.tools : [],
    top_p: numberOr(request.top_p, 1),
    truncation: 'disabled',
    usage: null,
    user: typeof request.user === 'string' ? request.user : null,
    metadata: obj(request.metadata) ?? {},
  };
}

/** The relay's usage in the Responses shape. */
export function toResponsesUsage(usage: Usage, reasoningTokens = 0): ResponsesUsage {
  return {
    input_tokens: usage.promptTokens,
    input_tokens_details: { cached_tokens: usage.cachedTokens ?? 0 },
    output_tokens: usage.completionTokens,
    output_tokens_details: { reasoning_tokens: reasoningTokens },
    total_tokens: usage.promptTokens + usage.completionTokens,
  };
}

/** The final status for a chat finish reason: cut short by the token limit or a filter → incomplete. */
export function statusFor(reason: FinishReason | string | null): Pick<ResponsesResponse, 'status' | 'incomplete_details'> {
  if (reason === 'length') return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
  if (reason === 'content_filter') return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
  return { status: 'completed', incomplete_details: null };
}

function chatUsage(raw: unknown): ResponsesUsage | null {
  const usage = obj(raw);
  if (!usage) return null;
  const input = num(usage.prompt_tokens);
  const output = num(usage.completion_tokens);
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: num(obj(usage.prompt_tokens_details)?.cached_tokens) },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: num(obj(usage.completion_tokens_details)?.reasoning_tokens) },
    total_tokens: num(usage.total_tokens) || input + output,
  };
}

/** The output items of one chat answer message. */
function outputOf(message: Json, responseId: string, names: Map<string, Namespaced>): ResponsesOutputItem[] {
  const output: ResponsesOutputItem[] = [];
  const id = (prefix: 'msg' | 'fc' | 'rs') => itemId(prefix, responseId, output.length);
  const blocks = (Array.isArray(message.thinking_blocks) ? message.thinking_blocks : [])
    .map(obj)
    .filter((b): b is Json => b?.type === 'thinking' || b?.type === 'redacted_thinking');
  if (blocks.length > 0) {
    for (const block of blocks) {
      if (block.type === 'redacted_thinking') {
        output.push({
          type: 'reasoning',
          id: id('rs'),
          summary: [],
          encrypted_content: REDACTED_THINKING_PREFIX + str(block.data),
        });
        continue;
      }
      const item: ResponsesOutputItem = {
        type: 'reasoning',
        id: id('rs'),
        summary: [{ type: 'summary_text', text: str(block.thinking) }],
      };
      if (str(block.signature) !== '') item.encrypted_content = str(block.signature);
      output.push(item);
    }
  } else if (str(message.reasoning_content) !== '') {
    output.push({ type: 'reasoning', id: id('rs'), summary: [{ type: 'summary_text', text: str(message.reasoning_content) }] });
  }
  const calls = (Array.isArray(message.tool_calls) ? message.tool_calls : []).map(obj).filter((c): c is Json => c !== null);
  const text = typeof message.content === 'string' ? message.content : '';
  const refusal = str(message.refusal);
  if (text !== '' || refusal !== '' || calls.length === 0) {
    output.push({
      type: 'message',
      id: id('msg'),
      status: 'completed',
      role: 'assistant',
      content: refusal !== '' ? [{ type: 'refusal', refusal }] : [{ type: 'output_text', text, annotations: [] }],
    });
  }
  for (const call of calls) {
    const fn = obj(call.function) ?? {};
    const callId = str(call.id) || `call_${responseId.replace(/^resp_/, '').slice(0, 24)}_${output.length}`;
    output.push({
      type: 'function_call',
      id: id('fc'),
      status: 'completed',
      call_id: callId,
      ...callName(str(fn.name), names),
      arguments: str(fn.arguments),
    });
  }
  return output;
}

/** A whole OpenAI `chat.completion` as a Response object. */
export function convertChatToResponse(completion: unknown, ctx: ResponseContext): ResponsesResponse {
  const root = obj(completion) ?? {};
  const choice = obj((Array.isArray(root.choices) ? root.choices : [])[0]) ?? {};
  const id = ctx.id ?? newResponseId();
  const created = ctx.createdAt ?? (num(root.created) || Math.floor(Date.now() / 1000));
  return {
    ...responseShell(ctx, id, created),
    ...statusFor(typeof choice.finish_reason === 'string' ? choice.finish_reason : null),
    output: outputOf(obj(choice.message) ?? {}, id, namespacedNames(ctx.request?.tools)),
    usage: chatUsage(root.usage),
  };
}
