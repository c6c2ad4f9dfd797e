/**
 * Gemini-format clients (the Google Gen AI SDKs): `POST /v1beta/models/{model}:generateContent`,
 * `:streamGenerateContent?alt=sse`, `:embedContent` and `:batchEmbedContents`, keyed by
 * `x-goog-api-key` or `?key=` — passed through to Gemini channels, converted for every other
 * channel (embeddings through OpenAI's /v1/embeddings). Errors answer in Google's error shape.
 */
import type { FastifyInstance } from 'fastify';
import type { GatewayContext } from '../context.js';
import { refuse } from '../http/errors.js';
import { answerIn } from '../http/wire.js';
import { relayErrors } from './errors.js';
import { resolveCaller } from './caller.js';
import { relay } from './pipeline.js';
import type { RelayInput } from './types.js';
import { RELAY_BODY_LIMIT, checkModelLimit, tokenCaller } from './request.js';

const CHAT_ACTIONS = new Set(['generateContent', 'streamGenerateContent']);
const EMBED_ACTIONS = new Set(['embedContent', 'batchEmbedContents']);

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const hasContent = (r: unknown) => isObject(r) && isObject(r.content) && Array.isArray(r.content.parts);

/** What an embedding body must hold: a content, or (batch) a non-empty list of requests with one each. */
function checkEmbedBody(action: string, body: Record<string, unknown>): void {
  if (action === 'embedContent') {
    if (!hasContent(body) || 'requests' in body) throw relayErrors.badBody('content.parts is required');
    return;
  }
  if (!Array.isArray(body.requests) || body.requests.length === 0 || !body.requests.every(hasContent))
    throw relayErrors.badBody('requests must be a non-empty list, each with content.parts');
}

export default async function geminiRoutes(app: FastifyInstance): Promise<void> {
  const ctx: GatewayContext = app.ctx;

  answerIn(app, 'gemini');

  app.post('/v1beta/models/:target', { bodyLimit: RELAY_BODY_LIMIT }, async (request, reply) => {
    const { target } = request.params as { target: string };
    const at = target.lastIndexOf(':');
    const model = at > 0 ? target.slice(0, at) : '';
    const action = at > 0 ? target.slice(at + 1) : '';
    const embed = EMBED_ACTIONS.has(action);
    if (!model || !(embed || CHAT_ACTIONS.has(action)))
      throw refuse(404, 'not_found', { method: target }, 'invalid_request_error');
    const caller = await resolveCaller(ctx, request);
    const body = request.body;
    if (!isObject(body)) throw relayErrors.badBody('request body must be a JSON object');
    if (embed) checkEmbedBody(action, body);
    const input: RelayInput = {
      endpoint: embed ? 'embeddings' : 'chat.completions',
      body,
      raw: null,
      contentType: 'application/json',
      model,
      stream: action === 'streamGenerateContent',
      client: 'gemini',
    };
    checkModelLimit(caller, model);
    await relay(ctx, request, reply, tokenCaller(caller), input);
    return reply;
  });
}
