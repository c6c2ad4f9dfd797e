/** Reading a relay request: who pays, and what is asked, from the HTTP request. */
import type { FastifyRequest } from 'fastify';
import type { Endpoint } from '../endpoints.js';
import { relayErrors } from '../errors.js';
import type { Caller } from './identify-caller.js';
import type { ClientFormat, RelayCaller, RelayInput } from '../types.js';
import { clientFormat } from '../wire/registry.js';
import { imageEditProblem } from '../wire/openai/image-edit-form.js';

/** Prompts with images or audio are large. */
export const RELAY_BODY_LIMIT = 64 * 1024 * 1024;

const MULTIPART: ReadonlySet<Endpoint> = new Set(['audio.transcriptions', 'audio.translations', 'images.edits']);

export function tokenCaller(c: Caller): RelayCaller {
  return {
    userId: c.user.id,
    username: c.user.username,
    group: c.group,
    tokenId: c.token.id,
    tokenName: c.token.name,
    tokenTpmLimit: c.token.tpm_limit,
    unlimitedToken: c.token.unlimited_quota,
    userQuotaHint: c.user.quota,
    tokenQuotaHint: c.token.remain_quota,
    acceptUnsetPrice: c.user.acceptUnsetModelRatio,
    pinnedChannelId: c.pinnedChannelId,
    requestLimits: {
      concurrency: c.token.max_concurrency,
      rpm: c.token.rpm_limit,
      rpd: c.token.rpd_limit,
      userRpd: c.user.rpdLimit,
    },
    modelLimits: c.token.model_limits_enabled ? c.token.model_limits : null,
  };
}

export async function readInput(
  endpoint: Endpoint,
  request: FastifyRequest,
  client: ClientFormat = 'openai',
): Promise<RelayInput> {
  const contentType = String(request.headers['content-type'] ?? 'application/json');
  if (MULTIPART.has(endpoint) && Buffer.isBuffer(request.body)) {
    const form = await new Response(new Uint8Array(request.body), { headers: { 'content-type': contentType } })
      .formData()
      .catch(() => null);
    const model = form?.get('model');
    if (typeof model !== 'string' || model === '') throw relayErrors.modelRequired();
    const problem = endpoint === 'images.edits' && form ? await imageEditProblem(form) : null;
    if (problem) throw relayErrors.badBody(problem);
    return { endpoint, body: null, raw: request.body, contentType, model, stream: false, client };
  }
  const body = request.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw relayErrors.badBody('request body must be a JSON object');
  const model = (body as Record<string, unknown>).model;
  if (typeof model !== 'string' || model.trim() === '') throw relayErrors.modelRequired();
  const record = clientFormat(client).check(endpoint, body);
  return withClientBeta(
    { endpoint, body: record, raw: null, contentType: 'application/json', model, stream: record.stream === true, client },
    request,
  );
}

/** Agents on OpenAI's or Gemini's format may ask Claude's betas too: kept for a Claude channel. */
export function withClientBeta(input: RelayInput, request: FastifyRequest): RelayInput {
  const beta = request.headers['anthropic-beta'];
  if (typeof beta === 'string' && beta !== '') input.anthropicBeta = beta;
  return input;
}

export function checkModelLimit(c: Caller, model: string): void {
  if (c.token.model_limits_enabled && !c.token.model_limits.has(model)) throw relayErrors.modelDenied(model);
}
