/**
 * Ratio sync, the fetching half: which addresses to read, and reading each through the SSRF-safe
 * fetcher under the caller's timeout (at most 30 s) and a size cap. Whatever an upstream does wrong
 * (refused address, timeout, HTTP error, too large, not JSON, another shape) becomes that
 * upstream's test result, never a failure of the whole request.
 */
import { privateUpstreamsAllowed, safeFetch, SafeFetchError, vetUrl } from '../http/safe-fetch.js';
import { fail } from '../http/errors.js';
import { parseUpstreamAnswer, type UpstreamRatios } from './ratio-sync.js';

/** The largest answer read from an upstream. */
export const RATIO_SYNC_MAX_BYTES = 4 * 1024 * 1024;
export const DEFAULT_TIMEOUT_SECONDS = 10;
export const DEFAULT_ENDPOINT = '/api/ratio_config';
const CONCURRENCY = 8;

export interface Upstream {
  id?: number;
  name: string;
  base_url: string;
  endpoint?: string;
}

export interface TestResult {
  name: string;
  status: 'success' | 'error';
  error?: string;
}

const isWebUrl = (value: string) => /^https?:\/\//i.test(value);

/** The address read: a full URL endpoint as it is, else the endpoint's path under the base URL. */
export function upstreamUrl(upstream: Upstream): string {
  const endpoint = upstream.endpoint?.trim() || DEFAULT_ENDPOINT;
  if (isWebUrl(endpoint)) return endpoint;
  return upstream.base_url.trim().replace(/\/+$/, '') + (endpoint.startsWith('/') ? endpoint : `/${endpoint}`);
}

/** The name an upstream has in the answer: `name(id)` when it has an id, as the family's console expects. */
export const displayName = (upstream: Upstream): string => (upstream.id ? `${upstream.name}(${upstream.id})` : upstream.name);

/**
 * Refuses, before anything is fetched, an upstream typed into the request whose address is not a
 * web address or is one the safe fetcher would refuse.
 */
export async function vetUpstreams(upstreams: Upstream[]): Promise<void> {
  for (const upstream of upstreams) {
    if (!isWebUrl(upstream.base_url.trim())) throw fail('ratio_sync.bad_url', { url: upstream.base_url });
    if (upstream.endpoint?.trim() === 'openrouter') throw fail('ratio_sync.unsupported_endpoint', { endpoint: 'openrouter' });
    const url = upstreamUrl(upstream);
    // models.dev's catalogue is not a gateway's price list; it is not converted here.
    if (!URL.canParse(url)) throw fail('ratio_sync.bad_url', { url });
    if (new URL(url).hostname.toLowerCase() === 'models.dev') throw fail('ratio_sync.unsupported_endpoint', { endpoint: url });
    try {
      await vetUrl(url, { allowPrivate: privateUpstreamsAllowed() });
    } catch (err) {
      throw fail('ratio_sync.blocked_url', { url, detail: (err as Error).message });
    }
  }
}

async function readOne(upstream: Upstream, timeoutSeconds: number): Promise<UpstreamRatios> {
  const res = await safeFetch(upstreamUrl(upstream), {
    headers: { accept: 'application/json' },
    allowPrivate: privateUpstreamsAllowed(),
    timeoutMs: timeoutSeconds * 1000,
    maxBytes: RATIO_SYNC_MAX_BYTES,
  });
  if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
  return { name: displayName(upstream), data: parseUpstreamAnswer(res.text()) };
}

/** Reads every upstream, a few at a time; the answers that could be read, and a result for each. */
export async function readUpstreams(
  upstreams: Upstream[],
  timeoutSeconds: number,
): Promise<{ read: UpstreamRatios[]; results: TestResult[] }> {
  const outcomes: Array<UpstreamRatios | Error> = new Array(upstreams.length);
  let next = 0;
  const worker = async () => {
    while (next < upstreams.length) {
      const at = next++;
      try {
        outcomes[at] = await readOne(upstreams[at]!, timeoutSeconds);
      } catch (err) {
        outcomes[at] = err instanceof SafeFetchError || err instanceof Error ? err : new Error(String(err));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, upstreams.length) }, worker));
  const read: UpstreamRatios[] = [];
  const results: TestResult[] = upstreams.map((upstream, i) => {
    const outcome = outcomes[i]!;
    if (outcome instanceof Error) return { name: displayName(upstream), status: 'error', error: outcome.message };
    read.push(outcome);
    return { name: outcome.name, status: 'success' };
  });
  return { read, results };
}
