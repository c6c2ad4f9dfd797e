/**
 * The playground's conversation as data: each answer goes loading → incomplete (while it
 * streams) → complete or error. Plain functions, so the page only wires them to state.
 */
import type { ChatMessage } from './stream';

export type MessageStatus = 'loading' | 'incomplete' | 'complete' | 'error';

export interface Message {
  id: number;
  role: 'user' | 'assistant';
  content: string;
  status: MessageStatus;
  /** Message key or server text of a failed answer. */
  error?: string;
  /** The person stopped the answer. */
  stopped?: boolean;
}

export interface Settings {
  group: string;
  model: string;
  temperature: number;
  max_tokens: number;
  system_prompt: string;
}

/** A fresh playground: model gpt-4o-mini, temperature 0, max_tokens 0 (no limit), a helpful-assistant prompt. */
export const DEFAULT_SETTINGS: Settings = {
  group: '',
  model: 'gpt-4o-mini',
  temperature: 0,
  max_tokens: 0,
  system_prompt: 'You are a helpful assistant.',
};

/** The temperature slider's range: tenths from 0.1 to 1, the useful span for chat. */
export const TEMPERATURE = { min: 0.1, max: 1, step: 0.1 };

/** What is sent: the system prompt when set, then every finished message with text. */
export function conversation(messages: readonly Message[], systemPrompt: string): ChatMessage[] {
  const out: ChatMessage[] = [];
  if (systemPrompt.trim()) out.push({ role: 'system', content: systemPrompt });
  for (const m of messages) {
    if (m.status === 'complete' && m.content !== '') out.push({ role: m.role, content: m.content });
  }
  return out;
}

/** Applies `change` to the message `id`. */
export function update(messages: readonly Message[], id: number, change: (m: Message) => Partial<Message>): Message[] {
  return messages.map((m) => (m.id === id ? { ...m, ...change(m) } : m));
}

/** A streamed piece arrived: the answer grows and is incomplete until the stream ends. */
export function appendDelta(messages: readonly Message[], id: number, text: string): Message[] {
  return update(messages, id, (m) => ({ content: m.content + text, status: 'incomplete' }));
}
