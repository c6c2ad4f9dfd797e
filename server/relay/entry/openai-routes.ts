/**
 * The relay's routes: OpenAI-compatible `/v1/*`, the playground's `/pg/chat/completions`, and the
 * old OpenAI billing shapes. Errors here answer in OpenAI's shape, not the console's envelope.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireUser } from '../../auth/guard.js';
import { refuse } from '../../http/errors.js';
import { answerIn } from '../../http/wire.js';
import type { GatewayContext } from '../../context.js';
import { findTokenUsedQuota } from '../../tokens/repository.js';
import { findUserUsedQuota } from '../../users/repository.js';
import { ENDPOINTS, type Endpoint } from '../endpoints.js';
import { relayErrors } from '../errors.js';
import { authenticateCaller, callerOf } from './identify-caller.js';
import { readJsonBodies } from '../../http/json-body.js';
import { relay } from '../call/relay-call.js';
import { RELAY_BODY_LIMIT, checkModelLimit, readInput, tokenCaller } from './read-request.js';
import { compactsById } from '../wire/openai/responses-compact.js';

/** Codex's session headers: OpenAI routes a session's calls by them (prompt cache), so a Responses upstream gets them. */
const SESSION_HEADERS = ['session_id', 'session-id', 'conversation_id', 'thread-id'] as const;

function sessionHeaders(request: FastifyRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of SESSION_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  return headers;
}

export default async function relayRoutes(app: FastifyInstance): Promise<void> {
  const ctx: GatewayContext = app.ctx;

  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: RELAY_BODY_LIMIT }, (_req, body, done) =>
    done(null, body),
  );

  answerIn(app, 'openai');
  readJsonBodies(app);
  const authenticate = authenticateCaller(ctx);

  for (const endpoint of Object.keys(ENDPOINTS) as Endpoint[]) {
    app.post(`/v1${ENDPOINTS[endpoint]}`, { onRequest: authenticate, bodyLimit: RELAY_BODY_LIMIT }, async (request, reply) => {
      const caller = callerOf(request);
      const input = await readInput(endpoint, request);
      if (endpoint === 'responses') input.forwardHeaders = sessionHeaders(request);
      checkModelLimit(caller, input.model);
      await relay(ctx, request, reply, tokenCaller(caller), input);
      return reply;
    });
  }

  // Codex's remote compaction: relayed to Responses upstreams, a summarising call elsewhere (wire/openai/responses-compact.ts).
  app.post('/v1/responses/compact', { onRequest: authenticate, bodyLimit: RELAY_BODY_LIMIT }, async (request, reply) => {
    const caller = callerOf(request);
    const input = await readInput('responses', request);
    const { stream: _stream, ...body } = input.body ?? {};
    // previous_response_id alone goes only to a Responses upstream, which stored that response (responses-compact.ts).
    const given = body.input;
    if ((given === undefined || given === '' || (Array.isArray(given) && given.length === 0)) && !compactsById(body))
      throw relayErrors.badBody('input is required: nothing is stored here to compact by previous_response_id');
    checkModelLimit(caller, input.model);
    const forwardHeaders = sessionHeaders(request);
    await relay(ctx, request, reply, tokenCaller(caller), { ...input, body, stream: false, compact: true, forwardHeaders });
    return reply;
  });

  app.post('/pg/chat/completions', { onRequest: requireUser, bodyLimit: RELAY_BODY_LIMIT }, async (request, reply) => {
    const user = request.user!;
    const input = await readInput('chat.completions', request);
    const wanted = (input.body?.group as string | undefined) || user.group;
    const usable = ctx.options.json<Record<string, string>>('UserUsableGroups');
    if (wanted !== user.group && !Object.hasOwn(usable, wanted)) throw relayErrors.groupDenied(wanted);
    const { group: _group, ...body } = input.body ?? {};
    let accept = false;
    try {
      accept = Boolean(JSON.parse(user.setting || '{}').accept_unset_model_ratio_model);
    } catch {
      accept = false;
    }
    await relay(
      ctx,
      request,
      reply,
      {
        userId: user.id,
        username: user.username,
        group: wanted,
        tokenId: 0,
        tokenName: 'playground',
        tokenTpmLimit: 0,
        unlimitedToken: true,
        userQuotaHint: user.quota,
        tokenQuotaHint: 0,
        acceptUnsetPrice: accept,
        pinnedChannelId: null,
      },
      { ...input, body },
    );
    return reply;
  });

  /** The models the caller's token reaches. */
  const modelsOf = (request: FastifyRequest): string[] => {
    const caller = callerOf(request);
    const models = ctx.channels.models(caller.group);
    return caller.token.model_limits_enabled ? models.filter((m) => caller.token.model_limits.has(m)) : models;
  };

  // Answered in the caller's format: Claude clients send `anthropic-version`, Gemini clients a Google key.
  app.get('/v1/models', { onRequest: authenticate }, async (request) => {
    const models = modelsOf(request);
    if (request.headers['anthropic-version']) {
      const data = models.map((id) => ({ type: 'model', id, display_name: id, created_at: '2024-01-01T00:00:00Z' }));
      return { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
    }
    return { object: 'list', data: models.map((id) => ({ id, object: 'model', created: 1626777600, owned_by: 'custom' })) };
  });

  app.get('/v1beta/models', { onRequest: authenticate }, async (request) => {
    const models = modelsOf(request);
    return {
      models: models.map((id) => ({
        name: `models/${id}`,
        displayName: id,
        supportedGenerationMethods: ['generateContent', 'streamGenerateContent'],
      })),
    };
  });

  app.get('/v1/models/:model', { onRequest: authenticate }, async (request) => {
    const caller = callerOf(request);
    const { model } = request.params as { model: string };
    if (!ctx.channels.models(caller.group).includes(model)) {
      throw refuse(404, 'model_does_not_exist', { model }, 'invalid_request_error');
    }
    return { id: model, object: 'model', created: 1626777600, owned_by: 'custom' };
  });

  const billing = async (request: FastifyRequest) => {
    const caller = callerOf(request);
    const perUnit = ctx.options.number('QuotaPerUnit');
    const quota = caller.token.unlimited_quota ? caller.user.quota : caller.token.remain_quota;
    const usd = quota / perUnit;
    return {
      object: 'billing_subscription',
      has_payment_method: true,
      soft_limit_usd: usd,
      hard_limit_usd: usd,
      system_hard_limit_usd: usd,
      access_until: caller.token.expired_time === -1 ? 0 : caller.token.expired_time,
    };
  };
  app.get('/dashboard/billing/subscription', { onRequest: authenticate }, billing);
  app.get('/v1/dashboard/billing/subscription', { onRequest: authenticate }, billing);
  const usage = async (request: FastifyRequest) => {
    const caller = callerOf(request);
    const tokenUsed = await findTokenUsedQuota(ctx.db, caller.token.id);
    const used = caller.token.unlimited_quota ? ((await findUserUsedQuota(ctx.db, caller.user.id)) ?? 0) : (tokenUsed ?? 0);
    return { object: 'list', total_usage: (used / ctx.options.number('QuotaPerUnit')) * 100 };
  };
  app.get('/dashboard/billing/usage', { onRequest: authenticate }, usage);
  app.get('/v1/dashboard/billing/usage', { onRequest: authenticate }, usage);
}
