/**
 * Gemini's thought signatures kept for clients that drop them. Gemini 3 refuses a tool step whose
 * first functionCall comes back without the signature it was issued with, yet OpenAI chat,
 * Responses and Claude clients keep no unknown field (Google's own `extra_content` extension
 * included). What every one of them sends back unchanged is the tool call's id: it must, to pair
 * the result with the call. A signature is far longer than such ids may be (OpenAI's chat refuses
 * ids over 40 characters), so the relay keeps it in the KV store (Redis when configured, so any
 * node restores it) under a random key and hands out `call_gs1_<key>`: 31 URL-safe characters,
 * within Claude's id pattern, `gs1` naming the scheme so a later one can differ. On the way back
 * the key's signature goes onto the call as `extra_content`, which the Gemini converter reads; a
 * key expired or never issued here leaves the call unsigned, and the converter sends Google's skip
 * value instead.
 *
 * Claude thinking blocks' `signature` could carry it for Claude clients, but only clients that keep
 * thinking send blocks back, while the id comes back in every format: one carrier for all.
 */
import { randomBytes } from 'node:crypto';
import type { KvStore } from '../../../cache/kv.js';
import type { StreamEvent } from '../events.js';
import type { OpenAIChatMessage, OpenAIToolCall } from '../openai/openai-types.js';
import { restoreThinking, sealThinking, thinkingSealer, type Keeper } from '../thinking-by-call.js';

const PREFIX = 'call_gs1_';
const SEALED = /^call_gs1_([A-Za-z0-9_-]{22})$/;
/** Long enough for a tool run that waits on a person; a later turn's request needs no earlier signature. */
const TTL_SECONDS = 24 * 3600;
const kvKey = (key: string): string => `thought-signature:${key}`;

/** The KV key an id handed out by `SignatureSealer.seal` stands for, or null for any other id. */
export function sealedKey(id: unknown): string | null {
  return typeof id === 'string' ? (SEALED.exec(id)?.[1] ?? null) : null;
}

/** Hands out ids for signed calls (and for calls after Claude's thinking, thinking-by-call.ts) during one answer. */
export class SignatureSealer implements Keeper {
  private pending: Promise<void>[] = [];
  constructor(
    private readonly kv: KvStore,
    readonly keepsThinking = true,
  ) {}

  /** A new call id carrying `signature`: stored under its key. */
  seal(signature: string): string {
    return this.keep(PREFIX, 'thought-signature:', signature);
  }

  keep(prefix: string, kvPrefix: string, value: string): string {
    const key = randomBytes(16).toString('base64url');
    // A write that fails loses what it keeps: that step goes back unsigned (Gemini's skip value, or thinking off).
    this.pending.push(this.kv.set(kvPrefix + key, value, TTL_SECONDS).catch(() => undefined));
    return prefix + key;
  }

  /** Waits for the writes: called before the answer ends, so the client's next call finds them. */
  async settle(): Promise<void> {
    await Promise.all(this.pending);
    this.pending = [];
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const signatureOf = (call: Pick<OpenAIToolCall, 'extra_content'>): string | undefined => {
  const signature = call.extra_content?.google?.thought_signature;
  return typeof signature === 'string' && signature !== '' ? signature : undefined;
};

/** An OpenAI chat.completion from an adapter with each signed tool call's id sealed (in place: the answer is fresh). */
export function sealCompletion(completion: unknown, sealer: SignatureSealer): void {
  const choices = isObject(completion) && Array.isArray(completion.choices) ? completion.choices : [];
  for (const choice of choices) {
    if (isObject(choice)) sealThinking(choice.message, sealer);
    const calls = isObject(choice) && isObject(choice.message) ? choice.message.tool_calls : undefined;
    for (const call of Array.isArray(calls) ? (calls as OpenAIToolCall[]) : []) {
      const signature = isObject(call) ? signatureOf(call) : undefined;
      if (signature) call.id = sealer.seal(signature);
    }
  }
}

/** A stream parser whose signed tool calls get sealed ids (a call's id and signature come on its first piece). */
export function sealedParser<E>(
  parser: { push(event: E): StreamEvent[] },
  sealer: SignatureSealer,
): { push(event: E): StreamEvent[] } {
  const thinking = thinkingSealer(sealer);
  return {
    push: (event) =>
      thinking(parser.push(event)).map((e) =>
        e.type === 'tool_call' && e.signature ? { ...e, id: sealer.seal(e.signature) } : e,
      ),
  };
}

/**
 * The OpenAI chat body with the signatures of the sealed tool-call ids it echoes put back as
 * `extra_content`, and Claude thinking kept under sealed ids put back (thinking-by-call.ts); the same
 * body when there is none to restore. A signature the client sent itself is kept; a lookup that
 * fails counts as a miss.
 */
export async function restoreSignatures<B extends Record<string, unknown>>(given: B, kv: KvStore): Promise<B> {
  const body = await restoreThinking(given, kv);
  if (!Array.isArray(body.messages)) return body;
  const messages = body.messages as unknown[];
  const wanted = new Map<string, Promise<string | null>>();
  for (const message of messages) {
    if (!isObject(message) || message.role !== 'assistant' || !Array.isArray(message.tool_calls)) continue;
    for (const call of message.tool_calls as unknown[]) {
      const key = isObject(call) && !signatureOf(call) ? sealedKey(call.id) : null;
      if (key && !wanted.has(key))
        wanted.set(
          key,
          kv.get(kvKey(key)).catch(() => null),
        );
    }
  }
  if (wanted.size === 0) return body;
  const found = new Map<string, string>();
  for (const [key, lookup] of wanted) {
    const signature = await lookup;
    if (signature) found.set(key, signature);
  }
  if (found.size === 0) return body;
  const restoreCall = (call: unknown): unknown => {
    const signature = isObject(call) ? found.get(sealedKey(call.id) ?? '') : undefined;
    if (!isObject(call) || !signature || signatureOf(call)) return call;
    const extra = isObject(call.extra_content) ? call.extra_content : {};
    const google = isObject(extra.google) ? extra.google : {};
    return { ...call, extra_content: { ...extra, google: { ...google, thought_signature: signature } } };
  };
  const restored = messages.map((message) =>
    isObject(message) && message.role === 'assistant' && Array.isArray(message.tool_calls)
      ? ({ ...message, tool_calls: message.tool_calls.map(restoreCall) } as OpenAIChatMessage)
      : message,
  );
  return { ...body, messages: restored };
}
