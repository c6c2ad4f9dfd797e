import type { FinishReason } from '../events.js';
import type { ClaudeStopReason } from './claude-api-types.js';

/**
 * Claude's `stop_reason` as an OpenAI finish reason. `pause_turn` (a server tool paused a long turn)
 * ends the answer the client sees, so it reads as a normal stop; unknown reasons do too.
 */
export function mapClaudeFinishReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case 'max_tokens':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    default:
      return 'stop';
  }
}

/** The other way, for Claude-format clients served by OpenAI-format channels. */
export function toClaudeStopReason(reason: FinishReason | string | null | undefined): ClaudeStopReason {
  switch (reason) {
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'content_filter':
      return 'refusal';
    default:
      return 'end_turn';
  }
}
