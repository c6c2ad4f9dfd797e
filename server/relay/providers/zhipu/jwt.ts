/**
 * Zhipu's signed tokens: the API key `{id}.{secret}` becomes a JWT (HS256, header
 * `{"alg":"HS256","sign_type":"SIGN"}`, payload `{api_key: id, exp, timestamp}` in milliseconds)
 * signed with the secret. Pure: the clock is a parameter.
 */
import { createHmac } from 'node:crypto';

/** How long a token is valid. */
export const ZHIPU_TOKEN_TTL_MS = 30 * 60 * 1000;

const base64url = (text: string | Buffer): string => Buffer.from(text).toString('base64url');

/** `{id}.{secret}` split; null when the key is not of that form. */
export function splitZhipuKey(key: string): { id: string; secret: string } | null {
  const parts = key.trim().split('.');
  if (parts.length !== 2 || !parts[0] || !parts[1]) return null;
  return { id: parts[0], secret: parts[1] };
}

/** The JWT for `key` at `nowMs`, valid for `ttlMs`. */
export function zhipuToken(key: { id: string; secret: string }, nowMs: number, ttlMs = ZHIPU_TOKEN_TTL_MS): string {
  const header = base64url(JSON.stringify({ alg: 'HS256', sign_type: 'SIGN' }));
  const payload = base64url(JSON.stringify({ api_key: key.id, exp: nowMs + ttlMs, timestamp: nowMs }));
  const signature = createHmac('sha256', key.secret).update(`${header}.${payload}`).digest('base64url');
  return `${header}.${payload}.${signature}`;
}
