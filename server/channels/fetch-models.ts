/**
 * The model list an upstream offers (`GET …/models`), for filling a channel's models. A stored
 * channel is asked through the relay's connection pool (which applies the upstream address rule,
 * server/http/upstream-guard.ts, as for its calls); a base URL typed into the request body goes
 * through the SSRF-safe fetcher under the same rule.
 */
import { request } from 'undici';
import type { Channel } from '../db/types.js';
import { fail } from '../http/errors.js';
import { safeFetch, SafeFetchError } from '../http/safe-fetch.js';
import { withHeaderOverride } from './header-override.js';
import { ENDPOINTS } from '../relay/endpoints.js';
import { providerFor } from '../relay/providers/registry.js';
import type { UpstreamTarget } from '../relay/call/call-upstream.js';
import { readText, upstreamAgent, upstreamErrorMessage } from '../relay/call/call-upstream.js';

const FETCH_TIMEOUT_MS = 15_000;

/** A channel's address; a stored channel's extra headers come with it (one being created has none yet). */
export type ChannelAddress = Pick<Channel, 'type' | 'key' | 'base_url' | 'other' | 'openai_organization'> & {
  header_override?: string | null;
};

/**
 * The root of a channel's OpenAI-style API (the URL its endpoint paths hang from, e.g.
 * `https://api.openai.com/v1`) and the headers that authenticate there, taken from the channel's
 * provider. Undefined for providers whose URLs are not of that form (Azure puts the model in the
 * path; others speak their own protocols).
 */
export function openAIStyleRoot(channel: ChannelAddress): UpstreamTarget | undefined {
  const provider = providerFor(channel.type);
  if (!provider?.supports('chat.completions')) return undefined;
  const suffix = ENDPOINTS['chat.completions'];
  const one = provider.target(channel, 'chat.completions', 'probe-model-a');
  const other = provider.target(channel, 'chat.completions', 'probe-model-b');
  if (one.url !== other.url) return undefined;
  let url: URL;
  try {
    url = new URL(one.url);
  } catch {
    return undefined;
  }
  if (url.search !== '' || !url.pathname.endsWith(suffix)) return undefined;
  const headers = withHeaderOverride(one.headers, { key: channel.key, header_override: channel.header_override ?? null });
  return { url: one.url.slice(0, -suffix.length), headers };
}

/** Model ids from an OpenAI-style list answer (`{data: [{id}]}`); fails with the upstream's message otherwise. */
export function parseModelList(status: number, text: string): string[] {
  if (status < 200 || status >= 300) throw fail('channel.models_failed', { detail: upstreamErrorMessage(text, status) });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw fail('channel.models_failed', { detail: '上游返回的不是 JSON' });
  }
  const data = (parsed as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) throw fail('channel.models_failed', { detail: '上游返回格式不正确' });
  const ids = data
    .map((m: unknown) => (m && typeof m === 'object' ? (m as { id?: unknown }).id : undefined))
    .filter((id): id is string => typeof id === 'string' && id !== '');
  return [...new Set(ids)];
}

/** The models a stored channel's upstream lists. */
export async function fetchChannelModels(channel: ChannelAddress): Promise<string[]> {
  const root = openAIStyleRoot(channel);
  if (!root) throw fail('channel.models_unsupported');
  let status: number;
  let text: string;
  try {
    const res = await request(`${root.url}/models`, {
      method: 'GET',
      headers: { ...root.headers, accept: 'application/json' },
      dispatcher: upstreamAgent,
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    status = res.statusCode;
    text = await readText(res);
  } catch (err) {
    if (err instanceof SafeFetchError && err.privateNetwork)
      throw fail('channel.models_private_upstream', { host: new URL(root.url).host });
    throw fail('channel.models_failed', { detail: (err as Error).message });
  }
  return parseModelList(status, text);
}

/** The first non-empty line of a key field (the console may send a batch of keys). */
export function firstKey(key: string | undefined): string {
  return (
    (key ?? '')
      .split('\n')
      .map((k) => k.trim())
      .find((k) => k !== '') ?? ''
  );
}

/**
 * The models an upstream lists at an address typed into the request: fetched through the
 * SSRF-safe fetcher, so it cannot reach the gateway's own network unless `allowPrivate`.
 */
export async function fetchModelsAt(
  input: { type: number; base_url?: string | null; key: string },
  allowPrivate: boolean,
): Promise<string[]> {
  const root = openAIStyleRoot({
    type: input.type,
    key: input.key,
    base_url: input.base_url?.trim() || null,
    other: null,
    openai_organization: null,
  });
  if (!root) throw fail('channel.models_unsupported');
  let status: number;
  let text: string;
  try {
    const res = await safeFetch(`${root.url}/models`, {
      headers: { ...root.headers, accept: 'application/json' },
      allowPrivate,
      timeoutMs: FETCH_TIMEOUT_MS,
    });
    status = res.status;
    text = res.text();
  } catch (err) {
    // A local upstream (Ollama on the same machine) is the common case: say how to allow it.
    if (err instanceof SafeFetchError && err.privateNetwork && !allowPrivate) {
      throw fail('channel.models_private_upstream', { host: new URL(root.url).host });
    }
    throw fail('channel.models_failed', { detail: (err as Error).message });
  }
  return parseModelList(status, text);
}
