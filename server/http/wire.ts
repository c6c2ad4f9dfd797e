/**
 * The wire formats the server answers in, and how an error looks in each: the console API's
 * envelope, OpenAI's, Claude's and Google's error shapes for the relay's clients, and the task
 * platforms' own (midjourney-proxy, suno-api). A route module names its format once (`answerIn`);
 * the one error handler, and anything that must write an error into an answer it already took over,
 * render through `renderError`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppError } from './errors.js';
import { pathOf, type RoutedFacts } from './request-path.js';

export type WireFormat = 'console' | 'openai' | 'claude' | 'gemini' | 'midjourney' | 'suno';

declare module 'fastify' {
  interface FastifyContextConfig {
    wire?: WireFormat;
  }
}

/** Every route this plugin scope registers answers (and fails) in `wire`. */
export function answerIn(app: FastifyInstance, wire: WireFormat): void {
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, wire };
  });
}

/** The format of a request's route; for a path no route matched, the format its prefix implies. */
export function wireOf(request: FastifyRequest): WireFormat {
  return routeFacts(request).wire;
}

/** What the hooks and the body reader of a request know of its route (kept as its `routed`). */
export interface RouteFacts extends RoutedFacts {
  wire: WireFormat;
  routed: boolean;
}

/** A request's RouteFacts, from one read of Fastify's `routeOptions`. */
export function routeFacts(request: FastifyRequest): RouteFacts {
  const route = request.routeOptions;
  const path = pathOf(request, route.url);
  return {
    path,
    wire: route.config?.wire ?? wireOfPath(path),
    routed: route.url !== undefined && route.url !== '',
    bodyLimit: route.bodyLimit,
  };
}

function wireOfPath(path: string): WireFormat {
  if (path.startsWith('/v1beta/')) return 'gemini';
  if (path.startsWith('/v1/messages')) return 'claude';
  if (/^\/(v1|pg|dashboard)(\/|$|\?)/.test(path)) return 'openai';
  if (path.startsWith('/mj/')) return 'midjourney';
  if (path.startsWith('/suno/')) return 'suno';
  return 'console';
}

export interface RenderedError {
  status: number;
  body: unknown;
}

/**
 * Errors of the relay never answer 200: a console refusal (a guard on the playground) is a 403 there.
 * An error may name another status for a format whose clients read statuses their own way.
 */
const relayStatus = (e: AppError, wire: WireFormat): number => e.statusIn?.[wire] ?? (e.status === 200 ? 403 : e.status);

/** The upstream's own fields when it speaks this client's protocol. */
const upstreamOf = (e: AppError, protocol: 'openai' | 'claude' | 'gemini') =>
  e.upstream?.protocol === protocol ? e.upstream : undefined;

/** The relay's clients know the family's codes for the server's own refusals. */
const RELAY_CODES: Record<string, string> = {
  'request.invalid_params': 'invalid_request',
  'request.invalid': 'invalid_request',
  'request.body_too_large': 'request_too_large',
  'request.rate_limited': 'rate_limit_exceeded',
  'server.internal_error': 'internal_error',
  // Out of quota, whoever's: one situation, OpenAI's one code.
  insufficient_user_quota: 'insufficient_quota',
  pre_consume_token_quota_failed: 'insufficient_quota',
  token_exhausted: 'insufficient_quota',
  model_does_not_exist: 'model_not_found',
};
/** The code relay clients see for an error. */
export const relayCode = (e: AppError): string => RELAY_CODES[e.code] ?? e.code;

const CLAUDE_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  503: 'overloaded_error',
  529: 'overloaded_error',
};

const GOOGLE_STATUSES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  408: 'DEADLINE_EXCEEDED',
  409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'NOT_IMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** Google's status name for an HTTP status, as its error bodies carry it. */
export function googleStatus(code: number): string {
  return GOOGLE_STATUSES[code] ?? (code >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT');
}

/** midjourney-proxy's numeric codes for a refusal: 3 not found, 4 validation error, 9 failure. */
function midjourneyCode(status: number): number {
  if (status === 404) return 3;
  if (status >= 400 && status < 500) return 4;
  return 9;
}

const RENDERERS = {
  // The family answers a request it cannot read like any refusal: 200 with the envelope.
  console: (e) => ({
    status: e.code === 'request.invalid_params' ? 200 : e.status,
    body: { success: false, message: e.message, code: e.code, ...(e.params ? { params: e.params } : {}) },
  }),
  openai: (e) => {
    const upstream = upstreamOf(e, 'openai');
    const type = upstream?.type ?? e.type ?? 'new_api_error';
    const code = upstream && upstream.code !== undefined ? upstream.code : relayCode(e);
    return {
      status: relayStatus(e, 'openai'),
      body: { error: { message: e.message, type, param: upstream?.param ?? null, code } },
    };
  },
  claude: (e) => {
    const status = relayStatus(e, 'claude');
    const type = upstreamOf(e, 'claude')?.type ?? CLAUDE_ERROR_TYPES[status] ?? 'api_error';
    return { status, body: { type: 'error', error: { type, message: e.message } } };
  },
  gemini: (e) => {
    const status = relayStatus(e, 'gemini');
    const google = upstreamOf(e, 'gemini')?.type ?? googleStatus(status);
    return { status, body: { error: { code: status, message: e.message, status: google } } };
  },
  midjourney: (e) => {
    const status = relayStatus(e, 'midjourney');
    return { status, body: { code: midjourneyCode(status), description: e.message, result: null, type: relayCode(e) } };
  },
  suno: (e) => ({ status: relayStatus(e, 'suno'), body: { code: relayCode(e), message: e.message, data: null } }),
} satisfies Record<WireFormat, (e: AppError) => RenderedError>;

export function renderError(wire: WireFormat, error: AppError): RenderedError {
  return RENDERERS[wire](error);
}
