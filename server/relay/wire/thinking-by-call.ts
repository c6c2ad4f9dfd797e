/**
 * Claude's thinking blocks kept for clients that drop them. With thinking on, Claude refuses a tool
 * step whose assistant turn does not start with the signed thinking it was made with, yet Gemini CLI
 * sends no thoughts back and OpenAI chat agents keep no `thinking_blocks`. As with Gemini's thought
 * signatures (gemini/tool-call-signatures.ts), what every client sends back is the tool call's id:
 * a converted answer's tool call that follows thinking gets `call_th1_<key>`, its blocks kept in the
 * KV store under the key, and a later request that echoes the id without thinking gets them back
 * on its assistant message. A key expired or never issued restores nothing, and fit-to-model turns
 * thinking off for that step instead of sending a history Claude refuses.
 */
import type { KvStore } from '../../cache/kv.js';
import type { StreamEvent } from './events.js';
import type { OpenAIThinkingBlock } from './openai/openai-types.js';

const PREFIX = 'call_th1_';
const SEALED = /^call_th1_([A-Za-z0-9_-]{22})$/;
export const THINKING_KV = 'thinking-blocks:';

/** What keeps a value in the KV store and hands out the id that names it (SignatureSealer). */
export interface Keeper {
  keep(prefix: string, kvPrefix: string, value: string): string;
  /** False for clients that send thinking back themselves (Responses clients, as encrypted reasoning): nothing kept. */
  readonly keepsThinking: boolean;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const hasBlocks = (m: Json): boolean => Array.isArray(m.thinking_blocks) && m.thinking_blocks.length > 0;

/** A chat.completion message's first tool call renamed to carry the message's thinking blocks (in place). */
export function sealThinking(message: unknown, keeper: Keeper): void {
  if (!keeper.keepsThinking || !isObject(message) || !hasBlocks(message) || !Array.isArray(message.tool_calls)) return;
  const call = message.tool_calls.find(isObject);
  if (call && typeof call.id === 'string' && !call.id.startsWith('call_gs1_'))
    call.id = keeper.keep(PREFIX, THINKING_KV, JSON.stringify(message.thinking_blocks));
}

/**
 * Stream events with the thinking seen before a tool call sealed into that call's id. Thinking
 * arrives as reasoning pieces, each block closed by its signature (a block never signed is not
 * kept); redacted blocks as events of their own, taken out of the stream here.
 */
export function thinkingSealer(keeper: Keeper): (events: StreamEvent[]) => StreamEvent[] {
  let blocks: OpenAIThinkingBlock[] = [];
  let text = '';
  return (events) =>
    events.flatMap((e): StreamEvent | StreamEvent[] => {
      if (e.type === 'reasoning' && e.redacted !== undefined) {
        blocks.push({ type: 'redacted_thinking', data: e.redacted });
        return [];
      }
      if (e.type === 'reasoning') {
        text += e.text;
        if (e.signature) {
          blocks.push({ type: 'thinking', thinking: text, signature: e.signature });
          text = '';
        }
        return e;
      }
      if (e.type !== 'tool_call' || !e.id || blocks.length === 0 || e.signature || !keeper.keepsThinking) return e;
      const id = keeper.keep(PREFIX, THINKING_KV, JSON.stringify(blocks));
      blocks = [];
      return { ...e, id };
    });
}

const keyOf = (id: unknown): string | null => (typeof id === 'string' ? (SEALED.exec(id)?.[1] ?? null) : null);

function blocksFrom(stored: string | null): OpenAIThinkingBlock[] | null {
  if (!stored) return null;
  try {
    const value: unknown = JSON.parse(stored);
    return Array.isArray(value) && value.every(isObject) ? (value as OpenAIThinkingBlock[]) : null;
  } catch {
    return null;
  }
}

/** The chat body with the kept thinking put back on each assistant message that echoes a sealed id without thinking. */
export async function restoreThinking<B extends Json>(body: B, kv: KvStore): Promise<B> {
  if (!Array.isArray(body.messages)) return body;
  const wanted = (m: unknown): string[] =>
    isObject(m) && m.role === 'assistant' && !hasBlocks(m) && Array.isArray(m.tool_calls)
      ? m.tool_calls.map((c) => keyOf(isObject(c) ? c.id : null)).filter((k): k is string => k !== null)
      : [];
  const keys = [...new Set(body.messages.flatMap(wanted))];
  if (keys.length === 0) return body;
  const stored = await Promise.all(keys.map((k) => kv.get(`${THINKING_KV}${k}`).catch(() => null)));
  const found = new Map(keys.map((k, i) => [k, blocksFrom(stored[i] ?? null)]));
  if (![...found.values()].some((b) => b && b.length > 0)) return body;
  const messages = body.messages.map((m) => {
    const blocks = wanted(m).flatMap((k) => found.get(k) ?? []);
    return blocks.length > 0 ? { ...(m as Json), thinking_blocks: blocks } : m;
  });
  return { ...body, messages };
}
