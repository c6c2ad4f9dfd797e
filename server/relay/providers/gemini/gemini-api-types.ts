/**
 * Wire shapes of Google's Gemini API (generateContent, streamGenerateContent, embedContent,
 * batchEmbedContents, errors) and the OpenAI chat / embeddings shapes the Gemini converters read and
 * write. Minimal: only the fields the converters use; everything optional that Google may omit.
 */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

// ---- Gemini -----------------------------------------------------------------------------------

export interface GeminiPart {
  text?: string;
  /** A thought summary (only with thinkingConfig.includeThoughts). */
  thought?: boolean;
  /** Opaque; must go back exactly as received on the same part in the next turn. */
  thoughtSignature?: string;
  inlineData?: { mimeType: string; data: string };
  fileData?: { mimeType?: string; fileUri: string };
  functionCall?: { id?: string; name: string; args?: JsonObject };
  functionResponse?: { id?: string; name: string; response: JsonObject };
}

export interface GeminiContent {
  /** Omitted on systemInstruction; 'function' is an older spelling of a function-response turn. */
  role?: 'user' | 'model' | 'function';
  parts: GeminiPart[];
}

export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  /** OpenAPI-subset schema (see gemini-schema.ts for what is kept). */
  parameters?: JsonObject;
  /** Full JSON Schema, accepted by newer API versions instead of `parameters`. */
  parametersJsonSchema?: JsonObject;
}

export interface GeminiTool {
  functionDeclarations?: GeminiFunctionDeclaration[];
  googleSearch?: JsonObject;
  codeExecution?: JsonObject;
}

export type GeminiFunctionCallingMode = 'AUTO' | 'ANY' | 'NONE' | 'VALIDATED';

export interface GeminiToolConfig {
  functionCallingConfig?: { mode?: GeminiFunctionCallingMode; allowedFunctionNames?: string[] };
}

export interface GeminiThinkingConfig {
  /** 0 turns thinking off, -1 lets the model decide. */
  thinkingBudget?: number;
  includeThoughts?: boolean;
}

export interface GeminiGenerationConfig {
  temperature?: number;
  topP?: number;
  topK?: number;
  maxOutputTokens?: number;
  stopSequences?: string[];
  candidateCount?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  seed?: number;
  responseMimeType?: string;
  responseSchema?: JsonObject;
  responseJsonSchema?: JsonObject;
  responseModalities?: string[];
  thinkingConfig?: GeminiThinkingConfig;
}

export interface GeminiSafetySetting {
  category: string;
  threshold: string;
}

export interface GeminiRequest {
  contents: GeminiContent[];
  systemInstruction?: GeminiContent;
  tools?: GeminiTool[];
  toolConfig?: GeminiToolConfig;
  generationConfig?: GeminiGenerationConfig;
  safetySettings?: GeminiSafetySetting[];
  cachedContent?: string;
}

export interface GeminiUsageMetadata {
  promptTokenCount?: number;
  /** Visible output only; thoughts are counted apart. */
  candidatesTokenCount?: number;
  thoughtsTokenCount?: number;
  /** Part of promptTokenCount served from a cache. */
  cachedContentTokenCount?: number;
  /** Prompt tokens added by tool use (search grounding, code execution). */
  toolUsePromptTokenCount?: number;
  totalTokenCount?: number;
}

export interface GeminiCandidate {
  content?: GeminiContent;
  finishReason?: string;
  index?: number;
}

export interface GeminiResponse {
  candidates?: GeminiCandidate[];
  promptFeedback?: { blockReason?: string };
  usageMetadata?: GeminiUsageMetadata;
  modelVersion?: string;
  responseId?: string;
}

export interface GeminiErrorBody {
  error: { code: number; message: string; status: string; details?: JsonValue[] };
}

export interface GeminiEmbedContentRequest {
  /** `models/{model}`; required inside batchEmbedContents requests. */
  model?: string;
  content: GeminiContent;
  taskType?: string;
  title?: string;
  outputDimensionality?: number;
}

export interface GeminiBatchEmbedContentsRequest {
  requests: GeminiEmbedContentRequest[];
}

export interface GeminiEmbedContentResponse {
  embedding: { values: number[] };
}

export interface GeminiBatchEmbedContentsResponse {
  embeddings: Array<{ values: number[] }>;
}

// ---- OpenAI (the side of the relay the Gemini converters face) --------------------------------

/** Google's own OpenAI-compatible extension carrying thought signatures (see convert-to-gemini-request.ts). */
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

export interface OpenAIChatMessage {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  content?: string | OpenAIContentPart[] | null;
  name?: string;
  tool_calls?: OpenAIToolCall[];
  tool_call_id?: string;
  reasoning_content?: string | null;
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
  temperature?: number;
  top_p?: number;
  /** Not OpenAI's, but sent by clients that know Gemini. */
  top_k?: number;
  max_tokens?: number;
  max_completion_tokens?: number;
  stop?: string | string[];
  n?: number;
  presence_penalty?: number;
  frequency_penalty?: number;
  seed?: number;
  tools?: OpenAITool[];
  tool_choice?: OpenAIToolChoice;
  response_format?: OpenAIResponseFormat;
  reasoning_effort?: string;
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
  finish_reason: string | null;
}

export interface OpenAIChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: OpenAIChatChoice[];
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
