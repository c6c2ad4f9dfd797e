/**
 * Gemini-format clients reaching OpenAI channels: Gemini request → OpenAI chat request, and OpenAI
 * chat.completion → Gemini answer. (The stream goes through createGeminiStreamSerializer in
 * gemini-stream.ts.) Pure functions.
 *
 * - systemInstruction → one system message; `model` turns → assistant messages (thought parts are
 *   dropped: OpenAI takes no reasoning back); functionCall → tool_calls, functionResponse → tool
 *   messages answering the earliest unanswered call of that name (or the call with the same id);
 * - inlineData: images → image_url data URLs, wav/mp3 → input_audio, other types → file parts;
 *   fileData: images (or no MIME type) → image_url with the URI; other fileData is dropped;
 * - tools: functionDeclarations only (googleSearch / codeExecution have no OpenAI counterpart);
 * - generationConfig: topK and safetySettings have no OpenAI counterpart and are dropped; a positive
 *   thinkingBudget becomes reasoning_effort (≤ 1024 low, ≤ 8192 medium, above high);
 * - thought signatures travel as in convert-to-gemini-request.ts (`extra_content.google`).
 */
import { googleStatus } from '../../../http/wire.js';
import type {
  GeminiContent,
  GeminiErrorBody,
  GeminiGenerationConfig,
  GeminiPart,
  GeminiRequest,
  GeminiResponse,
  GeminiTool,
  GeminiToolConfig,
  GeminiUsageMetadata,
} from './gemini-api-types.js';
import type {
  OpenAIChatCompletion,
  OpenAIChatMessage,
  OpenAIChatRequest,
  OpenAIContentPart,
  OpenAITool,
  OpenAIToolCall,
  OpenAIToolChoice,
  OpenAIUsage,
} from '../openai/openai-types.js';
import { geminiSchemaToJsonSchema, isJsonObject } from './gemini-schema.js';
import { effortForBudget } from '../reasoning-levels.js';
import { randomId } from './convert-gemini-response.js';
import { parseArguments } from './convert-to-gemini-request.js';
import { toGeminiFinishReason } from './map-gemini-finish-reason.js';

export interface FromGeminiOptions {
  /** The model named in the client's URL (`/v1beta/models/{model}:…`). */
  model: string;
  /** True for streamGenerateContent. */
  stream: boolean;
  newId?: () => string;
}

const partsOf = (content: GeminiContent | undefined): GeminiPart[] => (Array.isArray(content?.parts) ? content.parts : []);

const textOfParts = (parts: GeminiPart[]): string =>
  parts.map((p) => (p.thought !== true && typeof p.text === 'string' ? p.text : '')).join('');

function userPart(part: GeminiPart): OpenAIContentPart | null {
  if (typeof part.text === 'string') return part.text === '' ? null : { type: 'text', text: part.text };
  const inline = part.inlineData;
  if (inline) {
    const mime = inline.mimeType ?? 'application/octet-stream';
    if (mime.startsWith('image/')) return { type: 'image_url', image_url: { url: `data:${mime};base64,${inline.data}` } };
    if (mime === 'audio/wav' || mime === 'audio/x-wav')
      return { type: 'input_audio', input_audio: { data: inline.data, format: 'wav' } };
    if (mime === 'audio/mpeg' || mime === 'audio/mp3')
      return { type: 'input_audio', input_audio: { data: inline.data, format: 'mp3' } };
    return { type: 'file', file: { file_data: `data:${mime};base64,${inline.data}` } };
  }
  const file = part.fileData;
  if (file && (!file.mimeType || file.mimeType.startsWith('image/')))
    return { type: 'image_url', image_url: { url: file.fileUri } };
  return null;
}

function assistantMessage(parts: GeminiPart[], pending: Map<string, string[]>, newId: () => string): OpenAIChatMessage | null {
  const toolCalls: OpenAIToolCall[] = [];
  let signature: string | undefined;
  for (const part of parts) {
    const call = part.functionCall;
    if (!call || typeof call.name !== 'string') {
      if (part.thoughtSignature && signature === undefined) signature = part.thoughtSignature;
      continue;
    }
    const id = call.id ?? `call_${newId()}`;
    pending.set(call.name, [...(pending.get(call.name) ?? []), id]);
    const toolCall: OpenAIToolCall = {
      id,
      type: 'function',
      function: { name: call.name, arguments: JSON.stringify(call.args ?? {}) },
    };
    if (part.thoughtSignature) toolCall.extra_content = { google: { thought_signature: part.thoughtSignature } };
    toolCalls.push(toolCall);
  }
  const text = textOfParts(parts);
  if (text === '' && toolCalls.length === 0) return null;
  const message: OpenAIChatMessage = { role: 'assistant', content: text === '' ? null : text };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (signature !== undefined) message.extra_content = { google: { thought_signature: signature } };
  return message;
}

function userMessages(parts: GeminiPart[], pending: Map<string, string[]>, newId: () => string): OpenAIChatMessage[] {
  const messages: OpenAIChatMessage[] = [];
  for (const part of parts) {
    const response = part.functionResponse;
    if (!response || typeof response.name !== 'string') continue;
    const queue = pending.get(response.name) ?? [];
    const id = response.id && queue.includes(response.id) ? response.id : (queue[0] ?? response.id ?? `call_${newId()}`);
    pending.set(
      response.name,
      queue.filter((q) => q !== id),
    );
    messages.push({ role: 'tool', tool_call_id: id, content: JSON.stringify(response.response ?? {}) });
  }
  const content = parts.map(userPart).filter((p): p is OpenAIContentPart => p !== null);
  const only = content[0];
  if (content.length === 1 && only?.type === 'text') messages.push({ role: 'user', content: only.text });
  else if (content.length > 0) messages.push({ role: 'user', content });
  return messages;
}

function convertTools(tools: GeminiTool[]): OpenAITool[] {
  const out: OpenAITool[] = [];
  for (const tool of tools) {
    for (const declaration of tool.functionDeclarations ?? []) {
      const parameters = isJsonObject(declaration.parameters)
        ? geminiSchemaToJsonSchema(declaration.parameters)
        : (declaration.parametersJsonSchema ?? { type: 'object', properties: {} });
      const fn: OpenAITool['function'] = { name: declaration.name, parameters };
      if (declaration.description) fn.description = declaration.description;
      out.push({ type: 'function', function: fn });
    }
  }
  return out;
}

function convertToolConfig(config: GeminiToolConfig): OpenAIToolChoice | undefined {
  const calling = config.functionCallingConfig;
  if (calling?.mode === 'NONE') return 'none';
  if (calling?.mode === 'ANY') {
    const names = calling.allowedFunctionNames ?? [];
    return names.length === 1 && names[0] ? { type: 'function', function: { name: names[0] } } : 'required';
  }
  return calling?.mode ? 'auto' : undefined;
}

function applyGenerationConfig(config: GeminiGenerationConfig, out: OpenAIChatRequest): void {
  if (typeof config.temperature === 'number') out.temperature = config.temperature;
  if (typeof config.topP === 'number') out.top_p = config.topP;
  if (typeof config.maxOutputTokens === 'number') out.max_tokens = config.maxOutputTokens;
  if (Array.isArray(config.stopSequences) && config.stopSequences.length > 0) out.stop = config.stopSequences;
  if (typeof config.candidateCount === 'number') out.n = config.candidateCount;
  if (typeof config.presencePenalty === 'number') out.presence_penalty = config.presencePenalty;
  if (typeof config.frequencyPenalty === 'number') out.frequency_penalty = config.frequencyPenalty;
  if (typeof config.seed === 'number') out.seed = config.seed;
  if (config.responseMimeType === 'application/json') {
    const schema = isJsonObject(config.responseSchema)
      ? geminiSchemaToJsonSchema(config.responseSchema)
      : config.responseJsonSchema;
    out.response_format = schema ? { type: 'json_schema', json_schema: { name: 'response', schema } } : { type: 'json_object' };
  }
  const budget = config.thinkingConfig?.thinkingBudget;
  const level = String(config.thinkingConfig?.thinkingLevel ?? '').toLowerCase();
  if (typeof budget === 'number' && budget > 0) out.reasoning_effort = effortForBudget(budget);
  else if (['low', 'medium', 'high'].includes(level)) out.reasoning_effort = level;
  else if (level === 'minimal') out.reasoning_effort = 'low';
}

export function convertFromGeminiRequest(request: GeminiRequest, options: FromGeminiOptions): OpenAIChatRequest {
  const newId = options.newId ?? randomId;
  const messages: OpenAIChatMessage[] = [];
  const system = textOfParts(partsOf(request.systemInstruction));
  if (system !== '') messages.push({ role: 'system', content: system });
  const pending = new Map<string, string[]>();
  for (const content of Array.isArray(request.contents) ? request.contents : []) {
    if (content.role === 'model') {
      const message = assistantMessage(partsOf(content), pending, newId);
      if (message) messages.push(message);
    } else messages.push(...userMessages(partsOf(content), pending, newId));
  }
  const out: OpenAIChatRequest = { model: options.model, messages };
  if (options.stream) out.stream = true;
  if (Array.isArray(request.tools)) {
    const tools = convertTools(request.tools);
    if (tools.length > 0) out.tools = tools;
  }
  const choice = request.toolConfig ? convertToolConfig(request.toolConfig) : undefined;
  if (choice) out.tool_choice = choice;
  if (request.generationConfig) applyGenerationConfig(request.generationConfig, out);
  return out;
}

export function geminiUsageFromOpenAI(usage: OpenAIUsage): GeminiUsageMetadata {
  const reasoning = usage.completion_tokens_details?.reasoning_tokens ?? 0;
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
  const meta: GeminiUsageMetadata = {
    promptTokenCount: usage.prompt_tokens,
    candidatesTokenCount: usage.completion_tokens - reasoning,
    totalTokenCount: usage.prompt_tokens + usage.completion_tokens,
  };
  if (reasoning > 0) meta.thoughtsTokenCount = reasoning;
  if (cached > 0) meta.cachedContentTokenCount = cached;
  return meta;
}

function modelParts(message: OpenAIChatMessage): GeminiPart[] {
  const parts: GeminiPart[] = [];
  if (typeof message.reasoning_content === 'string' && message.reasoning_content !== '') {
    parts.push({ text: message.reasoning_content, thought: true });
  }
  const text =
    typeof message.content === 'string'
      ? message.content
      : (message.content ?? []).map((p) => (p.type === 'text' ? p.text : '')).join('');
  const signature = message.extra_content?.google?.thought_signature;
  if (text !== '' || signature) parts.push(signature ? { text, thoughtSignature: signature } : { text });
  for (const call of message.tool_calls ?? []) {
    // The id, as the stream gives it: Gemini CLI echoes it, and it may carry kept thinking (thinking-by-call.ts).
    const functionCall = {
      ...(call.id ? { id: call.id } : {}),
      name: call.function.name,
      args: parseArguments(call.function.arguments),
    };
    const part: GeminiPart = { functionCall };
    const callSignature = call.extra_content?.google?.thought_signature;
    if (callSignature) part.thoughtSignature = callSignature;
    parts.push(part);
  }
  return parts.length > 0 ? parts : [{ text: '' }];
}

/** An OpenAI chat.completion as Gemini's generateContent answer; `model` is the client's model name. */
export function convertOpenAIToGeminiResponse(completion: OpenAIChatCompletion, model: string): GeminiResponse {
  const response: GeminiResponse = {
    candidates: (completion.choices ?? []).map((choice) => {
      const finishReason = toGeminiFinishReason(choice.finish_reason);
      return {
        content: { role: 'model', parts: modelParts(choice.message) },
        ...(finishReason ? { finishReason } : {}),
        index: choice.index,
      };
    }),
    modelVersion: model,
  };
  if (completion.usage) response.usageMetadata = geminiUsageFromOpenAI(completion.usage);
  if (completion.id) response.responseId = completion.id;
  return response;
}

/** An error for a Gemini-format client, in Google's shape. */
export function geminiErrorBody(code: number, message: string): GeminiErrorBody {
  const status = googleStatus(code);
  return { error: { code, message, status } };
}
