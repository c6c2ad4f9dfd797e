/**
 * The one error handler: whatever a route threw is classified into an AppError, then rendered in
 * the route's wire format (server/http/wire.ts). Unexpected errors are logged and answered with the
 * generic message — never their own text or a stack.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError, refuse } from './errors.js';
import { renderError, wireOf } from './wire.js';

/** What was thrown, as an AppError; null for an error nobody meant to send (a bug, a lost database). */
export function classify(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  const e = error as FastifyError;
  if (e.validation) return refuse(400, 'request.invalid_params', { detail: e.message });
  if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return refuse(413, 'request.body_too_large');
  if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
    const invalid = refuse(e.statusCode, 'request.invalid', { detail: e.message });
    return e.statusCode === 429 ? refuse(429, 'request.rate_limited') : invalid;
  }
  return null;
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    let known = classify(error);
    if (!known) {
      request.log.error({ err: error }, 'unhandled error');
      known = refuse(500, 'server.internal_error');
    }
    const { status, body } = renderError(wireOf(request), known);
    if (known.retryAfter !== undefined) void reply.header('retry-after', String(known.retryAfter));
    return reply.status(status).send(body);
  });
}

/** A request no route serves, refused in the format its path implies. */
export function notFound(method: string, path: string, wire: ReturnType<typeof wireOf>): AppError {
  return wire === 'console'
    ? refuse(404, 'request.not_found', { method, path })
    : refuse(404, 'invalid_url', { method, path }, 'invalid_request_error');
}
