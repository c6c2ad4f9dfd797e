/**
 * Claude-format clients (Claude Code, the Anthropic SDKs): `POST /v1/messages` with `x-api-key` or
 * a Bearer key, answered in Claude's shapes — passed through to Claude channels, converted for
 * every other channel. Errors answer in Claude's error shape.
 */
import type { FastifyInstance } from 'fastify';
import type { GatewayContext } from '../../context.js';
import { answerIn } from '../../http/wire.js';
import { authenticateCaller, callerOf } from './identify-caller.js';
import { readJsonBodies } from '../../http/json-body.js';
import { relay } from '../call/relay-call.js';
import { RELAY_BODY_LIMIT, checkModelLimit, readInput, tokenCaller } from './read-request.js';
import { loadTokenizer } from '../metering/tokenizer.js';
import { countPromptTokens } from '../call/count-tokens.js';

/** Client headers that a Claude channel should see too. */
const FORWARDED = ['anthropic-beta'] as const;

export default async function claudeRoutes(app: FastifyInstance): Promise<void> {
  const ctx: GatewayContext = app.ctx;
  // Converted Claude streams announce a locally counted prompt at once: the encoding loads now.
  void loadTokenizer();

  answerIn(app, 'claude');
  readJsonBodies(app);
  const authenticate = authenticateCaller(ctx);

  app.post('/v1/messages', { onRequest: authenticate, bodyLimit: RELAY_BODY_LIMIT }, async (request, reply) => {
    const caller = callerOf(request);
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

  // Claude Code asks for a prompt's size before sending it: the Claude channel's count, else a local one.
  app.post('/v1/messages/count_tokens', { onRequest: authenticate, bodyLimit: RELAY_BODY_LIMIT }, async (request) => {
    const caller = callerOf(request);
    const input = await readInput('chat.completions', request, 'claude');
    const anthropicBeta = request.headers['anthropic-beta'];
    return countPromptTokens(ctx, {
      protocol: 'claude',
      model: input.model,
      body: input.body ?? {},
      group: caller.group,
      pinnedChannelId: caller.pinnedChannelId,
      ...(typeof anthropicBeta === 'string' ? { forwardHeaders: { 'anthropic-beta': anthropicBeta } } : {}),
    });
  });
}
