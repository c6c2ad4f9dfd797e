/**
 * OpenAI's chat-completions and embeddings wire shapes: the relay's lingua franca. Every client
 * format is converted to and from these, and every provider with a protocol of its own converts
 * from and to them. Minimal: the fields the relay reads or writes; clients may send more.
 *
 * Thinking signatures (Claude) travel on the OpenAI side in a `thinking_blocks` array on the
 * assistant message — `{type:'thinking', thinking, signature}` or `{type:'redacted_thinking', data}`
 * — next to the plain `reasoning_content` text. Gemini's thought signatures ride in
 * `extra_content.google.thought_signature`, Google's own extension of the OpenAI shape.
 */
import type { FinishReason } from '../events.js';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** Google's OpenAI-compatible extension carrying thought signatures (see convert-to-gemini-request.ts). */
export interface GoogleExtraContent {
  google?: { thought_signature?: string };
}

export type OpenAIContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string; detail?: string } }
  | { type: 'input_audio'; input_audio: { data: string; format: string } }
  | { type: 'file'; file: { file_data?: string; file_id?: string; filename?: string } };

export interface OpenAIToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
  extra_content?: GoogleExtraContent;
}

export type OpenAIThinkingBlock =
  { type: 'thinking'; thinking: string; signature: string } | { type: 'redacted_thinking'; data: string };

export interface OpenAIChatMessage {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  content?: string | OpenAIContentPart[] | null;
  name?: string;
  tool_calls?: OpenAIToolCall[];
  tool_call_id?: string;
  reasoning_content?: string | null;
  thinking_blocks?: OpenAIThinkingBlock[];
  extra_content?: GoogleExtraContent;
}

export interface OpenAITool {
  type: 'function';
  function: { name: string; description?: string; parameters?: JsonObject; strict?: boolean };
}

export type OpenAIToolChoice = 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };

export type OpenAIResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; json_schema: { name: string; description?: string; schema?: JsonObject; strict?: boolean } };

export interface OpenAIChatRequest {
  model: string;
  messages: OpenAIChatMessage[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
  top_p?: number;
  /** Not OpenAI's, but sent by clients that target several providers. */
  top_k?: number;
  stop?: string | string[];
  n?: number;
  presence_penalty?: number;
  frequency_penalty?: number;
  seed?: number;
  tools?: OpenAITool[];
  tool_choice?: OpenAIToolChoice;
  parallel_tool_calls?: boolean;
  response_format?: OpenAIResponseFormat;
  reasoning_effort?: string;
  user?: string;
  /** Open-ended: clients send fields the relay does not read, and they travel on as they are. */
  [field: string]: unknown;
}

export interface OpenAIUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number };
  completion_tokens_details?: { reasoning_tokens?: number };
}

export interface OpenAIChatChoice {
  index: number;
  message: OpenAIChatMessage & { role: 'assistant' };
  finish_reason: FinishReason | null;
}

export interface OpenAIChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: OpenAIChatChoice[];
  usage?: OpenAIUsage;
}

export interface OpenAIChunkDelta {
  role?: 'assistant';
  content?: string;
  reasoning_content?: string;
  thinking_blocks?: OpenAIThinkingBlock[];
  tool_calls?: Array<{
    index: number;
    id?: string;
    type?: 'function';
    function: { name?: string; arguments: string };
    extra_content?: GoogleExtraContent;
  }>;
}

export interface OpenAIChatChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: Array<{ index: number; delta: OpenAIChunkDelta; finish_reason: FinishReason | null }>;
  usage?: OpenAIUsage;
}

export interface OpenAIEmbeddingsRequest {
  model: string;
  input: string | string[] | number[] | number[][];
  dimensions?: number;
  encoding_format?: 'float' | 'base64';
}

export interface OpenAIEmbeddingsResponse {
  object: 'list';
  data: Array<{ object: 'embedding'; index: number; embedding: number[] }>;
  model: string;
  usage: { prompt_tokens: number; total_tokens: number };
}
