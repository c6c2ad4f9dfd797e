/**
 * Tencent hunyuan (type 23): `POST https://hunyuan.tencentcloudapi.com/` with the action in
 * `X-TC-Action: ChatCompletions` (version 2023-09-01), signed TC3-HMAC-SHA256 with the SecretId and
 * SecretKey of the channel key `appid|secretId|secretKey`. Streams are SSE with `Choices[].Delta`.
 * Errors come behind a 200 status and are answered with the status their code stands for.
 */
import type { ChannelAccess, PreparedCall, ProviderDefinition } from '../types.js';
import { callUpstream } from '../../call/call-upstream.js';
import { errorMessageOf, httpLikeAnswer, isJsonAnswer, jsonAnswer, readJson } from '../kit/http-like.js';
import { signTc3 } from './tc3.js';
import {
  convertTencentResponse,
  convertToTencentRequest,
  createTencentStreamParser,
  tencentErrorOf,
  tencentErrorStatus,
} from './convert.js';

const DEFAULT_BASE_URL = 'https://hunyuan.tencentcloudapi.com';
const SERVICE = 'hunyuan';
const ACTION = 'ChatCompletions';
const VERSION = '2023-09-01';
/** The content type callUpstream sends, which the signature covers. */
const CONTENT_TYPE = 'application/json';

/** `appid|secretId|secretKey` split; null when the key is not of that form. */
export function splitTencentKey(key: string): { appId: string; secretId: string; secretKey: string } | null {
  const parts = key.split('|').map((p) => p.trim());
  if (parts.length !== 3 || parts.some((p) => p === '')) return null;
  return { appId: parts[0]!, secretId: parts[1]!, secretKey: parts[2]! };
}

/** The signed ChatCompletions call for a converted body, at `timestamp` (Unix seconds). */
export function tencentCall(channel: ChannelAccess, payload: string, timestamp: number): PreparedCall {
  const url = `${(channel.base_url || DEFAULT_BASE_URL).replace(/\/+$/, '')}/`;
  const headers: Record<string, string> = {
    'x-tc-action': ACTION,
    'x-tc-version': VERSION,
    'x-tc-timestamp': String(timestamp),
  };
  const key = splitTencentKey(channel.key);
  if (key) {
    const host = new URL(url).host;
    headers.authorization = signTc3({
      secretId: key.secretId,
      secretKey: key.secretKey,
      service: SERVICE,
      host,
      contentType: CONTENT_TYPE,
      payload,
      timestamp,
    }).authorization;
  }
  return { target: { url, headers }, body: payload };
}

export const tencent: ProviderDefinition = {
  name: 'Tencent',
  protocol: 'openai',
  streamUsageOption: false,
  supports: (endpoint) => endpoint === 'chat.completions',
  target(channel) {
    return { url: `${(channel.base_url || DEFAULT_BASE_URL).replace(/\/+$/, '')}/`, headers: {} };
  },
  chat: {
    request(channel, body, stream) {
      return tencentCall(channel, JSON.stringify(convertToTencentRequest(body, stream)), Math.floor(Date.now() / 1000));
    },
    answer: (payload, model) => convertTencentResponse(payload, model),
    stream: (model) => createTencentStreamParser(model),
    errorMessage: (text, status) =>
      errorMessageOf(text, status, (payload) => {
        const error = tencentErrorOf(payload);
        return error && (error.code ? `${error.code}: ${error.message}` : error.message);
      }),
    async send(call, { channel, signal }) {
      if (!call.target.headers.authorization || !splitTencentKey(channel.key)) {
        return jsonAnswer(401, { Response: { Error: { Message: '腾讯混元渠道的密钥格式应为 AppId|SecretId|SecretKey' } } });
      }
      const res = await callUpstream(call.target, call.body, CONTENT_TYPE, signal);
      if (!isJsonAnswer(res)) return res;
      const { text, payload } = await readJson(res);
      const error = tencentErrorOf(payload);
      const status = error && res.statusCode < 400 ? tencentErrorStatus(error.code) : res.statusCode;
      return httpLikeAnswer(status, String(res.headers['content-type']), text);
    },
  },
};
