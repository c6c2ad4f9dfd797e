/**
 * iFlytek Spark (type 18): a websocket at `wss://spark-api.xf-yun.com/{version path}` whose URL is
 * signed with HMAC-SHA256 (host, date, request line) from the channel key `appid|apiSecret|apiKey`.
 * The API version comes from a `SparkDesk-vX.Y` model name, else the channel's `other`, else v2.1.
 * The exchange (`send`) answers like an HTTP upstream: frames streamed as SSE events, or one JSON
 * frame holding the whole answer.
 */
import type { ProviderDefinition } from '../types.js';
import { errorMessageOf, jsonAnswer } from '../kit/http-like.js';
import { obj, str } from '../kit/chat-text.js';
import { sparkSignedUrl } from './auth.js';
import { sparkVersion, sparkVersionOf } from './versions.js';
import { convertSparkResponse, convertToSparkFrame, createSparkStreamParser, sparkErrorOf } from './convert.js';
import { sparkExchange } from './socket.js';

const DEFAULT_BASE_URL = 'https://spark-api.xf-yun.com';

/** `appid|apiSecret|apiKey` split; null when the key is not of that form. */
export function splitSparkKey(key: string): { appId: string; apiSecret: string; apiKey: string } | null {
  const parts = key.split('|').map((p) => p.trim());
  if (parts.length !== 3 || parts.some((p) => p === '')) return null;
  return { appId: parts[0]!, apiSecret: parts[1]!, apiKey: parts[2]! };
}

/** The websocket address for a base URL (http(s) becomes ws(s)) and path. */
export function sparkSocketUrl(base: string | null, path: string): string {
  const origin = (base || DEFAULT_BASE_URL).replace(/\/+$/, '').replace(/^http(s?):\/\//i, 'ws$1://');
  return origin + path;
}

export const iflytek: ProviderDefinition = {
  name: 'iFlytek',
  protocol: 'openai',
  streamUsageOption: false,
  supports: (endpoint) => endpoint === 'chat.completions',
  target(channel, _endpoint, model) {
    const version = sparkVersion(sparkVersionOf(model, channel.other));
    return { url: sparkSocketUrl(channel.base_url, version?.path ?? ''), headers: {} };
  },
  chat: {
    request(channel, body) {
      const model = String(body.model);
      const versionName = sparkVersionOf(model, channel.other);
      const version = sparkVersion(versionName);
      if (!version) throw new Error(`讯飞星火的 API 版本 ${versionName} 无效`);
      const key = splitSparkKey(channel.key);
      const url = sparkSocketUrl(channel.base_url, version.path);
      return {
        target: { url: key ? sparkSignedUrl(url, key, new Date()) : url, headers: {} },
        body: JSON.stringify(convertToSparkFrame(body, { appId: key?.appId ?? '', domain: version.domain })),
      };
    },
    answer: (payload, model) => convertSparkResponse(payload, model),
    stream: (model) => createSparkStreamParser(model),
    errorMessage: (text, status) =>
      errorMessageOf(text, status, (payload) => {
        const error = sparkErrorOf(payload);
        if (error) return error.code ? `${error.code}: ${error.message}` : error.message;
        return str(obj(payload)?.message);
      }),
    send(call, { channel, stream, signal }) {
      if (!splitSparkKey(channel.key)) {
        return Promise.resolve(jsonAnswer(401, { message: '讯飞星火渠道的密钥格式应为 APPID|APISecret|APIKey' }));
      }
      return sparkExchange(call.target.url, String(call.body), stream, signal);
    },
  },
};
