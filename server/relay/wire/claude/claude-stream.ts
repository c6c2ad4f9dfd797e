/**
 * Claude's streamed answer (server-sent events) → the relay's StreamEvents. Stateful: it remembers
 * which content block is which (text, thinking, tool call) and the usage reported so far.
 */
import type { Usage } from '../../../billing/pricing.js';
import type { StreamEvent } from '../events.js';
import type { SseEvent } from '../sse.js';
import { isObject, str, type JsonObject } from './claude-api-types.js';
import { claudeErrorOf, usageFromClaude } from './convert-claude-response.js';
import { mapClaudeFinishReason } from './map-claude-finish-reason.js';

export interface ClaudeStreamParserOptions {
  /** Unix seconds for the start event (Claude streams carry no time). */
  created?: number;
}

export interface ClaudeStreamParser {
  push(event: SseEvent): StreamEvent[];
  /** Usage so far: input and cache counts from message_start, updated by each message_delta. */
  usage(): Usage | null;
}

type Block = { kind: 'text' | 'thinking' | 'other' } | { kind: 'tool'; callIndex: number; argumentsSent: boolean };

const USAGE_FIELDS = ['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'] as const;

export function createClaudeStreamParser(opts: ClaudeStreamParserOptions = {}): ClaudeStreamParser {
  const blocks = new Map<number, Block>();
  let nextCall = 0;
  let rawUsage: JsonObject | null = null;

  /** message_delta counts are cumulative and may leave fields out (or null): keep the last known value. */
  const mergeUsage = (usage: unknown): StreamEvent[] => {
    if (!isObject(usage)) return [];
    rawUsage = { ...(rawUsage ?? {}) };
    for (const field of USAGE_FIELDS) if (typeof usage[field] === 'number') rawUsage[field] = usage[field];
    return [{ type: 'usage', usage: usageFromClaude(rawUsage) }];
  };

  const blockStart = (index: number, block: JsonObject): StreamEvent[] => {
    switch (block.type) {
      case 'text':
        blocks.set(index, { kind: 'text' });
        return str(block.text) === '' ? [] : [{ type: 'text', index: 0, text: str(block.text) }];
      case 'thinking':
        blocks.set(index, { kind: 'thinking' });
        return str(block.thinking) === '' ? [] : [{ type: 'reasoning', index: 0, text: str(block.thinking) }];
      case 'tool_use': {
        const callIndex = nextCall++;
        blocks.set(index, { kind: 'tool', callIndex, argumentsSent: false });
        return [{ type: 'tool_call', index: 0, callIndex, id: str(block.id), name: str(block.name), arguments: '' }];
      }
      case 'redacted_thinking':
        // No client is shown it; it rides only to be kept with the tool call that follows.
        blocks.set(index, { kind: 'other' });
        return [{ type: 'reasoning', index: 0, text: '', redacted: str(block.data) }];
      default:
        // Server-tool blocks are not the client's.
        blocks.set(index, { kind: 'other' });
        return [];
    }
  };

  const blockDelta = (index: number, delta: JsonObject): StreamEvent[] => {
    const block = blocks.get(index);
    switch (delta.type) {
      case 'text_delta':
        return str(delta.text) === '' ? [] : [{ type: 'text', index: 0, text: str(delta.text) }];
      case 'thinking_delta':
        return str(delta.thinking) === '' ? [] : [{ type: 'reasoning', index: 0, text: str(delta.thinking) }];
      case 'signature_delta':
        return [{ type: 'reasoning', index: 0, text: '', signature: str(delta.signature) }];
      case 'input_json_delta': {
        const piece = str(delta.partial_json);
        if (block?.kind !== 'tool' || piece === '') return [];
        block.argumentsSent = true;
        return [{ type: 'tool_call', index: 0, callIndex: block.callIndex, arguments: piece }];
      }
      default:
        return [];
    }
  };

  const blockStop = (index: number): StreamEvent[] => {
    const block = blocks.get(index);
    // A tool without parameters streams no input: OpenAI clients still expect JSON arguments.
    if (block?.kind === 'tool' && !block.argumentsSent) {
      return [{ type: 'tool_call', index: 0, callIndex: block.callIndex, arguments: '{}' }];
    }
    return [];
  };

  return {
    push(event) {
      let data: unknown;
      try {
        data = JSON.parse(event.data);
      } catch {
        return [{ type: 'error', message: `unreadable upstream event: ${event.data.slice(0, 200)}` }];
      }
      if (!isObject(data)) return [];
      const index = typeof data.index === 'number' ? data.index : -1;
      switch (str(data.type) || event.event) {
        case 'message_start': {
          const message = isObject(data.message) ? data.message : {};
          const start: StreamEvent = {
            type: 'start',
            id: str(message.id),
            model: str(message.model),
            created: opts.created ?? Math.floor(Date.now() / 1000),
          };
          return [start, ...mergeUsage(message.usage)];
        }
        case 'content_block_start':
          return isObject(data.content_block) ? blockStart(index, data.content_block) : [];
        case 'content_block_delta':
          return isObject(data.delta) ? blockDelta(index, data.delta) : [];
        case 'content_block_stop':
          return blockStop(index);
        case 'message_delta': {
          const delta = isObject(data.delta) ? data.delta : {};
          const out: StreamEvent[] = [];
          if (typeof delta.stop_reason === 'string')
            out.push({ type: 'finish', index: 0, reason: mapClaudeFinishReason(delta.stop_reason) });
          return [...out, ...mergeUsage(data.usage)];
        }
        case 'error': {
          const error = claudeErrorOf(data);
          return [{ type: 'error', message: error ? `${error.type}: ${error.message}` : 'upstream error' }];
        }
        default:
          // ping, message_stop, and event types added after this was written.
          return [];
      }
    },
    usage: () => (rawUsage ? usageFromClaude(rawUsage) : null),
  };
}
