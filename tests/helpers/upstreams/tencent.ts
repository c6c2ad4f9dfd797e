/**
 * A local server speaking Tencent Cloud API 3.0 for hunyuan's ChatCompletions: it checks the
 * action and version headers and the TC3-HMAC-SHA256 signature over what actually arrived (Host
 * with its port, Content-Type, raw body, X-TC-Timestamp) for one known SecretId/SecretKey, and
 * answers — as Tencent does, behind a 200 status — AuthFailure.SignatureFailure when it does not
 * match. Otherwise it replays tests/fixtures/providers/tencent/ (model `hunyuan-limited` → the
 * LimitExceeded error).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createHash, createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RecordedRequest } from './openai.js';
import { listenLocally, readBody, sendJson, sendSse } from './stand-in-server.js';

export const TENCENT_SECRET_ID = 'AKIDstandin0123456789';
export const TENCENT_SECRET_KEY = 'stand-in-secret-key-0123456789';

export interface TencentStandIn {
  url: string;
  requests: Array<RecordedRequest & { signatureValid: boolean }>;
  close(): Promise<void>;
}

const dir = fileURLToPath(new URL('../../fixtures/providers/tencent/', import.meta.url));
const fixture = (name: string) => readFileSync(dir + name, 'utf8');
const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const hmac = (key: string | Buffer, s: string) => createHmac('sha256', key).update(s, 'utf8').digest();

/** The signature Tencent would compute for this request, following its published algorithm. */
function expectedAuthorization(req: IncomingMessage, raw: string): string | null {
  const timestamp = Number(req.headers['x-tc-timestamp']);
  if (!Number.isInteger(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > 300) return null;
  const date = new Date(timestamp * 1000).toISOString().slice(0, 10);
  const canonical = `POST\n/\n\ncontent-type:${String(req.headers['content-type']).toLowerCase()}\nhost:${String(req.headers.host).toLowerCase()}\n\ncontent-type;host\n${sha256(raw)}`;
  const scope = `${date}/hunyuan/tc3_request`;
  const toSign = `TC3-HMAC-SHA256\n${timestamp}\n${scope}\n${sha256(canonical)}`;
  const key = hmac(hmac(hmac(`TC3${TENCENT_SECRET_KEY}`, date), 'hunyuan'), 'tc3_request');
  const signature = createHmac('sha256', key).update(toSign, 'utf8').digest('hex');
  return `TC3-HMAC-SHA256 Credential=${TENCENT_SECRET_ID}/${scope}, SignedHeaders=content-type;host, Signature=${signature}`;
}

/** Tencent answers errors too behind a 200 status. */
const json = (res: ServerResponse, text: string) => sendJson(res, 200, text);

export async function startTencentStandIn(): Promise<TencentStandIn> {
  const state: TencentStandIn = { url: '', requests: [], close: async () => undefined };
  const server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      const expected = expectedAuthorization(req, raw);
      const signatureValid = expected !== null && req.headers.authorization === expected;
      const body = raw ? (JSON.parse(raw) as { Model?: string; Stream?: boolean }) : {};
      state.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, signatureValid });
      if (req.method !== 'POST' || req.url !== '/')
        return json(res, '{"Response":{"Error":{"Code":"InvalidAction","Message":"no such path"}}}');
      if (req.headers['x-tc-action'] !== 'ChatCompletions' || req.headers['x-tc-version'] !== '2023-09-01') {
        return json(res, '{"Response":{"Error":{"Code":"InvalidAction","Message":"The action is not supported."}}}');
      }
      if (!signatureValid) return json(res, fixture('error-signature.json'));
      if (body.Model === 'hunyuan-limited') return json(res, fixture('error-rate-limit.json'));
      if (!body.Stream) return json(res, fixture('chat.json'));
      sendSse(res, fixture('stream.chunks.txt'));
    })();
  });
  const listening = await listenLocally(server);
  state.url = listening.url;
  state.close = listening.close;
  return state;
}
