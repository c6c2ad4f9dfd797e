/**
 * Tencent Cloud API 3.0 request signing (TC3-HMAC-SHA256) for JSON POSTs, pure: the timestamp is a
 * parameter. Canonical request `POST\n/\n\ncontent-type:…\nhost:…\n\ncontent-type;host\n<sha256(body)>`,
 * string to sign `TC3-HMAC-SHA256\n<timestamp>\n<date>/<service>/tc3_request\n<sha256(canonical)>`,
 * key derived as HMAC("TC3"+SecretKey, date) → service → "tc3_request".
 */
import { createHash, createHmac } from 'node:crypto';

export interface Tc3Request {
  secretId: string;
  secretKey: string;
  /** Product name, e.g. `hunyuan`. */
  service: string;
  /** The Host header as sent (with the port when it is not the default one). */
  host: string;
  /** The Content-Type header exactly as sent. */
  contentType: string;
  payload: string;
  /** Unix seconds. */
  timestamp: number;
}

const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const hmac = (key: string | Buffer, text: string): Buffer => createHmac('sha256', key).update(text, 'utf8').digest();

/** The UTC date (YYYY-MM-DD) of a Unix timestamp. */
export function tc3Date(timestamp: number): string {
  return new Date(timestamp * 1000).toISOString().slice(0, 10);
}

/** The hex signature and the Authorization header value. */
export function signTc3(req: Tc3Request): { signature: string; authorization: string } {
  const signedHeaders = 'content-type;host';
  const canonicalRequest = [
    'POST',
    '/',
    '',
    `content-type:${req.contentType.trim().toLowerCase()}\nhost:${req.host.trim().toLowerCase()}\n`,
    signedHeaders,
    sha256Hex(req.payload),
  ].join('\n');
  const date = tc3Date(req.timestamp);
  const scope = `${date}/${req.service}/tc3_request`;
  const stringToSign = `TC3-HMAC-SHA256\n${req.timestamp}\n${scope}\n${sha256Hex(canonicalRequest)}`;
  const signingKey = hmac(hmac(hmac(`TC3${req.secretKey}`, date), req.service), 'tc3_request');
  const signature = createHmac('sha256', signingKey).update(stringToSign, 'utf8').digest('hex');
  const authorization = `TC3-HMAC-SHA256 Credential=${req.secretId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return { signature, authorization };
}
