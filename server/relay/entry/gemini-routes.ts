/**
 * Gemini-format clients (the Google Gen AI SDKs): `POST /v1beta/models/{model}:generateContent`,
 * `:streamGenerateContent?alt=sse`, `:embedContent`, `:batchEmbedContents` and `:countTokens`, keyed by
 * `x-goog-api-key` or `?key=` — passed through to Gemini channels, converted for every other
 * channel (embeddings through OpenAI's /v1/embeddings). Errors answer in Google's error shape.
 */
import type { FastifyInstance } from 'fastify';
import type { GatewayContext } from '../../context.js';
import { refuse } from '../../http/errors.js';
import { answerIn } from '../../http/wire.js';
import { authenticateCaller, callerOf } from './identify-caller.js';
import { readJsonBodies } from '../../http/json-body.js';
import { relay } from '../call/relay-call.js';
import type { RelayInput } from '../types.js';
import { RELAY_BODY_LIMIT, checkModelLimit, tokenCaller, withClientBeta } from './read-request.js';
import { clientFormat } from '../wire/registry.js';
import { countPromptTokens } from '../call/count-tokens.js';
import { relayErrors } from '../errors.js';

const CHAT_ACTIONS = new Set(['generateContent', 'streamGenerateContent']);
const EMBED_ACTIONS = new Set(['embedContent', 'batchEmbedContents']);

export default async function geminiRoutes(app: FastifyInstance): Promise<void> {
  const ctx: GatewayContext = app.ctx;

  answerIn(app, 'gemini');
  readJsonBodies(app);
  const authenticate = authenticateCaller(ctx);

  app.post('/v1beta/models/:target', { onRequest: authenticate, bodyLimit: RELAY_BODY_LIMIT }, async (request, reply) => {
    const { target } = request.params as { target: string };
    const at = target.lastIndexOf(':');
    const model = at > 0 ? target.slice(0, at) : '';
    const action = at > 0 ? target.slice(at + 1) : '';
    const embed = EMBED_ACTIONS.has(action);
    const count = action === 'countTokens';
    if (!model || !(embed || count || CHAT_ACTIONS.has(action)))
      throw refuse(404, 'not_found', { method: target }, 'invalid_request_error');
    const caller = callerOf(request);
    if (count) {
      // Free: the Gemini channel's own count, else a local one.
      const body = request.body as Record<string, unknown> | null;
      const generate = body && typeof body === 'object' ? body.generateContentRequest : undefined;
      if (!body || typeof body !== 'object' || !(Array.isArray(body.contents) || (generate && typeof generate === 'object')))
        throw relayErrors.badBody('contents or generateContentRequest is required');
      return countPromptTokens(ctx, {
        protocol: 'gemini',
        model,
        body,
        group: caller.group,
        pinnedChannelId: caller.pinnedChannelId,
      });
    }
    const body = clientFormat('gemini').check(embed ? 'embeddings' : 'chat.completions', request.body, action);
    const input: RelayInput = withClientBeta(
      {
        endpoint: embed ? 'embeddings' : 'chat.completions',
        body,
        raw: null,
        contentType: 'application/json',
        model,
        stream: action === 'streamGenerateContent',
        client: 'gemini',
      },
      request,
    );
    checkModelLimit(caller, model);
    await relay(ctx, request, reply, tokenCaller(caller), input);
    return reply;
  });
}
