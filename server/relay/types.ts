/** The relay's shared vocabulary: who calls, and what a call asks for. */
import type { Endpoint } from './endpoints.js';

/** The wire format a client speaks. */
export type ClientFormat = 'openai' | 'claude' | 'gemini';

/** Who pays, in the relay's terms (an sk- token, or the playground's console session). */
export interface RelayCaller {
  userId: number;
  username: string;
  group: string;
  tokenId: number;
  tokenName: string;
  /** The token's tokens per minute; 0 = no limit. */
  tokenTpmLimit: number;
  unlimitedToken: boolean;
  /** Balance hints from the caches (not authoritative) for skipping the pre-charge. */
  userQuotaHint: number;
  tokenQuotaHint: number;
  acceptUnsetPrice: boolean;
  pinnedChannelId: number | null;
  /** The token's calls in flight, requests per minute and per day, and its owner's per day; 0 = no limit. */
  requestLimits?: { concurrency: number; rpm: number; rpd: number; userRpd: number };
  /** The models the token is limited to; null or absent: any model. */
  modelLimits?: ReadonlySet<string> | null;
}

export interface RelayInput {
  endpoint: Endpoint;
  /** The parsed JSON body; null for multipart bodies sent on as `raw`. */
  body: Record<string, unknown> | null;
  raw: Buffer | null;
  contentType: string;
  model: string;
  stream: boolean;
  /** The client's wire format (OpenAI unless a native endpoint such as /v1/messages was called). */
  client: ClientFormat;
  /** Client headers a channel of the client's own protocol should see (e.g. `anthropic-beta`). */
  forwardHeaders?: Record<string, string>;
  /** A client's `anthropic-beta` header, for a Claude channel its request reaches converted. */
  anthropicBeta?: string;
  /** Claude Code's `?beta=true`: kept on a call to Anthropic's own Messages API, dropped elsewhere. */
  betaQuery?: boolean;
  /** `POST /v1/responses/compact` (endpoint `responses`): Codex's remote compaction (wire/openai/responses-compact.ts). */
  compact?: boolean;
  /** The model the client asked for, when a fallback (routing/fallbacks.ts) serves `model` instead. */
  requestedModel?: string;
}
