/**
 * Claude-format clients (Claude Code, the Anthropic SDKs): `POST /v1/messages` with `x-api-key` or
 * a Bearer key, answered in Claude's shapes — passed through to Claude channels, converted for
 * every other channel. Errors answer in Claude's error shape.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GatewayContext } from '../../context.js';
import { answerIn } from '../../http/wire.js';
import { authenticateCaller, callerOf } from './identify-caller.js';
import { readJsonBodies } from '../../http/json-body.js';
import { relay } from '../call/relay-call.js';
import { RELAY_BODY_LIMIT, checkModelLimit, readInput, tokenCaller } from './read-request.js';
import { loadTokenizer } from '../metering/tokenizer.js';
import { countPromptTokens } from '../call/count-tokens.js';
import { joinBetas } from '../wire/claude/convert-to-claude-messages.js';

/** Client headers that a Claude channel should see too: its betas, and Claude Code's session (Anthropic's own client reads it). */
const FORWARDED = ['anthropic-beta', 'x-claude-code-session-id'] as const;

function forwardedHeaders(request: FastifyRequest, body: Record<string, unknown> | null): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of FORWARDED) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  // Clients written for Bedrock put the betas in the body (`anthropic_beta`); Anthropic takes them as the header.
  const inBody = body?.anthropic_beta;
  if (Array.isArray(inBody)) {
    const betas = joinBetas(headers['anthropic-beta'], inBody.filter((b) => typeof b === 'string').join(','));
    if (betas !== '') headers['anthropic-beta'] = betas;
  }
  return headers;
}

/** What Anthropic's count_tokens takes: a whole Messages body (max_tokens, stream, metadata …) is refused there. */
const COUNT_FIELDS = [
  'model',
  'messages',
  'system',
  'tools',
  'tool_choice',
  'thinking',
  'output_config',
  'mcp_servers',
  'context_management',
];
const countBody = (body: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(body).filter(([key]) => COUNT_FIELDS.includes(key)));

/** Claude Code calls `/v1/messages?beta=true` (the SDK's beta namespace). */
const betaQuery = (request: FastifyRequest) => (request.query as { beta?: unknown } | undefined)?.beta === 'true';

export default async function claudeRoutes(app: FastifyInstance): Promise<void> {
  const ctx: GatewayContext = app.ctx;
  // Converted Claude streams announce a locally counted prompt at once: the encoding loads now.
  void loadTokenizer();

  answerIn(app, 'claude');
  readJsonBodies(app);
  const authenticate = authenticateCaller(ctx);

  // Claude Code's connection warm-up (`HEAD` on its base URL, result unread): answered at once, no key asked.
  app.head('/', async (_request, reply) => reply.status(200).send());

  app.post('/v1/messages', { onRequest: authenticate, bodyLimit: RELAY_BODY_LIMIT }, async (request, reply) => {
    const caller = callerOf(request);
    const input = await readInput('chat.completions', request, 'claude');
    input.forwardHeaders = forwardedHeaders(request, input.body);
    input.betaQuery = betaQuery(request);
    checkModelLimit(caller, input.model);
    await relay(ctx, request, reply, tokenCaller(caller), input);
    return reply;
  });

  // Claude Code asks for a prompt's size before sending it: the Claude channel's count, else a local one.
  app.post('/v1/messages/count_tokens', { onRequest: authenticate, bodyLimit: RELAY_BODY_LIMIT }, async (request) => {
    const caller = callerOf(request);
    const input = await readInput('chat.completions', request, 'claude');
    return countPromptTokens(ctx, {
      protocol: 'claude',
      model: input.model,
      body: countBody(input.body ?? {}),
      group: caller.group,
      pinnedChannelId: caller.pinnedChannelId,
      forwardHeaders: forwardedHeaders(request, input.body),
      betaQuery: betaQuery(request),
    });
  });
}
