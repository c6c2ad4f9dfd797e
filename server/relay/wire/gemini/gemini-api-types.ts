/**
 * Wire shapes of Google's Gemini API (generateContent, streamGenerateContent, embedContent,
 * batchEmbedContents, errors). Minimal: only the fields the converters use; everything optional that
 * Google may omit. The OpenAI side they convert to and from is in relay/wire/openai/openai-types.ts.
 */
import type { JsonObject, JsonValue } from '../openai/openai-types.js';

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
  /** Gemini 3: minimal (Flash only), low, medium (Flash only), high; not together with a budget. */
  thinkingLevel?: string;
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
  /** Open-ended: fields the relay does not read travel on as they are. */
  [field: string]: unknown;
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
  [field: string]: unknown;
  /** `models/{model}`; required inside batchEmbedContents requests. */
  model?: string;
  content: GeminiContent;
  taskType?: string;
  title?: string;
  outputDimensionality?: number;
}

export interface GeminiBatchEmbedContentsRequest {
  [field: string]: unknown;
  requests: GeminiEmbedContentRequest[];
}

export interface GeminiEmbedContentResponse {
  embedding: { values: number[] };
}

export interface GeminiBatchEmbedContentsResponse {
  embeddings: Array<{ values: number[] }>;
}
