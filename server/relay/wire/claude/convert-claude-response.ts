/** Claude Messages answer → OpenAI chat.completion, with the usage billing needs. */
import type { Usage } from '../../../billing/pricing.js';
import type { OpenAIChatCompletion, OpenAIChatMessage, OpenAIThinkingBlock, OpenAIToolCall } from '../openai/openai-types.js';
import { toOpenAIUsage } from '../openai/openai-chunks.js';
import { count, isObject, str } from './claude-api-types.js';
import { mapClaudeFinishReason } from './map-claude-finish-reason.js';

/**
 * Claude's usage as ours. Claude's `input_tokens` leaves out the cached part: the prompt is
 * input + cache reads + cache writes, and the two cache counts are billed at their own ratios.
 */
export function usageFromClaude(usage: unknown): Usage {
  const u = isObject(usage) ? usage : {};
  const cachedTokens = count(u.cache_read_input_tokens);
  const cacheWriteTokens = count(u.cache_creation_input_tokens);
  return {
    promptTokens: count(u.input_tokens) + cachedTokens + cacheWriteTokens,
    completionTokens: count(u.output_tokens),
    cachedTokens,
    cacheWriteTokens,
  };
}

/** `{type:'error', error:{type, message}}` from Claude, or null. */
export function claudeErrorOf(payload: unknown): { type: string; message: string } | null {
  if (!isObject(payload) || !isObject(payload.error)) return null;
  const type = str(payload.error.type) || 'api_error';
  return { type, message: str(payload.error.message) || type };
}

export interface ConvertClaudeResponseOptions {
  /** Unix seconds for `created` (Claude answers carry no time). */
  created?: number;
  /** Overrides the model the answer names (e.g. the name the client asked for). */
  model?: string;
}

export interface ConvertedClaudeResponse {
  body: OpenAIChatCompletion;
  usage: Usage;
}

export function convertClaudeResponse(payload: unknown, opts: ConvertClaudeResponseOptions = {}): ConvertedClaudeResponse {
  const root = isObject(payload) ? payload : {};
  let text = '';
  let reasoning = '';
  const thinkingBlocks: OpenAIThinkingBlock[] = [];
  const toolCalls: OpenAIToolCall[] = [];
  for (const block of Array.isArray(root.content) ? root.content : []) {
    if (!isObject(block)) continue;
    switch (block.type) {
      case 'text':
        text += str(block.text);
        break;
      case 'thinking':
        reasoning += str(block.thinking);
        thinkingBlocks.push({ type: 'thinking', thinking: str(block.thinking), signature: str(block.signature) });
        break;
      case 'redacted_thinking':
        thinkingBlocks.push({ type: 'redacted_thinking', data: str(block.data) });
        break;
      case 'tool_use':
        toolCalls.push({
          id: str(block.id),
          type: 'function',
          function: { name: str(block.name), arguments: JSON.stringify(isObject(block.input) ? block.input : {}) },
        });
        break;
    }
  }

  const message: OpenAIChatMessage & { role: 'assistant' } = {
    role: 'assistant',
    content: text === '' && toolCalls.length > 0 ? null : text,
  };
  if (reasoning !== '') message.reasoning_content = reasoning;
  if (thinkingBlocks.length > 0) message.thinking_blocks = thinkingBlocks;
  if (toolCalls.length > 0) message.tool_calls = toolCalls;

  const usage = usageFromClaude(root.usage);
  const body: OpenAIChatCompletion = {
    id: str(root.id),
    object: 'chat.completion',
    created: opts.created ?? Math.floor(Date.now() / 1000),
    model: opts.model ?? str(root.model),
    choices: [{ index: 0, message, finish_reason: mapClaudeFinishReason(str(root.stop_reason)) }],
    usage: toOpenAIUsage(usage),
  };
  return { body, usage };
}
