/**
 * What the relay needs to know of a client format (the wire format a client speaks: OpenAI's,
 * Claude's, Google's). Mirrors the provider registry: the exchange asks the client's format instead
 * of branching on it. A format's request reaches a channel of its own protocol as it is, and every
 * other channel as OpenAI's; answers come back the same two ways.
 */
import type { ServerResponse } from 'node:http';
import type { Endpoint } from '../endpoints.js';
import type { ProviderDefinition } from '../providers/types.js';
import type { StreamEvent } from './events.js';
import type { OpenAIChatRequest } from './openai/openai-types.js';
import type { FrameDecoder } from '../providers/types.js';
import type { AnswerHooks, ForwardResult } from '../call/forward-answer.js';
import type { UpstreamResponse } from '../call/call-upstream.js';
import type { RelayInput } from '../types.js';

/** A request as OpenAI's: chat completions, or another endpoint's body (embeddings …). */
export type OpenAIRequest =
  | { endpoint: 'chat.completions'; body: OpenAIChatRequest }
  | { endpoint: Exclude<Endpoint, 'chat.completions'>; body: Record<string, unknown> };

export interface StreamSerializer {
  push(event: StreamEvent): string;
  end(): string;
}

type Provider = Pick<ProviderDefinition, 'protocol' | 'supports' | 'chat' | 'adapters' | 'streamUsageOption'>;

export interface ClientFormatDefinition {
  /**
   * Checks a JSON body at the edge against the shape the relay reads (`variant`: Gemini's action);
   * returns it, or refuses with a 400 naming the field at fault.
   */
  check(endpoint: Endpoint, body: unknown, variant?: string): Record<string, unknown>;
  /** Whether a channel of `provider` can serve the request at all (as it is, or converted). */
  servedBy(provider: Provider, input: RelayInput): boolean;
  /** Why a channel that would take the request converted cannot (what it refers to lives upstream); null when it can. */
  unservedWhy?(provider: Provider, input: RelayInput): string | null;
  /** Whether the request goes to the channel as it is (no conversion). */
  passesThrough(provider: Provider, input: RelayInput): boolean;
  /** The request as OpenAI's, for channels of another protocol. */
  toOpenAI(input: RelayInput): OpenAIRequest;
  /** The OpenAI request as a channel taking OpenAI's request as it is gets it (default: unchanged). */
  forOpenAIChannel?(request: OpenAIRequest): OpenAIRequest;
  /** An OpenAI answer (a chat.completion, or embeddings) in this format. */
  fromOpenAI(input: RelayInput, answer: unknown): unknown;
  /** This format's stream, written from the relay's stream events. */
  serializer(input: RelayInput): StreamSerializer;
  /** Sends on an answer in this format (passed through), reading its usage. */
  forwardNative(a: {
    input: RelayInput;
    res: UpstreamResponse;
    out: ServerResponse;
    started: number;
    hooks: AnswerHooks;
    streaming: boolean;
    decoder: FrameDecoder | undefined;
    /** The gateway asked the upstream for stream usage (`asksStreamUsage`). */
    usageAsked: boolean;
  }): Promise<ForwardResult>;
  /** The body a channel gets, as it is or converted: what the family treats as absent left out (default: the body). */
  upstreamBody?(input: RelayInput): Record<string, unknown> | null;
  /** What a passed-through body changes when the model is mapped (default: its `model`). */
  mappedModel?(input: RelayInput, upstreamModel: string): Record<string, unknown>;
  /** The URL of a passed-through call, when the request names more than the provider's target does. */
  nativeUrl?(url: string, input: RelayInput): string;
  /** Whether a passed-through stream should ask the upstream for its usage (OpenAI's `stream_options`). */
  asksStreamUsage?(provider: Provider, input: RelayInput): boolean;
  /** What closes a passed-through stream cut short by the sensitive-word filter ('' when a converted stream closes itself). */
  cutStreamTail(input: RelayInput): string;
}
