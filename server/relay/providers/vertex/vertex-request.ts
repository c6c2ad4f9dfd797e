/**
 * The shared pieces of Vertex AI calls: the bearer token (checked account and region first), the
 * Claude body as Vertex takes it, and answers and errors read in either protocol.
 */
import type { Usage } from '../../../billing/pricing.js';
import type { ChannelAccess } from '../types.js';
import { upstreamErrorMessage } from '../../call/call-upstream.js';
import { claudeAnswerFor } from '../../wire/claude/structured-output.js';
import { convertGeminiResponse, parseGeminiError } from '../../wire/gemini/convert-gemini-response.js';
import type { GeminiResponse } from '../../wire/gemini/gemini-api-types.js';
import { parseServiceAccount } from './service-account.js';
import { createTokenSource } from './vertex-token.js';
import { isRegionName, vertexRegion } from './vertex-urls.js';
import { ChannelConfigError } from '../channel-config-error.js';

export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

const tokens = createTokenSource();

/** `authorization: Bearer …` for a call to `model`; fails with a clear message on a bad key or region. */
export async function authorizationFor(channel: ChannelAccess, model: string): Promise<Record<string, string>> {
  const parsed = parseServiceAccount(channel.key);
  if (!parsed.ok) throw new ChannelConfigError(parsed.message);
  const region = vertexRegion(channel.other, model);
  if (!isRegionName(region)) throw new ChannelConfigError(`Vertex AI 区域格式不正确：${region.slice(0, 64)}`);
  return { authorization: `Bearer ${await tokens.get(parsed.account)}` };
}

/** A Claude Messages body as Vertex takes it: no `model` (it is in the URL), `anthropic_version` in the body. */
export function vertexClaudeBody(claude: Record<string, unknown>, stream: boolean): string {
  const body: Record<string, unknown> = { ...claude, anthropic_version: VERTEX_ANTHROPIC_VERSION };
  delete body.model;
  if (stream) body.stream = true;
  else delete body.stream;
  return JSON.stringify(body);
}

/** A client body sent on unchanged but for a `model` field, which Vertex takes only in the URL. */
export function withoutModel(body: string | Buffer): string | Buffer {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString());
  } catch {
    return body;
  }
  if (!parsed || typeof parsed !== 'object' || !('model' in parsed)) return body;
  const rest: Record<string, unknown> = { ...(parsed as Record<string, unknown>) };
  delete rest.model;
  return JSON.stringify(rest);
}

function isClaudeMessage(payload: unknown): boolean {
  return !!payload && typeof payload === 'object' && (payload as { type?: unknown }).type === 'message';
}

/**
 * A whole answer as OpenAI chat. Read by its shape, not by the model: a channel test holds the
 * channel type's definition while the call itself went out in the model's protocol.
 */
export function vertexAnswer(
  payload: unknown,
  model: string,
  request?: Record<string, unknown>,
): { completion: unknown; usage: Usage | null } {
  if (isClaudeMessage(payload)) return claudeAnswerFor(payload, model, request);
  return convertGeminiResponse(payload as GeminiResponse, { model });
}

/** Google's `{error: {code, message, status}}` and Claude's `{type: 'error', error: {type, message}}` both carry `error.message`. */
export function vertexErrorMessage(text: string, status: number): string {
  return parseGeminiError(text)?.message ?? upstreamErrorMessage(text, status);
}
