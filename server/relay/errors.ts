/**
 * The relay's refusals, as AppErrors with the family's error codes (rendered in each client's own
 * error shape by server/http/wire.ts). `type` is OpenAI's `error.type`.
 *
 * Statuses follow what clients do with them: SDKs retry 408, 409, 429 and every 5xx, so what asking
 * again cannot change is a 4xx — in each client format's own terms where they differ.
 */
import { AppError, refuse, refusalMessage, type ErrorParams, type UpstreamErrorFields } from '../http/errors.js';
import type { RefusalCode } from '../http/refusals.js';

const INVALID_REQUEST = 'invalid_request_error';

const relay = (status: number, code: RefusalCode, params?: ErrorParams, type?: string): AppError =>
  refuse(status, code, params, type);

/**
 * Out of quota — a token made with none, one run dry, or its owner's balance: one answer for one
 * situation, OpenAI's 429 `insufficient_quota`; Claude clients get their `billing_error` (402),
 * since their 429 is a rate limit they wait out and retry.
 */
const exhausted = (code: RefusalCode): AppError =>
  new AppError(429, code, refusalMessage(code), { type: 'insufficient_quota', statusIn: { claude: 402 } });

export const relayErrors = {
  noToken: () => relay(401, 'missing_api_key'),
  invalidToken: () => relay(401, 'invalid_api_key'),
  /** A token that exists but may not be used (disabled, expired, exhausted, or not from this address). */
  token: (status: number, code: RefusalCode) => (code === 'token_exhausted' ? exhausted(code) : relay(status, code)),
  userBanned: () => relay(403, 'user_banned'),
  groupDenied: (group: string) => relay(403, 'group_denied', { group }),
  modelRequired: () => relay(400, 'model_required', undefined, INVALID_REQUEST),
  modelDenied: (model: string) => relay(403, 'model_not_allowed', { model }),
  /** A model no channel of the caller's group serves and no price names: OpenAI's 404 `model_not_found`. */
  unknownModel: (model: string) => relay(404, 'model_does_not_exist', { model }, INVALID_REQUEST),
  /** A model channels serve but no price names (and the caller does not accept unset prices). */
  priceNotSet: (model: string) => relay(404, 'model_price_error', { model }, INVALID_REQUEST),
  userQuota: () => exhausted('insufficient_user_quota'),
  tokenQuota: () => exhausted('pre_consume_token_quota_failed'),
  /** A token's or user's spend cap reached: asking again after the period's end (`retryAfter` seconds) will do. */
  spendCap: (subject: 'token' | 'user', period: string, retryAfter: number) =>
    new AppError(429, 'spend_cap_reached', refusalMessage('spend_cap_reached', { subject, period }), {
      params: { subject, period },
      type: 'insufficient_quota',
      retryAfter,
    }),
  /**
   * A priced model with no channel for the caller's group: the family's 503 `model_not_found` for
   * OpenAI clients (retried a bounded number of times); Claude and Gemini clients, which retry
   * 503 as an overload, get their not-found.
   */
  noChannel: (model: string, group: string) =>
    new AppError(503, 'model_not_found', refusalMessage('model_not_found', { model, group }), {
      params: { model, group },
      statusIn: { claude: 404, gemini: 404 },
    }),
  badBody: (detail: string) => relay(400, 'invalid_request', { detail }, INVALID_REQUEST),
  channelUnsupported: (type: number) => relay(400, 'channel_unsupported', { type }),
  connection: (detail: string) => relay(502, 'upstream_connection_error', { detail }),
  interrupted: (detail: string) => relay(502, 'upstream_interrupted', { detail }),
  /** The answer was served but could not be billed: not completed, so asking again is safe. */
  billingFailed: () => relay(500, 'billing_failed'),
  /**
   * An upstream's own refusal, its status mapped by the channel's status-code mapping; its own
   * error fields go to clients of its protocol.
   */
  upstream: (status: number, detail: string, fields?: UpstreamErrorFields) =>
    new AppError(status, 'upstream_error', refusalMessage('upstream_error', { detail }), {
      params: { detail },
      type: 'upstream_error',
      upstream: fields,
    }),
};
