/**
 * The serializer that turns the relay's StreamEvents into `chat.completion.chunk` server-sent events
 * for OpenAI-format clients (the shapes are in ./openai-types.ts). A client that sends a message's
 * `thinking_blocks` back unchanged gets its thinking blocks to the provider untouched.
 */
import type { Usage } from '../../../billing/pricing.js';
import type { FinishReason, StreamEvent } from '../events.js';
import type { OpenAIChatChunk, OpenAIChunkDelta, OpenAIUsage } from './openai-types.js';

/** Our billing usage in OpenAI's shape (cache writes are part of the prompt, as OpenAI counts them). */
export function toOpenAIUsage(usage: Usage): OpenAIUsage {
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.promptTokens + usage.completionTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedTokens ?? 0 },
  };
}

const sseData = (payload: unknown): string => `data: ${JSON.stringify(payload)}\n\n`;

export interface OpenAIChunkSerializerOptions {
  /** The client asked for `stream_options.include_usage`: a last chunk with `choices: []` and usage. */
  includeUsage: boolean;
  /** Overrides the model the stream names (e.g. the name the client asked for). */
  model?: string;
  /** Used when the stream has no start event. */
  id?: string;
  created?: number;
}

export interface OpenAIChunkSerializer {
  /** The SSE text for one event (empty when the event produces no chunk). */
  push(event: StreamEvent): string;
  /** The usage chunk when asked for, then `data: [DONE]`. */
  end(): string;
}

export function createOpenAIChunkSerializer(opts: OpenAIChunkSerializerOptions): OpenAIChunkSerializer {
  let id = opts.id ?? `chatcmpl-${Date.now().toString(36)}`;
  let model = opts.model ?? '';
  let created = opts.created ?? Math.floor(Date.now() / 1000);
  let usage: Usage | null = null;
  const roleSent = new Set<number>();
  /** Reasoning text of the thinking block in progress, per choice: sent again whole with its signature. */
  const thinking = new Map<number, string>();
  const calls = new Map<number, Set<number>>();

  const chunk = (index: number, delta: OpenAIChunkDelta, finish: FinishReason | null = null): string => {
    if (!roleSent.has(index)) {
      roleSent.add(index);
      delta = { role: 'assistant', ...delta };
    }
    const body: OpenAIChatChunk = {
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [{ index, delta, finish_reason: finish }],
    };
    return sseData(body);
  };

  return {
    push(event) {
      switch (event.type) {
        case 'start':
          id = opts.id ?? event.id;
          model = opts.model ?? event.model;
          created = opts.created ?? event.created;
          return chunk(0, { content: '' });
        case 'text':
          return event.text === '' ? '' : chunk(event.index, { content: event.text });
        case 'reasoning': {
          const delta: OpenAIChunkDelta = {};
          const sofar = (thinking.get(event.index) ?? '') + event.text;
          if (event.text !== '') delta.reasoning_content = event.text;
          if (event.signature !== undefined) {
            delta.thinking_blocks = [{ type: 'thinking', thinking: sofar, signature: event.signature }];
            thinking.delete(event.index);
          } else {
            thinking.set(event.index, sofar);
          }
          return Object.keys(delta).length === 0 ? '' : chunk(event.index, delta);
        }
        case 'tool_call': {
          const seen = calls.get(event.index) ?? new Set<number>();
          calls.set(event.index, seen);
          const first = !seen.has(event.callIndex);
          seen.add(event.callIndex);
          const fn: { name?: string; arguments: string } = { arguments: event.arguments };
          if (event.name !== undefined) fn.name = event.name;
          const piece: NonNullable<OpenAIChunkDelta['tool_calls']>[number] = { index: event.callIndex, function: fn };
          if (event.id !== undefined) piece.id = event.id;
          if (first) piece.type = 'function';
          // Where Google's own OpenAI-compatible endpoint puts it.
          if (event.signature !== undefined) piece.extra_content = { google: { thought_signature: event.signature } };
          return chunk(event.index, { tool_calls: [piece] });
        }
        case 'usage':
          usage = event.usage;
          return '';
        case 'finish':
          return chunk(event.index, {}, event.reason);
        case 'error':
          return sseData({ error: { message: event.message, type: 'upstream_error', param: null, code: null } });
      }
    },
    end() {
      let text = '';
      if (opts.includeUsage && usage) {
        const body: OpenAIChatChunk = {
          id,
          object: 'chat.completion.chunk',
          created,
          model,
          choices: [],
          usage: toOpenAIUsage(usage),
        };
        text += sseData(body);
      }
      return text + 'data: [DONE]\n\n';
    },
  };
}
