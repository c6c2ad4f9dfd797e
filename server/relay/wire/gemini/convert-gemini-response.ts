/**
 * Gemini generateContent answer → OpenAI chat.completion, with the usage billing needs.
 *
 * - text parts → `content`; thought parts → `reasoning_content`;
 * - functionCall parts → `tool_calls` (Gemini's call id when it gives one, else a generated one;
 *   arguments JSON-stringified);
 * - inlineData image parts (image models, gemini.supported_imagine_models) → a markdown image with a
 *   data URL, `![image](data:image/png;base64,…)`, in `content` where the part stood;
 * - thought signatures → `extra_content.google.thought_signature` on the tool call, or on the message
 *   for text / thought parts (see convert-to-gemini-request.ts);
 * - a prompt blocked before any candidate (promptFeedback.blockReason) → one empty choice with
 *   finish_reason `content_filter`.
 *
 * Usage: prompt = promptTokenCount + toolUsePromptTokenCount, completion = candidatesTokenCount +
 * thoughtsTokenCount (thoughts are billed as output), cached = cachedContentTokenCount, reasoning
 * tokens = thoughtsTokenCount.
 */
import { randomUUID } from 'node:crypto';
import type { Usage } from '../../../billing/pricing.js';
import type { GeminiErrorBody, GeminiPart, GeminiResponse, GeminiUsageMetadata } from './gemini-api-types.js';
import type { OpenAIChatChoice, OpenAIChatCompletion, OpenAIToolCall, OpenAIUsage } from '../openai/openai-types.js';
import { mapGeminiFinishReason } from './map-gemini-finish-reason.js';
import { isJsonObject } from './gemini-schema.js';

export interface GeminiAnswerContext {
  /** The model name the client asked for; answers carry it rather than Gemini's modelVersion. */
  model: string;
  /** Unix seconds; now when omitted. */
  created?: number;
  /** Makes ids (completion, tool calls) when Gemini gives none; random when omitted. */
  newId?: () => string;
}

export const randomId = (): string => randomUUID().replace(/-/g, '').slice(0, 24);

export function completionId(response: Pick<GeminiResponse, 'responseId'>, newId: () => string): string {
  return `chatcmpl-${response.responseId ?? newId()}`;
}

/** A generated image as markdown the chat clients render. */
export function imageMarkdown(part: GeminiPart): string | null {
  const data = part.inlineData;
  if (!data || !data.mimeType.startsWith('image/')) return null;
  return `![image](data:${data.mimeType};base64,${data.data})`;
}

export function usageFromGemini(meta: GeminiUsageMetadata | undefined): { openai: OpenAIUsage; billing: Usage } {
  const prompt = (meta?.promptTokenCount ?? 0) + (meta?.toolUsePromptTokenCount ?? 0);
  const thoughts = meta?.thoughtsTokenCount ?? 0;
  const completion = (meta?.candidatesTokenCount ?? 0) + thoughts;
  const cached = meta?.cachedContentTokenCount ?? 0;
  return {
    openai: {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
      prompt_tokens_details: { cached_tokens: cached },
      completion_tokens_details: { reasoning_tokens: thoughts },
    },
    billing: { promptTokens: prompt, completionTokens: completion, cachedTokens: cached },
  };
}

export function toolCallFromPart(part: GeminiPart, newId: () => string): OpenAIToolCall | null {
  const call = part.functionCall;
  if (!call || typeof call.name !== 'string') return null;
  const toolCall: OpenAIToolCall = {
    id: call.id ?? `call_${newId()}`,
    type: 'function',
    function: { name: call.name, arguments: JSON.stringify(call.args ?? {}) },
  };
  if (part.thoughtSignature) toolCall.extra_content = { google: { thought_signature: part.thoughtSignature } };
  return toolCall;
}

function choiceFromParts(
  parts: GeminiPart[],
  index: number,
  finishReason: string | undefined,
  newId: () => string,
): OpenAIChatChoice {
  let content = '';
  let reasoning = '';
  let signature: string | undefined;
  const toolCalls: OpenAIToolCall[] = [];
  for (const part of parts) {
    const toolCall = toolCallFromPart(part, newId);
    if (toolCall) {
      toolCalls.push(toolCall);
      continue;
    }
    if (part.thoughtSignature && signature === undefined) signature = part.thoughtSignature;
    if (part.thought === true) reasoning += part.text ?? '';
    else if (typeof part.text === 'string') content += part.text;
    else content += imageMarkdown(part) ?? '';
  }
  const message: OpenAIChatChoice['message'] = {
    role: 'assistant',
    content: content === '' && toolCalls.length > 0 ? null : content,
  };
  if (reasoning !== '') message.reasoning_content = reasoning;
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (signature !== undefined) message.extra_content = { google: { thought_signature: signature } };
  return { index, message, finish_reason: mapGeminiFinishReason(finishReason, toolCalls.length > 0) };
}

export function convertGeminiResponse(
  response: GeminiResponse,
  context: GeminiAnswerContext,
): { completion: OpenAIChatCompletion; usage: Usage } {
  const newId = context.newId ?? randomId;
  const candidates = response.candidates ?? [];
  const choices = candidates.map((c, i) => choiceFromParts(c.content?.parts ?? [], c.index ?? i, c.finishReason, newId));
  if (choices.length === 0 && response.promptFeedback?.blockReason) {
    choices.push({ index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'content_filter' });
  }
  const usage = usageFromGemini(response.usageMetadata);
  return {
    completion: {
      id: completionId(response, newId),
      object: 'chat.completion',
      created: context.created ?? Math.floor(Date.now() / 1000),
      model: context.model,
      choices,
      usage: usage.openai,
    },
    usage: usage.billing,
  };
}

/**
 * Google's error body `{error: {code, message, status}}` (also as the first item of an array, as the
 * non-SSE stream endpoint sends it), or null when the text is something else.
 */
export function parseGeminiError(text: string): GeminiErrorBody['error'] | null {
  try {
    const parsed: unknown = JSON.parse(text);
    const root: unknown = Array.isArray(parsed) ? parsed[0] : parsed;
    const error = isJsonObject(root) ? root.error : undefined;
    if (!isJsonObject(error) || typeof error.message !== 'string') return null;
    return {
      code: typeof error.code === 'number' ? error.code : 0,
      message: error.message,
      status: typeof error.status === 'string' ? error.status : '',
    };
  } catch {
    return null;
  }
}
