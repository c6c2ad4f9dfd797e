/**
 * OpenAI chat request → Gemini generateContent request. Pure: settings come in as a parameter.
 *
 * Thought signatures ride on the OpenAI side the way Google's own OpenAI-compatible endpoint carries
 * them, so clients that already echo that field keep working:
 * - a signature given on a functionCall part → `tool_calls[i].extra_content.google.thought_signature`;
 * - a signature given on a text or thought part → the message's `extra_content.google.thought_signature`.
 * On the next turn both are put back untouched: the first onto that functionCall part, the second
 * onto the message's text part (or its first part when it has no text). Clients that drop the
 * extension still get the first back: the relay restores it from the tool-call id it handed out
 * (server/relay/wire/gemini/tool-call-signatures.ts). A step whose signature is lost gets Google's skip value.
 *
 * Images: a data URL becomes inlineData; any other URL becomes fileData with the MIME type guessed
 * from the path's extension, else `defaultImageMimeType` (image/jpeg). The Gemini and Vertex
 * adapters fetch http(s) links first (inline-images.ts, through the SSRF-safe fetcher), so only
 * file URIs Gemini holds itself (gs://, File API) arrive here as links.
 */
import type {
  GeminiContent,
  GeminiFunctionDeclaration,
  GeminiGenerationConfig,
  GeminiPart,
  GeminiRequest,
  GeminiThinkingConfig,
  GeminiTool,
  GeminiToolConfig,
} from './gemini-api-types.js';
import type { JsonObject, JsonValue } from '../openai/openai-types.js';
import type {
  OpenAIChatMessage,
  OpenAIChatRequest,
  OpenAIContentPart,
  OpenAITool,
  OpenAIToolChoice,
} from '../openai/openai-types.js';
import { cleanSchemaForGemini, hasNoProperties, isJsonObject } from './gemini-schema.js';
import { budgetForEffort, clampGeminiBudget, geminiThinkingLevel } from '../reasoning-levels.js';
import { apiVersionFor, safetySettingsFor, type GeminiApiVersion, type GeminiSettings } from './gemini-settings.js';

export interface GeminiRequestPlan {
  body: GeminiRequest;
  /** The model to put in the URL (a `-thinking` / `-nothinking` suffix taken off). */
  model: string;
  apiVersion: GeminiApiVersion;
}

/** Gemini 2.5 Flash's largest thinking budget; a larger one is refused. */
export const GEMINI_THINKING_BUDGET_CAP = 24576;

const MIME_BY_EXTENSION: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  heic: 'image/heic',
  heif: 'image/heif',
  pdf: 'application/pdf',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  mp4: 'video/mp4',
};

export function guessMimeType(url: string): string | undefined {
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    // Not an absolute URL: use it as a path.
  }
  const ext = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  return ext ? MIME_BY_EXTENSION[ext] : undefined;
}

function mediaPart(url: string, defaultMime: string): GeminiPart {
  const data = /^data:([^;,]*)((?:;[^;,]*)*),(.*)$/s.exec(url);
  if (data) {
    const base64 = (data[2] ?? '').includes(';base64');
    const body = data[3] ?? '';
    return {
      inlineData: {
        mimeType: data[1] || defaultMime,
        data: base64 ? body : Buffer.from(decodeURIComponent(body)).toString('base64'),
      },
    };
  }
  return { fileData: { mimeType: guessMimeType(url) ?? defaultMime, fileUri: url } };
}

function textOf(content: OpenAIChatMessage['content']): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p) => (p.type === 'text' && typeof p.text === 'string' ? p.text : '')).join('');
}

function userPart(part: OpenAIContentPart, defaultMime: string): GeminiPart | null {
  switch (part.type) {
    case 'text':
      return typeof part.text === 'string' && part.text !== '' ? { text: part.text } : null;
    case 'image_url':
      return typeof part.image_url?.url === 'string' ? mediaPart(part.image_url.url, defaultMime) : null;
    case 'input_audio': {
      const format = part.input_audio?.format === 'mp3' ? 'mpeg' : (part.input_audio?.format ?? 'wav');
      return { inlineData: { mimeType: `audio/${format}`, data: part.input_audio?.data ?? '' } };
    }
    case 'file':
      return typeof part.file?.file_data === 'string' ? mediaPart(part.file.file_data, 'application/pdf') : null;
    default:
      return null;
  }
}

function userParts(content: OpenAIChatMessage['content'], defaultMime: string): GeminiPart[] {
  if (typeof content === 'string') return content === '' ? [] : [{ text: content }];
  if (!Array.isArray(content)) return [];
  return content.map((p) => userPart(p, defaultMime)).filter((p): p is GeminiPart => p !== null);
}

/** Tool-call arguments as an object ({} when they are not a JSON object). */
export function parseArguments(text: string): JsonObject {
  try {
    const value: unknown = JSON.parse(text);
    return isJsonObject(value) ? value : {};
  } catch {
    return {};
  }
}

function modelParts(message: OpenAIChatMessage, toolNames: Map<string, string>): GeminiPart[] {
  const parts: GeminiPart[] = [];
  const text = textOf(message.content);
  if (text !== '') parts.push({ text });
  for (const call of message.tool_calls ?? []) {
    if (typeof call.function?.name !== 'string') continue;
    toolNames.set(call.id, call.function.name);
    const part: GeminiPart = { functionCall: { name: call.function.name, args: parseArguments(call.function.arguments ?? '') } };
    const signature = call.extra_content?.google?.thought_signature;
    if (typeof signature === 'string') part.thoughtSignature = signature;
    parts.push(part);
  }
  const signature = message.extra_content?.google?.thought_signature;
  const first = parts[0];
  if (typeof signature === 'string' && first && first.thoughtSignature === undefined) first.thoughtSignature = signature;
  return parts;
}

/**
 * Google's documented value for a function call whose signature cannot be recovered (a conversation
 * begun elsewhere, or a signature the gateway no longer holds): accepted, without the lost reasoning.
 */
export const SKIP_THOUGHT_SIGNATURE = 'skip_thought_signature_validator';

/** Gemini 3 and later refuse a step whose first function call comes back without a signature. */
function validatesSignatures(model: string): boolean {
  const generation = /^gemini-(\d+)/.exec(model)?.[1];
  return generation !== undefined && Number(generation) >= 3;
}

function withSkipValues(contents: GeminiContent[]): void {
  for (const content of contents) {
    if (content.role !== 'model') continue;
    const first = content.parts.find((p) => p.functionCall);
    if (first && first.thoughtSignature === undefined) first.thoughtSignature = SKIP_THOUGHT_SIGNATURE;
  }
}

/** A tool result as Gemini's functionResponse.response, which must be an object. */
function toolResponse(content: OpenAIChatMessage['content']): JsonObject {
  const text = textOf(content);
  try {
    const value = JSON.parse(text) as JsonValue;
    return isJsonObject(value) ? value : { content: value };
  } catch {
    return { content: text };
  }
}

function convertMessages(
  messages: OpenAIChatMessage[],
  defaultMime: string,
): Pick<GeminiRequest, 'contents' | 'systemInstruction'> {
  const toolNames = new Map<string, string>();
  const contents: GeminiContent[] = [];
  const system: GeminiPart[] = [];
  for (const message of messages) {
    if (!isJsonObject(message)) continue;
    if (message.role === 'system' || message.role === 'developer') {
      const text = textOf(message.content);
      if (text !== '') system.push({ text });
    } else if (message.role === 'assistant') {
      const parts = modelParts(message, toolNames);
      if (parts.length > 0) contents.push({ role: 'model', parts });
    } else if (message.role === 'tool') {
      const id = message.tool_call_id ?? '';
      const name = toolNames.get(id) ?? (message.name || id || 'tool');
      const part: GeminiPart = { functionResponse: { name, response: toolResponse(message.content) } };
      // Answers to parallel calls go back together, in one turn.
      const last = contents.at(-1);
      if (last?.role === 'user' && last.parts.every((p) => p.functionResponse)) last.parts.push(part);
      else contents.push({ role: 'user', parts: [part] });
    } else {
      const parts = userParts(message.content, defaultMime);
      if (parts.length > 0) contents.push({ role: 'user', parts });
    }
  }
  return system.length > 0 ? { contents, systemInstruction: { parts: system } } : { contents };
}

function convertTools(tools: OpenAITool[]): GeminiTool[] | undefined {
  const declarations: GeminiFunctionDeclaration[] = [];
  for (const tool of tools) {
    if (tool.type !== 'function' || typeof tool.function?.name !== 'string') continue;
    const declaration: GeminiFunctionDeclaration = { name: tool.function.name };
    if (tool.function.description) declaration.description = tool.function.description;
    if (isJsonObject(tool.function.parameters)) {
      const parameters = cleanSchemaForGemini(tool.function.parameters);
      if (!hasNoProperties(parameters)) declaration.parameters = parameters;
    }
    declarations.push(declaration);
  }
  return declarations.length > 0 ? [{ functionDeclarations: declarations }] : undefined;
}

function convertToolChoice(choice: OpenAIToolChoice): GeminiToolConfig | undefined {
  if (choice === 'auto') return { functionCallingConfig: { mode: 'AUTO' } };
  if (choice === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (choice === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  if (choice !== null && typeof choice === 'object' && typeof choice.function?.name === 'string') {
    return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.function.name] } };
  }
  return undefined;
}

/**
 * Thinking. A reasoning_effort the client set (OpenAI's, or converted from Claude's thinking) always
 * goes: Gemini 3 as a thinking level, Gemini 2.5 as the level's budget (reasoning-levels.ts), with
 * thought summaries asked for unless the effort is `none`. With gemini.thinking_adapter_enabled, a
 * `-nothinking` model turns thinking off (budget 0) and a `-thinking` model asks for thought
 * summaries with a budget of max_tokens × percentage, capped at 24576 (the model's own choice
 * without max_tokens).
 */
function thinkingFor(request: OpenAIChatRequest, settings: GeminiSettings): { model: string; config?: GeminiThinkingConfig } {
  let model = request.model;
  const adapter = settings.thinkingAdapterEnabled && !settings.thinkingSuffixExempt?.includes(model);
  if (adapter && model.endsWith('-nothinking'))
    return { model: model.slice(0, -'-nothinking'.length), config: { thinkingBudget: 0 } };
  const suffixed = adapter && model.endsWith('-thinking');
  if (suffixed) model = model.slice(0, -'-thinking'.length);
  const effort = request.reasoning_effort;
  const budget = budgetForEffort(effort);
  if (budget !== null) {
    const includeThoughts = budget > 0 || model.startsWith('gemini-3');
    if (model.startsWith('gemini-3')) {
      const level = geminiThinkingLevel(model, effort) ?? 'high';
      return { model, config: { includeThoughts, thinkingLevel: level } };
    }
    const clamped = clampGeminiBudget(model, budget);
    return { model, config: clamped > 0 ? { includeThoughts: true, thinkingBudget: clamped } : { thinkingBudget: clamped } };
  }
  if (!suffixed) return { model };
  const config: GeminiThinkingConfig = { includeThoughts: true };
  const maxTokens = request.max_completion_tokens ?? request.max_tokens;
  if (typeof maxTokens === 'number' && maxTokens > 0) {
    config.thinkingBudget = Math.min(GEMINI_THINKING_BUDGET_CAP, Math.floor(maxTokens * settings.thinkingBudgetPercentage));
  }
  return { model, config };
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function generationConfigFor(request: OpenAIChatRequest, thinking: GeminiThinkingConfig | undefined, image: boolean) {
  const config: GeminiGenerationConfig = {};
  const set = <K extends keyof GeminiGenerationConfig>(key: K, value: GeminiGenerationConfig[K] | undefined) => {
    if (value !== undefined) config[key] = value;
  };
  set('temperature', num(request.temperature));
  set('topP', num(request.top_p));
  set('topK', num(request.top_k));
  set('maxOutputTokens', num(request.max_completion_tokens) ?? num(request.max_tokens));
  set('candidateCount', num(request.n));
  set('presencePenalty', num(request.presence_penalty));
  set('frequencyPenalty', num(request.frequency_penalty));
  set('seed', num(request.seed));
  const stop = typeof request.stop === 'string' ? [request.stop] : request.stop;
  if (Array.isArray(stop) && stop.length > 0) config.stopSequences = stop.filter((s) => typeof s === 'string');
  const format = request.response_format;
  if (format?.type === 'json_object') config.responseMimeType = 'application/json';
  if (format?.type === 'json_schema') {
    config.responseMimeType = 'application/json';
    const schema = format.json_schema?.schema;
    if (isJsonObject(schema)) config.responseSchema = cleanSchemaForGemini(schema);
  }
  if (image) config.responseModalities = ['TEXT', 'IMAGE'];
  if (thinking) config.thinkingConfig = thinking;
  return Object.keys(config).length > 0 ? config : undefined;
}

export function convertToGeminiRequest(
  request: OpenAIChatRequest,
  settings: GeminiSettings,
  options: { defaultImageMimeType?: string } = {},
): GeminiRequestPlan {
  const thinking = thinkingFor(request, settings);
  const body: GeminiRequest = convertMessages(
    Array.isArray(request.messages) ? request.messages : [],
    options.defaultImageMimeType ?? 'image/jpeg',
  );
  if (validatesSignatures(thinking.model)) withSkipValues(body.contents);
  const tools = Array.isArray(request.tools) ? convertTools(request.tools) : undefined;
  if (tools) body.tools = tools;
  const toolConfig = request.tool_choice !== undefined ? convertToolChoice(request.tool_choice) : undefined;
  if (toolConfig) body.toolConfig = toolConfig;
  const generationConfig = generationConfigFor(request, thinking.config, settings.imageModels.includes(thinking.model));
  if (generationConfig) body.generationConfig = generationConfig;
  body.safetySettings = safetySettingsFor(settings.safetySettings);
  return { body, model: thinking.model, apiVersion: apiVersionFor(thinking.model, settings.versionSettings) };
}
