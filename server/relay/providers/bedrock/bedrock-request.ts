/**
 * The pieces of a Bedrock InvokeModel call for Claude: the runtime URL for a model, the body (the
 * Claude Messages body without `model` and `stream`, with Bedrock's `anthropic_version` and the
 * `anthropic-beta` header's values as `anthropic_beta`), and the message of an error answer.
 */
import type { ChannelAccess } from '../types.js';
import { upstreamErrorMessage } from '../../call/call-upstream.js';
import { claudeErrorOf } from '../../wire/claude/convert-claude-response.js';
import { parseAwsKey, regionOf, type AwsKey } from './bedrock-key.js';
import { bedrockModelId } from './bedrock-models.js';
import { ChannelConfigError } from '../channel-config-error.js';

export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';

/** The channel's key, or an error naming what is wrong with it (never the key itself). */
export function awsKeyOf(channel: ChannelAccess): AwsKey {
  const parsed = parseAwsKey(channel.key);
  if (!parsed.ok) throw new ChannelConfigError(parsed.message);
  return parsed.key;
}

/** `POST {origin}/model/{modelId}/invoke[-with-response-stream]`; the channel's base URL replaces the regional origin. */
export function invokeUrl(channel: ChannelAccess, model: string, stream: boolean): string {
  const region = regionOf(channel.key);
  const origin = (channel.base_url || `https://bedrock-runtime.${region}.amazonaws.com`).replace(/\/+$/, '');
  const action = stream ? 'invoke-with-response-stream' : 'invoke';
  return `${origin}/model/${encodeURIComponent(bedrockModelId(model, region))}/${action}`;
}

/** A Claude Messages body as Bedrock takes it. `beta` is the `anthropic-beta` header's value, if any. */
export function bedrockBody(claude: Record<string, unknown>, beta: string | undefined): string {
  const body: Record<string, unknown> = { ...claude, anthropic_version: BEDROCK_ANTHROPIC_VERSION };
  delete body.model;
  delete body.stream;
  const betas = (beta ?? '')
    .split(',')
    .map((b) => b.trim())
    .filter((b) => b !== '');
  if (betas.length > 0) body.anthropic_beta = betas;
  return JSON.stringify(body);
}

/** Bedrock answers errors as `{"message": …}` (some services `{"Message": …}`); Claude's own shape is read too. */
export function bedrockErrorMessage(text: string, status: number): string {
  try {
    const parsed = JSON.parse(text) as { message?: unknown; Message?: unknown };
    const claudeError = claudeErrorOf(parsed);
    if (claudeError) return claudeError.message;
    if (typeof parsed.message === 'string') return parsed.message;
    if (typeof parsed.Message === 'string') return parsed.Message;
  } catch {
    /* not JSON */
  }
  return upstreamErrorMessage(text, status);
}
