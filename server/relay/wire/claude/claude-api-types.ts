/**
 * The parts of Anthropic's Messages API (`POST /v1/messages`, version 2023-06-01) the converters
 * read and write. Minimal on purpose: fields we do not use are left out, and upstream payloads are
 * read through the guards at the bottom rather than trusted to match these shapes.
 */
import type { JsonObject as JsonData } from '../openai/openai-types.js';

export const ANTHROPIC_VERSION = '2023-06-01';

export interface ClaudeTextBlock {
  type: 'text';
  text: string;
}

export type ClaudeImageSource = { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string };

export interface ClaudeImageBlock {
  type: 'image';
  source: ClaudeImageSource;
}

export interface ClaudeToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  /** Always a JSON object on the wire. */
  input: Record<string, unknown>;
}

export interface ClaudeToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content?: string | Array<ClaudeTextBlock | ClaudeImageBlock>;
  is_error?: boolean;
}

/** Extended thinking. The signature is opaque and must come back byte for byte in later turns. */
export interface ClaudeThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

export interface ClaudeRedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

export type ClaudeContentBlock =
  | ClaudeTextBlock
  | ClaudeImageBlock
  | ClaudeToolUseBlock
  | ClaudeToolResultBlock
  | ClaudeThinkingBlock
  | ClaudeRedactedThinkingBlock;

export interface ClaudeMessage {
  role: 'user' | 'assistant';
  content: string | ClaudeContentBlock[];
}

export interface ClaudeTool {
  /** Server tools (web search, bash, …) carry a versioned `type` and no input schema. */
  type?: string;
  name: string;
  description?: string;
  input_schema?: JsonData;
}

export type ClaudeToolChoice =
  | { type: 'auto' | 'any' | 'none'; disable_parallel_tool_use?: boolean }
  | { type: 'tool'; name: string; disable_parallel_tool_use?: boolean };

export type ClaudeThinkingConfig = { type: 'enabled'; budget_tokens: number } | { type: 'disabled' };

export interface ClaudeRequest {
  /** Open-ended: fields the relay does not read travel on as they are. */
  [field: string]: unknown;
  model: string;
  messages: ClaudeMessage[];
  system?: string | ClaudeTextBlock[];
  max_tokens: number;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  stop_sequences?: string[];
  stream?: boolean;
  tools?: ClaudeTool[];
  tool_choice?: ClaudeToolChoice;
  thinking?: ClaudeThinkingConfig;
  metadata?: { user_id?: string };
}

export interface ClaudeUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

export type ClaudeStopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'pause_turn' | 'refusal';

export type ClaudeResponseBlock = ClaudeTextBlock | ClaudeToolUseBlock | ClaudeThinkingBlock | ClaudeRedactedThinkingBlock;

export interface ClaudeResponse {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: ClaudeResponseBlock[];
  stop_reason: ClaudeStopReason | null;
  stop_sequence: string | null;
  usage: ClaudeUsage;
}

export interface ClaudeErrorBody {
  type: 'error';
  error: { type: string; message: string };
}

/** The `delta` of a `content_block_delta` event. */
export type ClaudeBlockDelta =
  | { type: 'text_delta'; text: string }
  | { type: 'input_json_delta'; partial_json: string }
  | { type: 'thinking_delta'; thinking: string }
  | { type: 'signature_delta'; signature: string };

/** Server-sent events of a streamed answer; each is sent as `event: <type>` with this JSON as data. */
export type ClaudeStreamEvent =
  | { type: 'message_start'; message: ClaudeResponse }
  | { type: 'content_block_start'; index: number; content_block: ClaudeResponseBlock }
  | { type: 'content_block_delta'; index: number; delta: ClaudeBlockDelta }
  | { type: 'content_block_stop'; index: number }
  | {
      type: 'message_delta';
      delta: { stop_reason: ClaudeStopReason | null; stop_sequence: string | null };
      usage: Partial<ClaudeUsage>;
    }
  | { type: 'message_stop' }
  | { type: 'ping' }
  | ClaudeErrorBody;

export type JsonObject = Record<string, unknown>;

/** Guards for reading JSON of unknown shape. */
export const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
export const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
