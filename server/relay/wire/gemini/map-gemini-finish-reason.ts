import type { FinishReason } from '../events.js';

/** Gemini stops that mean "the output was withheld or cut by a filter". */
const FILTERED = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY']);

/**
 * Gemini's finishReason in OpenAI's terms, or null while the candidate is still going. STOP becomes
 * `tool_calls` when the candidate called functions (Gemini has no reason of its own for that).
 * OTHER, LANGUAGE, MALFORMED_FUNCTION_CALL and unknown values end the answer as a plain `stop`.
 */
export function mapGeminiFinishReason(reason: string | undefined, hasToolCalls: boolean): FinishReason | null {
  if (!reason) return null;
  if (reason === 'MAX_TOKENS') return 'length';
  if (FILTERED.has(reason)) return 'content_filter';
  return hasToolCalls ? 'tool_calls' : 'stop';
}

/** The other way, for Gemini-format clients served by OpenAI channels. */
export function toGeminiFinishReason(reason: string | null | undefined): string | undefined {
  switch (reason) {
    case null:
    case undefined:
      return undefined;
    case 'length':
      return 'MAX_TOKENS';
    case 'content_filter':
      return 'SAFETY';
    case 'error':
      return 'OTHER';
    default:
      return 'STOP';
  }
}
