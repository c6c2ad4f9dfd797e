/**
 * The other direction, for Claude-format clients (Claude Code and the Anthropic SDKs) served by
 * OpenAI-format channels: Claude request → OpenAI chat request, OpenAI answer → Claude message, and
 * StreamEvents → Claude's server-sent events.
 */
import type { Usage } from '../../../billing/pricing.js';
import type { FinishReason, StreamEvent } from '../events.js';
import type {
  OpenAIChatMessage,
  OpenAIChatRequest,
  OpenAIContentPart,
  OpenAITool,
  OpenAIThinkingBlock,
  OpenAIToolCall,
  JsonObject as OpenAIJson,
} from '../openai/openai-types.js';
import { usageOf } from '../openai/usage.js';
import {
  isObject,
  str,
  type ClaudeContentBlock,
  type ClaudeRequest,
  type ClaudeResponse,
  type ClaudeResponseBlock,
  type ClaudeStreamEvent,
  type ClaudeUsage,
} from './claude-api-types.js';
import { parseToolArguments } from './convert-to-claude-messages.js';
import { toClaudeStopReason } from './map-claude-finish-reason.js';
import { effortForBudget } from '../reasoning-levels.js';

const textOfBlocks = (blocks: unknown): string =>
  typeof blocks === 'string'
    ? blocks
    : (Array.isArray(blocks) ? blocks : [])
        .filter((b): b is { type: 'text'; text: string } => isObject(b) && b.type === 'text' && typeof b.text === 'string')
        .map((b) => b.text)
        .join('\n');

function imagePart(block: ClaudeContentBlock): OpenAIContentPart | null {
  if (block.type !== 'image' || !isObject(block.source)) return null;
  const source = block.source;
  const url =
    source.type === 'base64' ? `data:${source.media_type};base64,${source.data}` : source.type === 'url' ? source.url : '';
  return url ? { type: 'image_url', image_url: { url } } : null;
}

/** Tool results become `tool` messages, placed before the rest of their user turn as OpenAI requires. */
function userMessages(blocks: ClaudeContentBlock[]): OpenAIChatMessage[] {
  const out: OpenAIChatMessage[] = [];
  const parts: OpenAIContentPart[] = [];
  for (const block of blocks) {
    if (block.type === 'tool_result') {
      // OpenAI tool messages carry text only: images in a result are left out.
      out.push({ role: 'tool', tool_call_id: block.tool_use_id, content: textOfBlocks(block.content) });
    } else if (block.type === 'text' && block.text !== '') {
      parts.push({ type: 'text', text: block.text });
    } else {
      const image = imagePart(block);
      if (image) parts.push(image);
    }
  }
  // Plain text goes as a string: several OpenAI-compatible providers take no content arrays.
  if (parts.length > 0 && parts.every((p) => p.type === 'text')) {
    out.push({ role: 'user', content: parts.map((p) => (p.type === 'text' ? p.text : '')).join('\n') });
  } else if (parts.length > 0) {
    out.push({ role: 'user', content: parts });
  }
  return out;
}

function assistantMessage(blocks: ClaudeContentBlock[]): OpenAIChatMessage {
  let text = '';
  let reasoning = '';
  const thinkingBlocks: OpenAIThinkingBlock[] = [];
  const toolCalls: OpenAIToolCall[] = [];
  for (const block of blocks) {
    if (block.type === 'text') text += block.text;
    else if (block.type === 'thinking') {
      reasoning += block.thinking;
      thinkingBlocks.push({ type: 'thinking', thinking: block.thinking, signature: block.signature });
    } else if (block.type === 'redacted_thinking') thinkingBlocks.push({ type: 'redacted_thinking', data: block.data });
    else if (block.type === 'tool_use') {
      toolCalls.push({
        id: block.id,
        type: 'function',
        function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) },
      });
    }
  }
  const message: OpenAIChatMessage = { role: 'assistant', content: text === '' && toolCalls.length > 0 ? null : text };
  if (reasoning !== '') message.reasoning_content = reasoning;
  if (thinkingBlocks.length > 0) message.thinking_blocks = thinkingBlocks;
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  return message;
}

/**
 * A Claude request as OpenAI's. Thinking becomes reasoning_effort by its budget (reasoning-levels.ts;
 * adaptive thinking as medium), for the converters of other protocols (Gemini's thinkingConfig) and
 * OpenAI's reasoning models; a model that does not reason gets none (fit-to-model.ts).
 */
export function convertFromClaudeRequest(request: ClaudeRequest): OpenAIChatRequest {
  const messages: OpenAIChatMessage[] = [];
  const system = textOfBlocks(request.system);
  if (system !== '') messages.push({ role: 'system', content: system });
  for (const message of request.messages) {
    const blocks: ClaudeContentBlock[] =
      typeof message.content === 'string'
        ? [{ type: 'text', text: message.content }]
        : (Array.isArray(message.content) ? message.content : []).filter(isObject);
    if (message.role === 'user') messages.push(...userMessages(blocks));
    else messages.push(assistantMessage(blocks));
  }
  const out: OpenAIChatRequest = { model: request.model, messages };
  if (typeof request.max_tokens === 'number') out.max_tokens = request.max_tokens;
  if (typeof request.temperature === 'number') out.temperature = request.temperature;
  if (typeof request.top_p === 'number') out.top_p = request.top_p;
  if (request.stop_sequences && request.stop_sequences.length > 0) out.stop = request.stop_sequences;
  if (request.stream) {
    out.stream = true;
    out.stream_options = { include_usage: true };
  }
  // Server tools (web search, bash, …) have no schema and no OpenAI equivalent.
  const tools: OpenAITool[] = (request.tools ?? [])
    .filter((t) => isObject(t.input_schema))
    .map((t) => ({
      type: 'function',
      function: { name: t.name, ...(t.description ? { description: t.description } : {}), parameters: t.input_schema },
    }));
  if (tools.length > 0) {
    out.tools = tools;
    const choice = request.tool_choice;
    if (choice?.type === 'auto') out.tool_choice = 'auto';
    else if (choice?.type === 'any') out.tool_choice = 'required';
    else if (choice?.type === 'none') out.tool_choice = 'none';
    else if (choice?.type === 'tool') out.tool_choice = { type: 'function', function: { name: choice.name } };
    if (choice && choice.type !== 'none' && choice.disable_parallel_tool_use) out.parallel_tool_calls = false;
  }
  const thinking = request.thinking as { type?: string; budget_tokens?: unknown } | undefined;
  if (thinking?.type === 'enabled' && typeof thinking.budget_tokens === 'number')
    out.reasoning_effort = effortForBudget(thinking.budget_tokens);
  else if (thinking?.type === 'adaptive') out.reasoning_effort = 'medium';
  if (request.metadata?.user_id) out.user = request.metadata.user_id;
  // Structured output: `output_config.format` (or the beta's `output_format`) as OpenAI's json_schema.
  const config = isObject(request.output_config) ? request.output_config : {};
  const format = isObject(config.format) ? config.format : isObject(request.output_format) ? request.output_format : null;
  if (format?.type === 'json_schema' && isObject(format.schema))
    out.response_format = { type: 'json_schema', json_schema: { name: 'response', schema: format.schema as OpenAIJson } };
  return out;
}

/** Our usage in Claude's shape: Claude's input count leaves the cached part out. */
export function toClaudeUsage(usage: Usage | null): ClaudeUsage {
  const cached = usage?.cachedTokens ?? 0;
  const written = usage?.cacheWriteTokens ?? 0;
  return {
    input_tokens: Math.max(0, (usage?.promptTokens ?? 0) - cached - written),
    output_tokens: usage?.completionTokens ?? 0,
    cache_creation_input_tokens: written,
    cache_read_input_tokens: cached,
  };
}

/** An OpenAI chat.completion as a Claude message. */
export function convertToClaudeResponse(payload: unknown, opts: { model?: string } = {}): ClaudeResponse {
  const root = isObject(payload) ? payload : {};
  const choice = Array.isArray(root.choices) && isObject(root.choices[0]) ? root.choices[0] : {};
  const message = isObject(choice.message) ? choice.message : {};
  const content: ClaudeResponseBlock[] = [];
  // Signed thinking blocks go back exactly as the client received them earlier.
  if (Array.isArray(message.thinking_blocks) && message.thinking_blocks.length > 0) {
    content.push(...(message.thinking_blocks.filter(isObject) as unknown as OpenAIThinkingBlock[]));
  } else if (typeof message.reasoning_content === 'string' && message.reasoning_content !== '') {
    content.push({ type: 'thinking', thinking: message.reasoning_content, signature: '' });
  }
  const text = textOfBlocks(message.content);
  if (text !== '') content.push({ type: 'text', text });
  for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
    if (!isObject(call)) continue;
    const fn = isObject(call.function) ? call.function : {};
    content.push({ type: 'tool_use', id: str(call.id), name: str(fn.name), input: parseToolArguments(str(fn.arguments)) });
  }
  return {
    id: str(root.id),
    type: 'message',
    role: 'assistant',
    model: opts.model ?? str(root.model),
    content,
    stop_reason: toClaudeStopReason(str(choice.finish_reason)),
    stop_sequence: null,
    usage: toClaudeUsage(usageOf(payload)),
  };
}

const sseEvent = (event: ClaudeStreamEvent): string => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

export interface ClaudeSseSerializer {
  /** The SSE text for one event (empty when it produces none yet). */
  push(event: StreamEvent): string;
  /** Closes the open block, then message_delta (stop reason, usage) and message_stop. */
  end(): string;
}

type OpenBlock = { kind: 'text' } | { kind: 'thinking'; signed: boolean } | { kind: 'tool'; callIndex: number };

/**
 * Claude has a single answer per message: events of other choices are left out. `promptTokens` is
 * the prompt counted locally: message_start announces it when the upstream's usage has not come yet
 * (OpenAI and most others report usage last), and message_delta carries the upstream's figure.
 */
export function createClaudeSseSerializer(
  opts: { id?: string; model?: string; promptTokens?: number } = {},
): ClaudeSseSerializer {
  let started = false;
  let upstream = { id: '', model: '' };
  let failed = false;
  let open: OpenBlock | null = null;
  let nextIndex = 0;
  const toolCalls = new Set<number>();
  let usage: Usage | null = null;
  let finish: FinishReason | null = null;
  const estimated: Usage | null = opts.promptTokens ? { promptTokens: opts.promptTokens, completionTokens: 0 } : null;

  const start = (): string => {
    if (started) return '';
    started = true;
    const message: ClaudeResponse = {
      id: opts.id ?? (upstream.id || `msg_${Date.now().toString(36)}`),
      type: 'message',
      role: 'assistant',
      model: opts.model ?? upstream.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: toClaudeUsage(usage ?? estimated),
    };
    return sseEvent({ type: 'message_start', message });
  };
  const close = (): string => {
    if (!open) return '';
    open = null;
    return sseEvent({ type: 'content_block_stop', index: nextIndex - 1 });
  };
  const openBlock = (block: OpenBlock, content: ClaudeResponseBlock): string => {
    const text = start() + close();
    open = block;
    return text + sseEvent({ type: 'content_block_start', index: nextIndex++, content_block: content });
  };
  const delta = (d: Extract<ClaudeStreamEvent, { type: 'content_block_delta' }>['delta']): string =>
    sseEvent({ type: 'content_block_delta', index: nextIndex - 1, delta: d });

  const reasoning = (event: Extract<StreamEvent, { type: 'reasoning' }>): string => {
    let text = '';
    if (open?.kind !== 'thinking' || (open.signed && event.text !== '')) {
      text += openBlock({ kind: 'thinking', signed: false }, { type: 'thinking', thinking: '', signature: '' });
    }
    if (event.text !== '') text += delta({ type: 'thinking_delta', thinking: event.text });
    if (event.signature !== undefined && open?.kind === 'thinking') {
      open.signed = true;
      text += delta({ type: 'signature_delta', signature: event.signature });
    }
    return text;
  };

  const toolCall = (event: Extract<StreamEvent, { type: 'tool_call' }>): string => {
    let text = '';
    if (open?.kind !== 'tool' || open.callIndex !== event.callIndex) {
      // Claude blocks cannot reopen: a late piece of an earlier call has nowhere to go.
      if (toolCalls.has(event.callIndex)) return '';
      toolCalls.add(event.callIndex);
      const block = { type: 'tool_use' as const, id: event.id ?? `toolu_${event.callIndex}`, name: event.name ?? '', input: {} };
      text += openBlock({ kind: 'tool', callIndex: event.callIndex }, block);
    }
    if (event.arguments !== '') text += delta({ type: 'input_json_delta', partial_json: event.arguments });
    return text;
  };

  return {
    push(event) {
      if (failed) return '';
      switch (event.type) {
        case 'start':
          // message_start waits for the first content, so that a usage the upstream sent with it is announced.
          upstream = { id: event.id, model: event.model };
          return '';
        case 'text':
          if (event.index !== 0 || event.text === '') return '';
          return (
            (open?.kind === 'text' ? '' : openBlock({ kind: 'text' }, { type: 'text', text: '' })) +
            delta({ type: 'text_delta', text: event.text })
          );
        case 'reasoning':
          return event.index === 0 ? reasoning(event) : '';
        case 'tool_call':
          return event.index === 0 ? toolCall(event) : '';
        case 'usage':
          usage = event.usage;
          return '';
        case 'finish':
          if (event.index === 0) finish = event.reason;
          return '';
        case 'error':
          failed = true;
          return start() + sseEvent({ type: 'error', error: { type: 'api_error', message: event.message } });
      }
    },
    end() {
      if (failed) return '';
      const stop = toClaudeStopReason(finish ?? (toolCalls.size > 0 ? 'tool_calls' : 'stop'));
      return (
        start() +
        close() +
        sseEvent({
          type: 'message_delta',
          delta: { stop_reason: stop, stop_sequence: null },
          usage: toClaudeUsage(usage ?? estimated),
        }) +
        sseEvent({ type: 'message_stop' })
      );
    },
  };
}
