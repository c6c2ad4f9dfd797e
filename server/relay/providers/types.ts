import type { Channel } from '../../db/types.js';
import type { Usage } from '../../billing/pricing.js';
import type { Endpoint } from '../endpoints.js';
import type { SseEvent } from '../wire/sse.js';
import type { CancelSignal, UpstreamResponse, UpstreamTarget } from '../call/call-upstream.js';
import type { StreamEvent } from '../wire/events.js';
import type { OpenAIChatRequest } from '../wire/openai/openai-types.js';
import type { ClaudeSettings } from '../wire/claude/convert-to-claude-messages.js';
import type { GeminiSettings } from '../wire/gemini/gemini-settings.js';

/** One upstream call, ready to send. */
export interface PreparedCall {
  target: UpstreamTarget;
  body: string | Buffer;
  /** Set by `refusedCall`: the call is answered with this 400 and never sent. A field, not a side
   * table, so that copies made on the way (header overrides) stay refused. */
  refusal?: string;
}

export type ChannelAccess = Pick<Channel, 'key' | 'base_url' | 'other' | 'openai_organization'>;

/**
 * Splits an upstream stream into events. SSE by default; providers whose streams are framed
 * otherwise (AWS event streams, NDJSON) give their own, yielding the same event shape.
 */
export interface FrameDecoder {
  push(chunk: Uint8Array): SseEvent[];
  /** The stream ended: events left over. */
  end(): SseEvent[];
}

/** Provider settings from the options, read by the pipeline and handed to the pure converters. */
export interface ProviderSettings {
  claude: ClaudeSettings;
  gemini: GeminiSettings;
}

/**
 * How a provider with a protocol of its own serves OpenAI requests: the request converted on the way
 * up, the answer (whole or streamed) converted on the way down. `Body` is the OpenAI request it
 * takes: chat adapters get typed chat bodies; endpoint adapters read their endpoint's fields.
 */
export interface ChatAdapter<Body = Record<string, unknown>> {
  /** The upstream call for an OpenAI body whose `model` is already the upstream model. */
  request(channel: ChannelAccess, body: Body, stream: boolean, settings: ProviderSettings): PreparedCall | Promise<PreparedCall>;
  /**
   * A whole answer as an OpenAI chat.completion (or, for `adapters`, that endpoint's OpenAI answer),
   * with its usage. `request` is the OpenAI body the call was made from, when the relay has it.
   */
  answer(payload: unknown, model: string, request?: Record<string, unknown>): { completion: unknown; usage: Usage | null };
  /** A parser from the provider's stream events to the relay's StreamEvents (`request` as for `answer`). */
  stream(model: string, request?: Record<string, unknown>): { push(event: SseEvent): StreamEvent[] };
  /** The message of an upstream error body. */
  errorMessage(text: string, status: number): string;
  /**
   * For providers not reached by one plain POST of the prepared call: performs the exchange itself
   * (iFlytek's websocket, a fetched access token, errors sent behind a 200 status, a whole answer
   * served as a one-event stream) and answers like an HTTP upstream — status, content type
   * (`text/event-stream` for streams) and body. When omitted, the prepared call is POSTed.
   */
  send?(
    call: PreparedCall,
    exchange: { channel: ChannelAccess; stream: boolean; signal: CancelSignal },
  ): Promise<UpstreamResponse>;
}

/**
 * A provider: how a channel of its type is reached. Pure: it reads only the channel and the
 * request's endpoint and model, never HTTP context or global settings.
 */
export interface ProviderDefinition {
  name: string;
  /** The wire format the upstream speaks. */
  protocol: 'openai' | 'claude' | 'gemini' | 'task';
  /** The endpoints this provider serves; the relay refuses others before calling upstream. */
  supports(endpoint: Endpoint): boolean;
  /** `stream` matters to providers whose streaming calls use another URL (Gemini). */
  target(channel: ChannelAccess, endpoint: Endpoint, model: string, stream?: boolean): UpstreamTarget;
  /** Asks for usage in the last stream chunk (`stream_options.include_usage`). */
  streamUsageOption: boolean;
  /** Present when chat requests are converted to and from the provider's own protocol. */
  chat?: ChatAdapter<OpenAIChatRequest>;
  /**
   * The same conversion for other endpoints (embeddings, rerank) served in the provider's own
   * shape: the OpenAI body converted on the way up, the answer to OpenAI's shape on the way down.
   */
  adapters?: Partial<Record<Endpoint, ChatAdapter>>;
  /**
   * For calls in the provider's own protocol (passed through, or OpenAI bodies to an
   * OpenAI-protocol provider): a last step given the body, for providers whose calls need signing
   * (AWS SigV4), a fetched access token (Vertex, Baidu) or a rewritten body (Bedrock drops `model`).
   */
  prepare?(
    call: PreparedCall & { channel: ChannelAccess; endpoint: Endpoint; model: string; stream: boolean },
  ): Promise<PreparedCall>;
  /** Whether an answer with this content type is a stream; default: `text/event-stream`. */
  isStream?(contentType: string): boolean;
  /** How the provider's streams are framed; SSE when omitted. */
  decoder?(): FrameDecoder;
  /**
   * For a channel type whose protocol depends on the upstream model (Vertex AI serves Gemini and
   * Claude): the definition for one model. The exchange resolves it before routing the call.
   */
  forModel?(model: string): ProviderDefinition;
}
