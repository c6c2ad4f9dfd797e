/**
 * The playground's call: POST /pg/chat/completions with the console session, read as a
 * server-sent event stream chunk by chunk until the [DONE] item.
 */
import { storedUser } from '../../api/client';
import { storedLocale } from '../../i18n';
import { localizeRefusal } from '../../i18n/serverErrors';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatRequest {
  model: string;
  group: string;
  messages: ChatMessage[];
  temperature: number;
  /** 0 means no limit: the field is then left out. */
  max_tokens: number;
}

/** Why a chat failed: an expired session (401), or the message to show. */
export class ChatError extends Error {
  constructor(
    message: string,
    readonly expired = false,
  ) {
    super(message);
  }
}

/**
 * Splits a text stream into SSE `data:` payloads. Feed it chunks as they arrive; it keeps a line
 * cut between two chunks until its end arrives.
 */
export function sseReader(): { push(text: string): string[]; end(): string[] } {
  let buffer = '';
  const lines = (text: string): string[] =>
    text
      .split('\n')
      .map((line) => line.replace(/\r$/, ''))
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trim());
  return {
    push(text) {
      buffer += text;
      const cut = buffer.lastIndexOf('\n');
      if (cut < 0) return [];
      const complete = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 1);
      return lines(complete);
    },
    end() {
      const rest = buffer;
      buffer = '';
      return lines(rest);
    },
  };
}

interface Chunk {
  choices?: Array<{ delta?: { content?: string | null; reasoning_content?: string | null } }>;
  error?: { message?: string };
}

/** The text an SSE payload adds; throws the error a stream reports inside a chunk. */
export function deltaOf(data: string): string {
  let chunk: Chunk;
  try {
    chunk = JSON.parse(data) as Chunk;
  } catch {
    return '';
  }
  if (chunk.error) throw new ChatError(chunk.error.message || 'playground.error.stream');
  return chunk.choices?.[0]?.delta?.content ?? '';
}

/** The request body: max_tokens only when set, the chosen group, always streamed. */
export function chatBody(request: ChatRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: request.model,
    group: request.group,
    messages: request.messages,
    stream: true,
    temperature: request.temperature,
  };
  if (request.max_tokens > 0) body.max_tokens = request.max_tokens;
  return body;
}

async function failureOf(res: Response): Promise<ChatError> {
  if (res.status === 401) return new ChatError('playground.expired', true);
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { error?: { message?: string; code?: string }; message?: string; code?: string };
    const refusal = body.error ?? body;
    if (refusal.message) return new ChatError(localizeRefusal(refusal, storedLocale()));
  } catch {
    /* not JSON */
  }
  return new ChatError(`Error: ${res.status}`);
}

/**
 * Sends the chat and calls `onDelta` with each piece of the answer. Resolves when the stream ends
 * ([DONE] or the end of the body); rejects with a ChatError, or an AbortError when `signal` aborts.
 */
export async function streamChat(request: ChatRequest, signal: AbortSignal, onDelta: (text: string) => void): Promise<void> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'text/event-stream' };
  const user = storedUser();
  if (user) headers['New-Api-User'] = String(user.id);
  const res = await fetch('/pg/chat/completions', {
    method: 'POST',
    headers,
    credentials: 'same-origin',
    body: JSON.stringify(chatBody(request)),
    signal,
  });
  if (!res.ok) throw await failureOf(res);
  if (!res.body) throw new ChatError('playground.error.stream');
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  const sse = sseReader();
  const handle = (items: string[]): boolean => {
    for (const data of items) {
      if (data === '[DONE]') return true;
      const text = deltaOf(data);
      if (text) onDelta(text);
    }
    return false;
  };
  // Stopping ends the read at once, whether or not the transport errors the body itself.
  const cancel = () => void reader.cancel().catch(() => undefined);
  signal.addEventListener('abort', cancel);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (signal.aborted) throw new DOMException('The chat was stopped', 'AbortError');
      if (done) {
        handle(sse.end());
        return;
      }
      if (handle(sse.push(decoder.decode(value, { stream: true })))) return;
    }
  } finally {
    signal.removeEventListener('abort', cancel);
    cancel();
  }
}
