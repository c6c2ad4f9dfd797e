/**
 * The relay's refusals, as AppErrors with the family's error codes (rendered in each client's own
 * error shape by server/http/error-handler.ts). `type` is OpenAI's `error.type`.
 */
import { AppError, refuse, type ErrorParams } from '../http/errors.js';
import type { RefusalCode } from '../http/refusals.js';

const INVALID_REQUEST = 'invalid_request_error';

const relay = (status: number, code: RefusalCode, params?: ErrorParams, type?: string): AppError =>
  refuse(status, code, params, type);

export const relayErrors = {
  noToken: () => relay(401, 'missing_api_key'),
  invalidToken: () => relay(401, 'invalid_api_key'),
  /** A token that exists but may not be used (disabled, expired, exhausted, or not from this address). */
  token: (status: number, code: RefusalCode) => relay(status, code),
  userBanned: () => relay(403, 'user_banned'),
  groupDenied: (group: string) => relay(403, 'group_denied', { group }),
  modelRequired: () => relay(400, 'model_required', undefined, INVALID_REQUEST),
  modelDenied: (model: string) => relay(403, 'model_not_allowed', { model }),
  priceNotSet: (model: string) => relay(500, 'model_price_error', { model }),
  userQuota: () => relay(403, 'insufficient_user_quota'),
  tokenQuota: () => relay(403, 'pre_consume_token_quota_failed'),
  noChannel: (model: string, group: string) => relay(503, 'model_not_found', { model, group }),
  badBody: (detail: string) => relay(400, 'invalid_request', { detail }, INVALID_REQUEST),
  channelUnsupported: (type: number) => relay(400, 'channel_unsupported', { type }),
  connection: (detail: string) => relay(502, 'upstream_connection_error', { detail }),
  interrupted: (detail: string) => relay(502, 'upstream_interrupted', { detail }),
  /** An upstream's own refusal, its status mapped by the channel's status-code mapping. */
  upstream: (status: number, detail: string) => relay(status, 'upstream_error', { detail }, 'upstream_error'),
};
