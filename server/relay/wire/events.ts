/**
 * The relay's internal stream vocabulary. Each provider's stream parser turns its wire events into
 * these; each client format (OpenAI chat chunks, Claude Messages events, Gemini chunks) is
 * serialized from them. Converters are pure functions: no HTTP context, no global settings.
 */
import type { Usage } from '../../billing/pricing.js';

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'error';

export type StreamEvent =
  /** The answer begins (once). */
  | { type: 'start'; id: string; model: string; created: number }
  /** Visible text of choice `index`. */
  | { type: 'text'; index: number; text: string }
  /**
   * Reasoning ("thinking") text; `signature` is passed through untouched when the provider gives one.
   * `redacted` is a Claude redacted_thinking block's data: kept for the call it leads to
   * (thinking-by-call.ts), which takes the event out of the stream before any serializer.
   */
  | { type: 'reasoning'; index: number; text: string; signature?: string; redacted?: string }
  /**
   * A piece of a tool call: `id` and `name` on its first piece, `arguments` JSON text appended;
   * `signature`, on the first piece, is the thought signature Gemini put on the call.
   */
  | { type: 'tool_call'; index: number; callIndex: number; id?: string; name?: string; arguments: string; signature?: string }
  /** Usage so far (the last one wins). */
  | { type: 'usage'; usage: Usage }
  | { type: 'finish'; index: number; reason: FinishReason }
  | { type: 'error'; message: string };
