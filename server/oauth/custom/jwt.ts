/**
 * A signed JWT from a custom provider of kind `jwt_direct`, checked before its claims are believed:
 * an asymmetric signature (RSA, RSA-PSS, ECDSA, EdDSA; never `none` or a shared secret) by the
 * admin's PEM key or by the key of the provider's JWKS with the token's `kid` (read through the
 * SSRF-safe fetcher); `exp` required and not past, `nbf` and `iat` not ahead; `iss` and `aud` as
 * configured; a `nonce`, when the token has one, equal to this browser's state.
 */
import { constants, createPublicKey, verify, type KeyObject } from 'node:crypto';
import type { CustomOauthProvider } from '../../db/types.js';
import { fail } from '../../http/errors.js';
import { safeFetch, SafeFetchError } from '../../http/safe-fetch.js';

const LEEWAY_SECONDS = 60;
const JWKS_MAX_BYTES = 256 * 1024;

interface AlgSpec {
  hash: string | null;
  pss?: boolean;
  ec?: boolean;
}

const ALGS: Record<string, AlgSpec> = {
  RS256: { hash: 'sha256' },
  RS384: { hash: 'sha384' },
  RS512: { hash: 'sha512' },
  PS256: { hash: 'sha256', pss: true },
  PS384: { hash: 'sha384', pss: true },
  PS512: { hash: 'sha512', pss: true },
  ES256: { hash: 'sha256', ec: true },
  ES384: { hash: 'sha384', ec: true },
  ES512: { hash: 'sha512', ec: true },
  EdDSA: { hash: null },
};

export interface VerifiedJwt {
  claims: Record<string, unknown>;
  /** Seconds since the epoch when the token stops being valid. */
  exp: number;
}

function decodePart(part: string | undefined, reject: (d: string) => Error): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8'));
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // falls through to the refusal
  }
  throw reject('格式错误');
}

async function jwksKey(url: string, kid: string, reject: (d: string) => Error): Promise<KeyObject> {
  let keys: unknown;
  try {
    const res = await safeFetch(url, { headers: { Accept: 'application/json' }, timeoutMs: 10_000, maxBytes: JWKS_MAX_BYTES });
    if (res.status !== 200) throw reject(`JWKS 返回 HTTP ${res.status}`);
    keys = (JSON.parse(res.text()) as { keys?: unknown }).keys;
  } catch (err) {
    if (err instanceof SafeFetchError) throw reject(`无法读取 JWKS（${err.message}）`);
    if (err instanceof SyntaxError) throw reject('JWKS 不是 JSON');
    throw err;
  }
  const list = Array.isArray(keys) ? (keys as Array<Record<string, unknown>>) : [];
  const match = list.filter((k) => k && typeof k === 'object' && (kid === '' || k.kid === kid));
  if (match.length !== 1) throw reject(kid ? `JWKS 中没有 kid 为 ${kid} 的密钥` : 'JWKS 中的密钥不唯一，令牌需带 kid');
  try {
    return createPublicKey({ key: match[0] as never, format: 'jwk' });
  } catch {
    throw reject('JWKS 中的密钥无法使用');
  }
}

function audienceMatches(aud: unknown, expected: string): boolean {
  return Array.isArray(aud) ? aud.includes(expected) : aud === expected;
}

export async function verifyJwt(p: CustomOauthProvider, token: string, state: string): Promise<VerifiedJwt> {
  const reject = (detail: string) => fail('oauth.jwt_invalid', { provider: p.name, detail });
  const parts = token.split('.');
  if (parts.length !== 3) throw reject('格式错误');
  const header = decodePart(parts[0], reject);
  const claims = decodePart(parts[1], reject);
  const alg = typeof header.alg === 'string' ? header.alg : '';
  const spec = ALGS[alg];
  if (!spec) throw reject(`不接受的签名算法 ${alg || '(无)'}`);
  const key = p.public_key
    ? createPublicKey(p.public_key)
    : await jwksKey(p.jwks_url, typeof header.kid === 'string' ? header.kid : '', reject);
  const signed = Buffer.from(`${parts[0]}.${parts[1]}`);
  const signature = Buffer.from(parts[2] ?? '', 'base64url');
  let valid = false;
  try {
    valid = verify(
      spec.hash,
      signed,
      {
        key,
        ...(spec.pss ? { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST } : {}),
        ...(spec.ec ? { dsaEncoding: 'ieee-p1363' as const } : {}),
      },
      signature,
    );
  } catch {
    valid = false;
  }
  if (!valid) throw reject('签名无效');

  const now = Math.floor(Date.now() / 1000);
  const exp = claims.exp;
  if (typeof exp !== 'number' || !Number.isFinite(exp)) throw reject('缺少 exp');
  if (exp + LEEWAY_SECONDS < now) throw reject('令牌已过期');
  for (const claim of ['nbf', 'iat'] as const) {
    const value = claims[claim];
    if (value !== undefined && (typeof value !== 'number' || value - LEEWAY_SECONDS > now)) throw reject(`${claim} 无效`);
  }
  if (p.issuer && claims.iss !== p.issuer) throw reject('iss 不匹配');
  if (p.audience && !audienceMatches(claims.aud, p.audience)) throw reject('aud 不匹配');
  if (claims.nonce !== undefined && claims.nonce !== state) throw reject('nonce 不匹配');
  return { claims, exp };
}
