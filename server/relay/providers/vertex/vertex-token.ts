/**
 * Google OAuth access tokens for a service account: a JWT signed with the account's RSA key (RS256)
 * exchanged at the account's token URI (RFC 7523 JWT bearer grant). Tokens are cached per account
 * until shortly before they expire, and concurrent requests for one account share one fetch.
 */
import { createHash, createPrivateKey, sign, type KeyObject } from 'node:crypto';
import { privateUpstreamsAllowed, safeFetch } from '../../../http/safe-fetch.js';
import type { ServiceAccount } from './service-account.js';
import { ChannelConfigError } from '../channel-config-error.js';

export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** Lifetime asked for an assertion (Google's maximum). */
const ASSERTION_SECONDS = 3600;
/** A token is renewed this long before it expires. */
const REFRESH_MARGIN_MS = 5 * 60_000;
const TOKEN_TIMEOUT_MS = 15_000;

export interface TokenGrant {
  accessToken: string;
  expiresInSeconds: number;
}

const base64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

function privateKeyOf(account: ServiceAccount): KeyObject {
  try {
    return createPrivateKey(account.privateKey);
  } catch {
    throw new ChannelConfigError('Vertex AI 服务账号的 private_key 无法读取');
  }
}

/** The signed assertion for `account`, issued at `nowSeconds`. */
export function createJwtAssertion(account: ServiceAccount, nowSeconds: number): string {
  const header = { alg: 'RS256', typ: 'JWT', ...(account.privateKeyId ? { kid: account.privateKeyId } : {}) };
  const claims = {
    iss: account.clientEmail,
    scope: CLOUD_PLATFORM_SCOPE,
    aud: account.tokenUri,
    iat: nowSeconds,
    exp: nowSeconds + ASSERTION_SECONDS,
  };
  const unsigned = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
  return `${unsigned}.${sign('RSA-SHA256', Buffer.from(unsigned), privateKeyOf(account)).toString('base64url')}`;
}

/** Exchanges a fresh assertion for an access token at the account's token URI. */
export async function exchangeAssertion(account: ServiceAccount): Promise<TokenGrant> {
  const assertion = createJwtAssertion(account, Math.floor(Date.now() / 1000));
  let status: number;
  let text: string;
  try {
    const res = await safeFetch(account.tokenUri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion }).toString(),
      allowPrivate: privateUpstreamsAllowed(),
      timeoutMs: TOKEN_TIMEOUT_MS,
      maxRedirects: 0,
    });
    status = res.status;
    text = res.text();
  } catch (err) {
    throw new Error(`Vertex AI 访问令牌获取失败：${(err as Error).message}`);
  }
  let body: { access_token?: unknown; expires_in?: unknown; error?: unknown; error_description?: unknown } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    /* reported below */
  }
  if (status !== 200 || typeof body.access_token !== 'string' || body.access_token === '') {
    const reason = [body.error, body.error_description].filter((s) => typeof s === 'string' && s !== '').join(': ');
    // A refusal of the credentials (4xx) is the channel's; anything else is a failed exchange.
    const Failure = status >= 400 && status < 500 ? ChannelConfigError : Error;
    throw new Failure(`Vertex AI 访问令牌获取失败（${status}）：${reason || text.slice(0, 200) || '无可用令牌'}`);
  }
  const expires = Number(body.expires_in);
  return { accessToken: body.access_token, expiresInSeconds: Number.isFinite(expires) && expires > 0 ? expires : 3600 };
}

export interface TokenSource {
  /** A valid access token for the account: cached, or fetched once for all who ask at the same time. */
  get(account: ServiceAccount): Promise<string>;
}

export function createTokenSource(
  exchange: (account: ServiceAccount) => Promise<TokenGrant> = exchangeAssertion,
  now: () => number = Date.now,
): TokenSource {
  const cached = new Map<string, { token: string; renewAt: number }>();
  const pending = new Map<string, Promise<string>>();
  const keyOf = (account: ServiceAccount) =>
    `${account.clientEmail}\n${account.tokenUri}\n${createHash('sha256').update(account.privateKey).digest('hex')}`;

  const fetchFor = async (key: string, account: ServiceAccount): Promise<string> => {
    try {
      const grant = await exchange(account);
      const lifetime = grant.expiresInSeconds * 1000;
      // Short-lived tokens are renewed at half their life rather than never being cached.
      const renewAt = now() + (lifetime > 2 * REFRESH_MARGIN_MS ? lifetime - REFRESH_MARGIN_MS : lifetime / 2);
      for (const [k, entry] of cached) if (entry.renewAt <= now()) cached.delete(k);
      cached.set(key, { token: grant.accessToken, renewAt });
      return grant.accessToken;
    } finally {
      pending.delete(key);
    }
  };

  return {
    get(account) {
      const key = keyOf(account);
      const hit = cached.get(key);
      if (hit && now() < hit.renewAt) return Promise.resolve(hit.token);
      let inFlight = pending.get(key);
      if (!inFlight) {
        inFlight = fetchFor(key, account);
        pending.set(key, inFlight);
      }
      return inFlight;
    },
  };
}
