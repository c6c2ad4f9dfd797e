/**
 * Claude-format clients (Claude Code, the Anthropic SDKs): `POST /v1/messages` with `x-api-key` or
 * a Bearer key, answered in Claude's shapes — passed through to Claude channels, converted for
 * every other channel. Errors answer in Claude's error shape.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import type { GatewayContext } from '../context.js';
import { AppError } from '../http/errors.js';
import { RelayError } from './errors.js';
import { resolveCaller } from './caller.js';
import { relay } from './pipeline.js';
import { RELAY_BODY_LIMIT, checkModelLimit, readInput, tokenCaller } from './request.js';
import { countTokens } from './tokenizer.js';
import { promptText } from './usage.js';

const CLAUDE_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  503: 'overloaded_error',
  529: 'overloaded_error',
};

function claudeError(status: number, message: string) {
  return { type: 'error', error: { type: CLAUDE_ERROR_TYPES[status] ?? 'api_error', message } };
}

/** Client headers that a Claude channel should see too. */
const FORWARDED = ['anthropic-beta'] as const;

export default async function claudeRoutes(app: FastifyInstance): Promise<void> {
  const ctx: GatewayContext = app.ctx;

  app.setErrorHandler((error: FastifyError | RelayError | AppError, request, reply) => {
    const status =
      error instanceof RelayError || error instanceof AppError
        ? error.status === 200
          ? 403
          : error.status
        : error.validation || (error.statusCode && error.statusCode < 500)
          ? (error.statusCode ?? 400)
          : 500;
    if (status >= 500 && !(error instanceof RelayError)) request.log.error({ err: error }, 'claude relay error');
    return reply
      .status(status)
      .send(
        claudeError(status, status >= 500 && !(error instanceof RelayError) ? '服务器内部错误，请联系管理员' : error.message),
      );
  });

  app.post('/v1/messages', { bodyLimit: RELAY_BODY_LIMIT }, async (request, reply) => {
    const caller = await resolveCaller(ctx, request);
    const input = await readInput('chat.completions', request, 'claude');
    const forwardHeaders: Record<string, string> = {};
    for (const name of FORWARDED) {
      const value = request.headers[name];
      if (typeof value === 'string') forwardHeaders[name] = value;
    }
    input.forwardHeaders = forwardHeaders;
    checkModelLimit(caller, input.model);
    await relay(ctx, request, reply, tokenCaller(caller), input);
    return reply;
  });

  // Claude Code asks for a prompt's size before sending it: counted locally.
  app.post('/v1/messages/count_tokens', { bodyLimit: RELAY_BODY_LIMIT }, async (request) => {
    await resolveCaller(ctx, request);
    const input = await readInput('chat.completions', request, 'claude');
    const body = input.body ?? {};
    const system = typeof body.system === 'string' ? body.system : JSON.stringify(body.system ?? '');
    return { input_tokens: await countTokens(`${system}\n${promptText('chat.completions', body)}`) };
  });
}
