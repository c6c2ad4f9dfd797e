/**
 * The one error type of the server: an HTTP status, a stable code (what clients and the console key
 * on), the message in the family's words, the values the message was filled from (so the console
 * can say it in its reader's language), and, on the relay, OpenAI's error type. Routes throw it;
 * the one error handler (server/http/error-handler.ts) classifies whatever was thrown and renders
 * it in the route's wire format.
 */
import { REFUSALS, type RefusalCode } from './refusals.js';

export type ErrorParams = Record<string, string | number>;

/**
 * An upstream's own error fields, shown to clients that speak the upstream's protocol: OpenAI's
 * `type`, `code` and `param`, Claude's `type`, Google's `status` (as `type`).
 */
export interface UpstreamErrorFields {
  protocol: 'openai' | 'claude' | 'gemini';
  type?: string | undefined;
  code?: string | number | null | undefined;
  param?: string | null | undefined;
}

export interface AppErrorOptions {
  params?: ErrorParams | undefined;
  /** OpenAI's `error.type` for relay clients (default `new_api_error`). */
  type?: string | undefined;
  /** The status in a wire format whose clients read `status` differently (by format name). */
  statusIn?: Readonly<Record<string, number>> | undefined;
  upstream?: UpstreamErrorFields | undefined;
  /** Seconds after which asking again may succeed: sent as Retry-After. */
  retryAfter?: number | undefined;
  cause?: unknown;
}

export class AppError extends Error {
  readonly params: ErrorParams | undefined;
  readonly type: string | undefined;
  readonly statusIn: Readonly<Record<string, number>> | undefined;
  readonly upstream: UpstreamErrorFields | undefined;
  readonly retryAfter: number | undefined;

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message, { cause: options.cause });
    this.params = options.params;
    this.type = options.type;
    this.statusIn = options.statusIn;
    this.upstream = options.upstream;
    this.retryAfter = options.retryAfter;
  }
}

const HAN = /[\u3400-\u9fff]/;
const LETTER = /[A-Za-z]/;

/**
 * A catalogue message with its `%{name}` placeholders filled. A value that starts or ends with a
 * Latin letter next to a Chinese character is set off by a space, as Chinese typesetting does.
 */
export function refusalMessage(code: RefusalCode, params?: ErrorParams): string {
  const template: string = REFUSALS[code];
  if (!params) return template;
  return template.replace(/%\{(\w+)\}/g, (all, name: string, at: number) => {
    const value = params[name] === undefined ? all : String(params[name]);
    const before = HAN.test(template[at - 1] ?? '') && LETTER.test(value[0] ?? '') ? ' ' : '';
    const after = HAN.test(template[at + all.length] ?? '') && LETTER.test(value.at(-1) ?? '') ? ' ' : '';
    return before + value + after;
  });
}

/** A refusal from the catalogue (server/http/refusals.ts) with `status`. */
export function refuse(status: number, code: RefusalCode, params?: ErrorParams, type?: string): AppError {
  return new AppError(status, code, refusalMessage(code, params), { params, type });
}

/** A business refusal on the console API: HTTP 200 with `{success: false, message, code}`. */
export function fail(code: RefusalCode, params?: ErrorParams): AppError {
  return refuse(200, code, params);
}

export const unauthorized = (code: RefusalCode = 'auth.not_logged_in_no_token'): AppError => refuse(401, code);
