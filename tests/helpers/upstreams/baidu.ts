/**
 * A local server speaking Baidu ERNIE's wire format: `POST /oauth/2.0/token` issues access tokens
 * for one known `ak`/`sk` (counting the fetches), and `POST /rpc/2.0/ai_custom/v1/wenxinworkshop/chat/{endpoint}`
 * answers from tests/fixtures/providers/baidu/ only for a token it issued — otherwise, as Baidu
 * does, with error 110 behind a 200 status. The endpoint `ernie-qps` answers the QPS-limit error.
 */
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RecordedRequest } from './openai.js';
import { listenLocally, readBody, sendJson as json, sendSse } from './stand-in-server.js';

export const BAIDU_AK = 'baidu-test-ak';
export const BAIDU_SK = 'baidu-test-sk';

export interface BaiduStandIn {
  url: string;
  /** Chat requests (token fetches are only counted). */
  requests: RecordedRequest[];
  tokenFetches: number;
  /** Makes every issued token invalid, as if it had expired upstream. */
  revokeTokens(): void;
  close(): Promise<void>;
}

const dir = fileURLToPath(new URL('../../fixtures/providers/baidu/', import.meta.url));
const fixture = (name: string) => readFileSync(dir + name, 'utf8');

export async function startBaiduStandIn(): Promise<BaiduStandIn> {
  const valid = new Set<string>();
  const state: BaiduStandIn = {
    url: '',
    requests: [],
    tokenFetches: 0,
    revokeTokens: () => valid.clear(),
    close: async () => undefined,
  };
  const server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      const url = new URL(req.url ?? '/', 'http://stand-in');
      if (req.method === 'POST' && url.pathname === '/oauth/2.0/token') {
        const q = url.searchParams;
        if (q.get('grant_type') !== 'client_credentials') return json(res, 400, '{"error":"unsupported_grant_type"}');
        if (q.get('client_id') !== BAIDU_AK || q.get('client_secret') !== BAIDU_SK) {
          return json(res, 401, fixture('error-invalid-client.json'));
        }
        state.tokenFetches++;
        const token = `24.stand-in-token-${state.tokenFetches}`;
        valid.add(token);
        return json(res, 200, JSON.stringify({ ...JSON.parse(fixture('token.json')), access_token: token }));
      }
      const chat = /^\/rpc\/2\.0\/ai_custom\/v1\/wenxinworkshop\/chat\/([\w.-]+)$/.exec(url.pathname);
      if (req.method !== 'POST' || !chat) return json(res, 404, '{"error_code":3,"error_msg":"Unsupported openapi method"}');
      const body = raw ? (JSON.parse(raw) as { stream?: boolean }) : {};
      state.requests.push({ method: req.method, url: req.url ?? '', headers: req.headers, body });
      if (!valid.has(url.searchParams.get('access_token') ?? '')) return json(res, 200, fixture('error-token-invalid.json'));
      if (chat[1] === 'ernie-qps') return json(res, 200, fixture('error-qps.json'));
      if (!body.stream) return json(res, 200, fixture('chat.json'));
      sendSse(res, fixture('stream.chunks.txt'));
    })();
  });
  const listening = await listenLocally(server);
  state.url = listening.url;
  state.close = listening.close;
  return state;
}
