/**
 * iFlytek's signed websocket URLs, pure: the date is a parameter. The signature is
 * HMAC-SHA256(apiSecret, "host: <host>\ndate: <RFC 1123 date>\nGET <path> HTTP/1.1") in base64; the
 * `authorization` query parameter is the base64 of
 * `api_key="…", algorithm="hmac-sha256", headers="host date request-line", signature="…"`, sent
 * with `date` and `host`.
 */
import { createHmac } from 'node:crypto';

export interface SparkCredentials {
  apiKey: string;
  apiSecret: string;
}

/** The base64 signature of the request line for `host` and `path` at `date` (RFC 1123). */
export function sparkSignature(apiSecret: string, host: string, date: string, path: string): string {
  return createHmac('sha256', apiSecret).update(`host: ${host}\ndate: ${date}\nGET ${path} HTTP/1.1`).digest('base64');
}

/** The `authorization` query parameter. */
export function sparkAuthorization(credentials: SparkCredentials, host: string, date: string, path: string): string {
  const signature = sparkSignature(credentials.apiSecret, host, date, path);
  const origin = `api_key="${credentials.apiKey}", algorithm="hmac-sha256", headers="host date request-line", signature="${signature}"`;
  return Buffer.from(origin, 'utf8').toString('base64');
}

/** `url` (ws: or wss:) with its `authorization`, `date` and `host` query parameters, signed at `now`. */
export function sparkSignedUrl(url: string, credentials: SparkCredentials, now: Date): string {
  const parsed = new URL(url);
  const date = now.toUTCString();
  const query = new URLSearchParams({
    authorization: sparkAuthorization(credentials, parsed.host, date, parsed.pathname),
    date,
    host: parsed.host,
  });
  return `${parsed.origin}${parsed.pathname}?${query.toString()}`;
}
