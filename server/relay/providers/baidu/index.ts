/**
 * Baidu ERNIE (type 15): `POST /rpc/2.0/ai_custom/v1/wenxinworkshop/chat/{endpoint}?access_token=…`,
 * the endpoint chosen by model (ERNIE-4.0-8K → completions_pro …). The channel key `ak|sk` is
 * exchanged for an access token, cached until shortly before it expires and fetched once for
 * concurrent requests. ERNIE reports errors as `{error_code, error_msg}` behind a 200 status: they
 * are answered with the status the code stands for, and a refused token is fetched again once.
 */
import { createHash } from 'node:crypto';
import type { ProviderDefinition } from '../types.js';
import { callUpstream, readText } from '../../call/call-upstream.js';
import { obj, str } from '../kit/chat-text.js';
import { errorMessageOf, httpLikeAnswer, isJsonAnswer, jsonAnswer, readJson } from '../kit/http-like.js';
import { AccessTokenCache, TokenError, parseTokenAnswer, splitBaiduKey, tokenUrl, type FetchedToken } from './access-token.js';
import { BAIDU_CHAT_PREFIX, baiduChatEndpoint } from './endpoints.js';
import {
  baiduErrorOf,
  baiduErrorStatus,
  convertBaiduResponse,
  convertToBaiduRequest,
  createBaiduStreamParser,
  isTokenError,
} from './convert.js';

const DEFAULT_BASE_URL = 'https://aip.baidubce.com';
const TOKEN_TIMEOUT_MS = 30_000;

const tokens = new AccessTokenCache();

const baseOf = (base: string | null): string => (base || DEFAULT_BASE_URL).replace(/\/+$/, '');

async function fetchToken(base: string, ak: string, sk: string): Promise<FetchedToken> {
  const res = await callUpstream(
    { url: tokenUrl(base, ak, sk), headers: {} },
    '',
    'application/json',
    AbortSignal.timeout(TOKEN_TIMEOUT_MS),
  );
  return parseTokenAnswer(res.statusCode, await readText(res));
}

export const baidu: ProviderDefinition = {
  name: 'Baidu',
  protocol: 'openai',
  streamUsageOption: false,
  supports: (endpoint) => endpoint === 'chat.completions',
  target(channel, _endpoint, model) {
    return { url: `${baseOf(channel.base_url)}${BAIDU_CHAT_PREFIX}${baiduChatEndpoint(model)}`, headers: {} };
  },
  chat: {
    request(channel, body, stream) {
      return {
        target: baidu.target(channel, 'chat.completions', String(body.model)),
        body: JSON.stringify(convertToBaiduRequest(body, stream)),
      };
    },
    answer: (payload, model) => convertBaiduResponse(payload, model),
    stream: (model) => createBaiduStreamParser(model),
    errorMessage: (text, status) => errorMessageOf(text, status, (payload) => str(obj(payload)?.error_msg)),
    async send(call, { channel, signal }) {
      const key = splitBaiduKey(channel.key);
      if (!key) return jsonAnswer(401, { error_msg: '百度渠道的密钥格式应为 API Key|Secret Key' });
      const base = baseOf(channel.base_url);
      const cacheKey = createHash('sha256').update(`${base}\n${key.ak}\n${key.sk}`).digest('hex');
      for (let attempt = 0; ; attempt++) {
        let token: string;
        try {
          token = await tokens.get(cacheKey, () => fetchToken(base, key.ak, key.sk));
        } catch (err) {
          if (err instanceof TokenError) return jsonAnswer(err.status, { error_msg: err.message });
          throw err;
        }
        const url = `${call.target.url}?access_token=${encodeURIComponent(token)}`;
        const res = await callUpstream({ url, headers: call.target.headers }, call.body, 'application/json', signal);
        if (!isJsonAnswer(res)) return res;
        const { text, payload } = await readJson(res);
        const error = baiduErrorOf(payload);
        if (error && isTokenError(error.code) && attempt === 0) {
          tokens.invalidate(cacheKey, token);
          continue;
        }
        const status = error && res.statusCode < 400 ? baiduErrorStatus(error.code) : res.statusCode;
        return httpLikeAnswer(status, String(res.headers['content-type']), text);
      }
    },
  },
};
