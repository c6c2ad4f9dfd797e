/**
 * Small pure pieces shared by the providers whose chat protocols carry plain text turns (Baidu,
 * Tencent, iFlytek, PaLM): message text out of OpenAI content, the system prompt split off,
 * consecutive turns of one role joined, and whole answers built as OpenAI chat.completions.
 */
import type { Usage } from '../../../billing/pricing.js';
import type { FinishReason } from '../../wire/events.js';
import { toOpenAIUsage } from '../../wire/openai/openai-chunks.js';
import { type OpenAIChatCompletion, type OpenAIToolCall } from '../../wire/openai/openai-types.js';

export type Json = Record<string, unknown>;

export const obj = (v: unknown): Json | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null);
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
export const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);

/** The text of an OpenAI message content: a string, or the text parts joined (images are left out). */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const out: string[] = [];
  for (const part of content) {
    const p = obj(part);
    if (p && p.type === 'text' && typeof p.text === 'string') out.push(p.text);
  }
  return out.join('\n');
}

export interface TextTurn {
  role: 'user' | 'assistant';
  content: string;
}

/**
 * OpenAI messages as a system prompt and alternating user/assistant turns: system and developer
 * messages are joined into the system prompt, tool results count as user turns, and consecutive
 * turns of one role are joined with a blank line (providers that insist on alternation refuse
 * them otherwise).
 */
export function toTextTurns(messages: unknown): { system: string; turns: TextTurn[] } {
  const system: string[] = [];
  const turns: TextTurn[] = [];
  for (const m of Array.isArray(messages) ? messages : []) {
    const message = obj(m);
    if (!message) continue;
    const role = message.role;
    const text = textOf(message.content);
    if (role === 'system' || role === 'developer') {
      if (text !== '') system.push(text);
      continue;
    }
    const turnRole = role === 'assistant' ? 'assistant' : 'user';
    const last = turns.at(-1);
    if (last && last.role === turnRole) last.content = last.content === '' ? text : `${last.content}\n\n${text}`;
    else turns.push({ role: turnRole, content: text });
  }
  return { system: system.join('\n\n'), turns };
}

/** `max_tokens`, or `max_completion_tokens` for newer clients, when it is a positive integer. */
export function maxTokensOf(body: Json): number | undefined {
  const v = body.max_tokens ?? body.max_completion_tokens;
  return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined;
}

/** `stop` as a list. */
export function stopList(stop: unknown): string[] | undefined {
  if (typeof stop === 'string') return stop === '' ? undefined : [stop];
  if (Array.isArray(stop)) {
    const list = stop.filter((s): s is string => typeof s === 'string' && s !== '');
    return list.length > 0 ? list : undefined;
  }
  return undefined;
}

export interface WholeAnswer {
  id: string;
  model: string;
  created: number;
  text: string;
  finish: FinishReason;
  usage: Usage | null;
  toolCalls?: OpenAIToolCall[];
}

/** A whole answer as an OpenAI chat.completion. */
export function openAICompletion(answer: WholeAnswer): OpenAIChatCompletion {
  const message: OpenAIChatCompletion['choices'][number]['message'] = { role: 'assistant', content: answer.text };
  if (answer.toolCalls && answer.toolCalls.length > 0) message.tool_calls = answer.toolCalls;
  const completion: OpenAIChatCompletion = {
    id: answer.id,
    object: 'chat.completion',
    created: answer.created,
    model: answer.model,
    choices: [{ index: 0, message, finish_reason: answer.finish }],
  };
  if (answer.usage) completion.usage = toOpenAIUsage(answer.usage);
  return completion;
}

/** Unix seconds now, for answers whose upstream gives no time. */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);
