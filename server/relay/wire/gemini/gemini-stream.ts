/**
 * Gemini's stream (streamGenerateContent?alt=sse) both ways:
 * - `createGeminiStreamParser`: each SSE `data` is a whole GenerateContentResponse chunk → the
 *   relay's StreamEvents (start once, text and reasoning deltas, each functionCall as one whole tool
 *   call, usage whenever usageMetadata changes, finish once per candidate);
 * - `createGeminiStreamSerializer`: StreamEvents (from any channel) → Gemini SSE chunks for
 *   Gemini-format clients.
 *
 * Thought signatures in the event union: a functionCall part's rides on its `tool_call` event; a
 * `reasoning` event carries a thought part's, and a text part's is sent as a `reasoning` event with
 * empty text just after that text, which the serializer puts back on the next part.
 */
import type { Usage } from '../../../billing/pricing.js';
import type { FinishReason, StreamEvent } from '../events.js';
import type { SseEvent } from '../sse.js';
import type { GeminiErrorBody, GeminiPart, GeminiResponse, GeminiUsageMetadata } from './gemini-api-types.js';
import {
  completionId,
  imageMarkdown,
  randomId,
  toolCallFromPart,
  usageFromGemini,
  type GeminiAnswerContext,
} from './convert-gemini-response.js';
import { parseArguments } from './convert-to-gemini-request.js';
import { mapGeminiFinishReason, toGeminiFinishReason } from './map-gemini-finish-reason.js';
import { isJsonObject } from './gemini-schema.js';

export interface GeminiStreamParser {
  push(event: SseEvent): StreamEvent[];
}

function partEvents(part: GeminiPart, index: number, nextCall: () => number, newId: () => string): StreamEvent[] {
  const signature = part.thoughtSignature;
  const call = toolCallFromPart(part, newId);
  if (call) {
    const event: StreamEvent = {
      type: 'tool_call',
      index,
      callIndex: nextCall(),
      id: call.id,
      name: call.function.name,
      arguments: call.function.arguments,
    };
    if (signature) event.signature = signature;
    return [event];
  }
  if (part.thought === true) {
    const text = part.text ?? '';
    if (signature) return [{ type: 'reasoning', index, text, signature }];
    return text !== '' ? [{ type: 'reasoning', index, text }] : [];
  }
  const text = typeof part.text === 'string' ? part.text : (imageMarkdown(part) ?? '');
  const events: StreamEvent[] = text !== '' ? [{ type: 'text', index, text }] : [];
  if (signature) events.push({ type: 'reasoning', index, text: '', signature });
  return events;
}

export function createGeminiStreamParser(context: GeminiAnswerContext): GeminiStreamParser {
  const newId = context.newId ?? randomId;
  let started = false;
  let lastUsage = '';
  const calls = new Map<number, number>();
  const finished = new Set<number>();
  const finish = (index: number, reason: FinishReason | null, out: StreamEvent[]) => {
    if (reason === null || finished.has(index)) return;
    finished.add(index);
    out.push({ type: 'finish', index, reason });
  };
  return {
    push(event) {
      if (event.data.trim() === '') return [];
      let chunk: unknown;
      try {
        chunk = JSON.parse(event.data);
      } catch {
        return [{ type: 'error', message: 'Gemini sent a stream chunk that is not JSON' }];
      }
      if (!isJsonObject(chunk)) return [];
      if (isJsonObject(chunk.error)) {
        const message = chunk.error.message;
        return [{ type: 'error', message: typeof message === 'string' ? message : 'Gemini stream error' }];
      }
      const response = chunk as GeminiResponse;
      const out: StreamEvent[] = [];
      if (!started) {
        started = true;
        const created = context.created ?? Math.floor(Date.now() / 1000);
        out.push({ type: 'start', id: completionId(response, newId), model: context.model, created });
      }
      // Usage before the chunk's parts: a converted stream can announce the prompt's count with them.
      if (response.usageMetadata) {
        const usage = usageFromGemini(response.usageMetadata).billing;
        const key = JSON.stringify(usage);
        if (key !== lastUsage) {
          lastUsage = key;
          out.push({ type: 'usage', usage });
        }
      }
      for (const [position, candidate] of (response.candidates ?? []).entries()) {
        const index = candidate.index ?? position;
        const nextCall = () => {
          const n = calls.get(index) ?? 0;
          calls.set(index, n + 1);
          return n;
        };
        for (const part of candidate.content?.parts ?? []) out.push(...partEvents(part, index, nextCall, newId));
        finish(index, mapGeminiFinishReason(candidate.finishReason, (calls.get(index) ?? 0) > 0), out);
      }
      if (!response.candidates?.length && response.promptFeedback?.blockReason) finish(0, 'content_filter', out);
      return out;
    },
  };
}

export interface GeminiStreamSerializer {
  /** SSE text for one event (often empty: tool calls, usage and finish wait for their chunk). */
  push(event: StreamEvent): string;
  /** The last chunk(s): pending tool calls, finish reasons and usage. */
  end(): string;
}

export function geminiUsageFromBilling(usage: Usage): GeminiUsageMetadata {
  const meta: GeminiUsageMetadata = {
    promptTokenCount: usage.promptTokens,
    candidatesTokenCount: usage.completionTokens,
    totalTokenCount: usage.promptTokens + usage.completionTokens,
  };
  if (usage.cachedTokens) meta.cachedContentTokenCount = usage.cachedTokens;
  return meta;
}

type PendingCall = { id?: string; name: string; args: string; signature?: string };

const frame = (body: GeminiResponse | GeminiErrorBody): string => `data: ${JSON.stringify(body)}\r\n\r\n`;

/**
 * Gemini sends each function call whole, so tool-call pieces are gathered until the candidate
 * finishes (or text follows). Finish reasons and usage go out together in the last chunk, as Gemini
 * does, because OpenAI channels send usage after the finish.
 */
export function createGeminiStreamSerializer(context: { model: string }): GeminiStreamSerializer {
  let responseId: string | undefined;
  let usage: Usage | undefined;
  const signatures = new Map<number, string>();
  const calls = new Map<number, Map<number, PendingCall>>();
  const finishes = new Map<number, FinishReason>();

  const signed = (index: number, part: GeminiPart): GeminiPart => {
    const signature = signatures.get(index);
    if (signature === undefined || part.thoughtSignature) return part;
    signatures.delete(index);
    return { ...part, thoughtSignature: signature };
  };
  const chunk = (index: number, parts: GeminiPart[]): string => {
    const body: GeminiResponse = { candidates: [{ content: { role: 'model', parts }, index }], modelVersion: context.model };
    if (responseId) body.responseId = responseId;
    return frame(body);
  };
  const flushCalls = (index: number): string => {
    const pending = calls.get(index);
    if (!pending || pending.size === 0) return '';
    calls.delete(index);
    const parts = [...pending.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, call]) =>
        signed(index, {
          functionCall: { ...(call.id ? { id: call.id } : {}), name: call.name, args: parseArguments(call.args) },
          ...(call.signature ? { thoughtSignature: call.signature } : {}),
        }),
      );
    return chunk(index, parts);
  };

  return {
    push(event) {
      switch (event.type) {
        case 'start':
          responseId = event.id;
          return '';
        case 'text':
          return flushCalls(event.index) + chunk(event.index, [signed(event.index, { text: event.text })]);
        case 'reasoning': {
          if (event.text === '' && event.signature) {
            signatures.set(event.index, event.signature);
            return '';
          }
          const part: GeminiPart = { text: event.text, thought: true };
          if (event.signature) part.thoughtSignature = event.signature;
          return flushCalls(event.index) + chunk(event.index, [signed(event.index, part)]);
        }
        case 'tool_call': {
          const pending = calls.get(event.index) ?? new Map<number, PendingCall>();
          calls.set(event.index, pending);
          const call = pending.get(event.callIndex) ?? { name: '', args: '' };
          if (event.id) call.id = event.id;
          if (event.name) call.name = event.name;
          if (event.signature) call.signature = event.signature;
          call.args += event.arguments;
          pending.set(event.callIndex, call);
          return '';
        }
        case 'usage':
          usage = event.usage;
          return '';
        case 'finish':
          finishes.set(event.index, event.reason);
          return flushCalls(event.index);
        case 'error':
          return frame({ error: { code: 500, message: event.message, status: 'INTERNAL' } });
      }
    },
    end() {
      let out = '';
      for (const index of [...calls.keys()]) out += flushCalls(index);
      const indexes = [...new Set([...finishes.keys(), ...signatures.keys()])].sort((a, b) => a - b);
      if (indexes.length === 0 && !usage) return out;
      const body: GeminiResponse = { modelVersion: context.model };
      if (indexes.length > 0) {
        body.candidates = indexes.map((index) => {
          const finishReason = toGeminiFinishReason(finishes.get(index));
          return {
            content: { role: 'model', parts: [signed(index, { text: '' })] },
            ...(finishReason ? { finishReason } : {}),
            index,
          };
        });
      }
      if (usage) body.usageMetadata = geminiUsageFromBilling(usage);
      if (responseId) body.responseId = responseId;
      finishes.clear();
      usage = undefined;
      return out + frame(body);
    },
  };
}
