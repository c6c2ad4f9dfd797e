/**
 * OpenAI ⇄ Ollama's native API, pure functions.
 *
 * - Chat: OpenAI chat → `POST /api/chat` (`messages` with `images` as bare base64 and tool calls
 *   whose arguments are objects; sampling settings under `options`: temperature, top_p, top_k,
 *   seed, stop, frequency/presence penalties, `num_predict` for max_tokens; `format` for JSON
 *   output). Answers: `message.content`, `message.thinking` (reasoning), `message.tool_calls`,
 *   `done_reason`, and usage from `prompt_eval_count` / `eval_count`.
 * - Embeddings: OpenAI embeddings → `POST /api/embed` (`input` as a string or list,
 *   `dimensions`); the answer's `embeddings` back as OpenAI's list, usage from `prompt_eval_count`.
 * Images must be inline (`data:` URLs): Ollama takes image bytes, not links.
 */
import type { Usage } from '../../../billing/pricing.js';
import type { FinishReason } from '../../wire/events.js';
import type { OpenAIChatCompletion, OpenAIToolCall } from '../../wire/openai/openai-types.js';
import {
  embeddingInputs,
  embeddingList,
  vectorsOf,
  wantsBase64,
  type OpenAIEmbeddingList,
} from '../../wire/openai/openai-embeddings.js';
import { maxTokensOf, nowSeconds, obj, openAICompletion, stopList, str, type Json } from '../kit/chat-text.js';

export interface OllamaToolCall {
  function: { name: string; arguments: Record<string, unknown> };
}

export interface OllamaMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  images?: string[];
  thinking?: string;
  tool_calls?: OllamaToolCall[];
  tool_name?: string;
}

export interface OllamaChatRequest {
  model: string;
  messages: OllamaMessage[];
  stream: boolean;
  options?: Record<string, unknown>;
  tools?: unknown[];
  format?: unknown;
  think?: boolean;
}

export type Converted<T> = { ok: true; body: T } | { ok: false; message: string };

/** Tool-call arguments as an object (Ollama's shape); text that is not a JSON object is kept under `input`. */
function argumentsObject(text: unknown): Record<string, unknown> {
  if (typeof text !== 'string' || text.trim() === '') return {};
  try {
    const parsed = JSON.parse(text) as unknown;
    return obj(parsed) ?? { input: parsed };
  } catch {
    return { input: text };
  }
}

/** The base64 bytes of a `data:` URL, or null. */
function inlineImage(url: string): string | null {
  const match = /^data:[^;,]*;base64,(.*)$/s.exec(url);
  return match ? match[1]! : null;
}

/** A message's text and images; an error names an image given by link. */
function contentOf(content: unknown): { text: string; images: string[] } | { error: string } {
  if (typeof content === 'string') return { text: content, images: [] };
  const text: string[] = [];
  const images: string[] = [];
  for (const part of Array.isArray(content) ? content : []) {
    const p = obj(part);
    if (!p) continue;
    if (p.type === 'text' && typeof p.text === 'string') text.push(p.text);
    if (p.type === 'image_url') {
      const url = typeof p.image_url === 'string' ? p.image_url : str(obj(p.image_url)?.url);
      const data = inlineImage(url);
      if (data === null) return { error: 'Ollama takes images inline only: send them as data: URLs' };
      images.push(data);
    }
  }
  return { text: text.join('\n'), images };
}

function sampling(body: Json): Record<string, unknown> | undefined {
  const options: Record<string, unknown> = {};
  for (const [from, to] of [
    ['temperature', 'temperature'],
    ['top_p', 'top_p'],
    ['top_k', 'top_k'],
    ['seed', 'seed'],
    ['frequency_penalty', 'frequency_penalty'],
    ['presence_penalty', 'presence_penalty'],
  ] as const) {
    if (typeof body[from] === 'number') options[to] = body[from];
  }
  const max = maxTokensOf(body);
  if (max !== undefined) options.num_predict = max;
  const stop = stopList(body.stop);
  if (stop) options.stop = stop;
  return Object.keys(options).length > 0 ? options : undefined;
}

/** `response_format` as Ollama's `format`: "json", or the JSON schema itself. */
function formatOf(responseFormat: unknown): unknown {
  const format = obj(responseFormat);
  if (format?.type === 'json_object') return 'json';
  if (format?.type === 'json_schema') return obj(obj(format.json_schema)?.schema) ?? 'json';
  return undefined;
}

/** An OpenAI chat body (model already the upstream's) as an Ollama `/api/chat` body. */
export function convertToOllamaChat(body: Json, stream: boolean): Converted<OllamaChatRequest> {
  const messages: OllamaMessage[] = [];
  const toolNames = new Map<string, string>();
  for (const m of Array.isArray(body.messages) ? body.messages : []) {
    const message = obj(m);
    if (!message) continue;
    const content = contentOf(message.content);
    if ('error' in content) return { ok: false, message: content.error };
    const role = message.role === 'developer' ? 'system' : message.role;
    if (role === 'tool') {
      const name = toolNames.get(str(message.tool_call_id));
      messages.push({ role: 'tool', content: content.text, ...(name ? { tool_name: name } : {}) });
      continue;
    }
    if (role !== 'system' && role !== 'user' && role !== 'assistant') continue;
    const out: OllamaMessage = { role, content: content.text };
    if (content.images.length > 0) out.images = content.images;
    if (role === 'assistant') {
      if (typeof message.reasoning_content === 'string' && message.reasoning_content !== '')
        out.thinking = message.reasoning_content;
      const calls: OllamaToolCall[] = [];
      for (const c of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
        const call = obj(c);
        const fn = obj(call?.function);
        if (!call || !fn) continue;
        const name = str(fn.name);
        if (typeof call.id === 'string') toolNames.set(call.id, name);
        calls.push({ function: { name, arguments: argumentsObject(fn.arguments) } });
      }
      if (calls.length > 0) out.tool_calls = calls;
    }
    messages.push(out);
  }
  const request: OllamaChatRequest = { model: str(body.model), messages, stream };
  const options = sampling(body);
  if (options) request.options = options;
  if (Array.isArray(body.tools) && body.tools.length > 0 && body.tool_choice !== 'none') request.tools = body.tools;
  const format = formatOf(body.response_format);
  if (format !== undefined) request.format = format;
  if (typeof body.reasoning_effort === 'string') request.think = body.reasoning_effort !== 'none';
  return { ok: true, body: request };
}

/** Usage from an answer's counters, when Ollama reported them. */
export function usageFromOllama(payload: Json): Usage | null {
  const prompt = payload.prompt_eval_count;
  const completion = payload.eval_count;
  if (typeof prompt !== 'number' && typeof completion !== 'number') return null;
  return {
    promptTokens: typeof prompt === 'number' ? prompt : 0,
    completionTokens: typeof completion === 'number' ? completion : 0,
  };
}

export function mapOllamaDoneReason(reason: unknown, hasToolCalls: boolean): FinishReason {
  if (hasToolCalls) return 'tool_calls';
  return reason === 'length' ? 'length' : 'stop';
}

/** Ollama's tool calls as OpenAI's (ids made up: Ollama gives none). */
export function toolCallsFromOllama(calls: unknown, idPrefix: string, start = 0): OpenAIToolCall[] {
  const out: OpenAIToolCall[] = [];
  for (const c of Array.isArray(calls) ? calls : []) {
    const fn = obj(obj(c)?.function);
    if (!fn) continue;
    const args = fn.arguments;
    out.push({
      id: `${idPrefix}_${start + out.length}`,
      type: 'function',
      function: { name: str(fn.name), arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}) },
    });
  }
  return out;
}

/** Ollama's creation time (RFC 3339) in Unix seconds. */
export function createdOf(createdAt: unknown): number {
  const ms = typeof createdAt === 'string' ? Date.parse(createdAt) : NaN;
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : nowSeconds();
}

/** A whole `/api/chat` answer as an OpenAI chat.completion. */
export function convertOllamaChatAnswer(
  payload: unknown,
  model: string,
): { completion: OpenAIChatCompletion; usage: Usage | null } {
  const answer = obj(payload) ?? {};
  const message = obj(answer.message) ?? {};
  const created = createdOf(answer.created_at);
  const id = `chatcmpl-ollama-${created}`;
  const toolCalls = toolCallsFromOllama(message.tool_calls, 'call');
  const usage = usageFromOllama(answer);
  const completion = openAICompletion({
    id,
    model,
    created,
    text: str(message.content),
    finish: mapOllamaDoneReason(answer.done_reason, toolCalls.length > 0),
    usage,
    toolCalls,
  });
  const thinking = str(message.thinking);
  if (thinking !== '') completion.choices[0]!.message.reasoning_content = thinking;
  return { completion, usage };
}

export interface OllamaEmbedRequest {
  model: string;
  input: string | string[];
  dimensions?: number;
}

/** An OpenAI embeddings body as an Ollama `/api/embed` body. */
export function convertToOllamaEmbed(body: Json): Converted<OllamaEmbedRequest> {
  const inputs = embeddingInputs(body.input);
  if (!inputs) return { ok: false, message: 'Ollama embeds text only: input must be a string or a list of strings' };
  const request: OllamaEmbedRequest = { model: str(body.model), input: typeof body.input === 'string' ? body.input : inputs };
  if (typeof body.dimensions === 'number') request.dimensions = body.dimensions;
  return { ok: true, body: request };
}

/** An `/api/embed` answer as OpenAI's embeddings list. */
export function convertOllamaEmbedAnswer(
  payload: unknown,
  model: string,
  request?: Json,
): { completion: OpenAIEmbeddingList; usage: Usage | null } {
  const answer = obj(payload) ?? {};
  const vectors = vectorsOf(answer.embeddings);
  if (!vectors) throw new Error('Ollama answered without embeddings');
  const usage = usageFromOllama(answer);
  return { completion: embeddingList(vectors, model, usage, wantsBase64(request)), usage };
}
