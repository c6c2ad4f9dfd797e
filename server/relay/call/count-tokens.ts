/**
 * Token counting for Claude-format (`POST /v1/messages/count_tokens`) and Gemini-format
 * (`:countTokens`) clients. Counting is free: nothing is reserved, charged or logged. A channel of
 * the client's own protocol serving the model (Anthropic's API, Google's Gemini API) is asked, so
 * the figure is the provider's; otherwise — another protocol, or that upstream failing — the prompt
 * is counted locally: text, tools and system through the tokenizer, images by the provider's rule
 * (wire/prompt-count.ts).
 */
import { withKey } from '../../channels/keys/picker.js';
import type { GatewayContext } from '../../context.js';
import type { Channel } from '../../db/types.js';
import { claudePromptTokens, geminiPromptTokens } from '../wire/prompt-count.js';
import { providerFor } from '../providers/registry.js';
import { mapModel } from './map-model.js';
import { callUpstream, readText } from './call-upstream.js';
import { countTokensNow, loadTokenizer } from '../metering/tokenizer.js';
import { withHeaderOverride } from '../../channels/header-override.js';

type Json = Record<string, unknown>;

export interface CountRequest {
  protocol: 'claude' | 'gemini';
  model: string;
  body: Json;
  group: string;
  pinnedChannelId?: number | null | undefined;
  /** Client headers a Claude channel should see too (anthropic-beta). */
  forwardHeaders?: Record<string, string>;
  /** Claude Code's `?beta=true`, kept for Anthropic's API. */
  betaQuery?: boolean;
}

const TIMEOUT_MS = 15_000;

/** The provider's own count, or null when no channel of the protocol serves the model or it failed. */
async function askUpstream(channel: Channel, request: CountRequest): Promise<Json | null> {
  const mapped = mapModel(channel.model_mapping, request.model);
  if (!mapped.ok) return null;
  const provider = providerFor(channel.type, mapped.model);
  // Only the providers' own APIs: Bedrock and Vertex reach these models at addresses without counting.
  const own = request.protocol === 'claude' ? 'Claude' : 'Gemini';
  if (!provider || provider.name !== own) return null;
  const target = provider.target(channel, 'chat.completions', mapped.model);
  const url =
    request.protocol === 'claude'
      ? `${target.url}/count_tokens${request.betaQuery ? '?beta=true' : ''}`
      : target.url.replace(/:generateContent$/, ':countTokens');
  const body = request.protocol === 'claude' ? { ...request.body, model: mapped.model } : request.body;
  try {
    const res = await callUpstream(
      { url, headers: withHeaderOverride({ ...(request.forwardHeaders ?? {}), ...target.headers }, channel) },
      JSON.stringify(body),
      'application/json',
      AbortSignal.timeout(TIMEOUT_MS),
    );
    const text = await readText(res);
    if (res.statusCode !== 200) return null;
    const answer = JSON.parse(text) as unknown;
    return answer && typeof answer === 'object' ? (answer as Json) : null;
  } catch {
    return null;
  }
}

export async function countPromptTokens(ctx: GatewayContext, request: CountRequest): Promise<Json> {
  const channel = request.pinnedChannelId
    ? ctx.channels.get(request.pinnedChannelId)
    : ctx.channels.pick(request.group, request.model);
  const upstream = channel ? await askUpstream(withKey(ctx, channel, 0), request) : null;
  if (upstream) return upstream;
  await loadTokenizer();
  if (request.protocol === 'claude') return { input_tokens: claudePromptTokens(request.body, countTokensNow) };
  return { totalTokens: geminiPromptTokens(request.body, countTokensNow) };
}
