/**
 * Baidu access tokens: a channel key `ak|sk` is exchanged at `/oauth/2.0/token` (client
 * credentials) for a token valid about 30 days. Tokens are cached until shortly before they
 * expire, and concurrent requests for one key share a single fetch. The cache is given its clock and each
 * call its fetcher, so it is tested alone.
 */

export interface FetchedToken {
  token: string;
  /** Seconds the token stays valid. */
  expiresIn: number;
}

/** A failed token fetch, with the status to answer with (401 for bad credentials). */
export class TokenError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** Refresh this long before the upstream's expiry (or at half the lifetime for short-lived tokens). */
const REFRESH_MARGIN_S = 3600;

export class AccessTokenCache {
  private readonly tokens = new Map<string, { token: string; refreshAt: number }>();
  private readonly inFlight = new Map<string, Promise<string>>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A valid token for `cacheKey`, fetched only when none is cached or it is about to expire. */
  get(cacheKey: string, fetchToken: () => Promise<FetchedToken>): Promise<string> {
    const cached = this.tokens.get(cacheKey);
    if (cached && this.now() < cached.refreshAt) return Promise.resolve(cached.token);
    const pending = this.inFlight.get(cacheKey);
    if (pending) return pending;
    const fetching = fetchToken()
      .then(({ token, expiresIn }) => {
        const margin = Math.min(REFRESH_MARGIN_S, expiresIn / 2);
        this.tokens.set(cacheKey, { token, refreshAt: this.now() + (expiresIn - margin) * 1000 });
        return token;
      })
      .finally(() => this.inFlight.delete(cacheKey));
    this.inFlight.set(cacheKey, fetching);
    return fetching;
  }

  /** Forgets `token` (the upstream refused it); a newer token for the key is kept. */
  invalidate(cacheKey: string, token: string): void {
    if (this.tokens.get(cacheKey)?.token === token) this.tokens.delete(cacheKey);
  }
}

/** `ak|sk` split; null when the key is not of that form. */
export function splitBaiduKey(key: string): { ak: string; sk: string } | null {
  const parts = key.split('|');
  if (parts.length !== 2 || !parts[0]?.trim() || !parts[1]?.trim()) return null;
  return { ak: parts[0].trim(), sk: parts[1].trim() };
}

/** The token URL for a base address and key. */
export function tokenUrl(base: string, ak: string, sk: string): string {
  const query = new URLSearchParams({ grant_type: 'client_credentials', client_id: ak, client_secret: sk });
  return `${base}/oauth/2.0/token?${query.toString()}`;
}

/** The token endpoint's answer: the token, or a TokenError with Baidu's description. */
export function parseTokenAnswer(status: number, text: string): FetchedToken {
  let payload: Record<string, unknown> = {};
  try {
    payload = (JSON.parse(text) ?? {}) as Record<string, unknown>;
  } catch {
    /* not JSON */
  }
  const token = payload.access_token;
  if (status >= 200 && status < 300 && typeof token === 'string' && token !== '') {
    const expiresIn = typeof payload.expires_in === 'number' && payload.expires_in > 0 ? payload.expires_in : 86400;
    return { token, expiresIn };
  }
  const description = String(payload.error_description ?? payload.error ?? (text.slice(0, 200) || `HTTP ${status}`));
  const badCredentials = payload.error === 'invalid_client' || status === 401;
  throw new TokenError(`获取百度 access_token 失败：${description}`, badCredentials ? 401 : status >= 400 ? status : 502);
}
