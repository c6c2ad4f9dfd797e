/**
 * Zhipu (type 16). The v3 `model-api/{model}/invoke|sse-invoke` API is retired (Zhipu's current
 * reference documents only the v4 API), so this type calls v4 — `/api/paas/v4/chat/completions`
 * and `/embeddings`, OpenAI's wire format — authenticated like v3 with a JWT signed from the
 * `{id}.{secret}` key (type 26 sends the key itself as the Bearer token). A key of another form is
 * sent as it is.
 */
import { ENDPOINTS } from '../../endpoints.js';
import type { ProviderDefinition } from '../types.js';
import { splitZhipuKey, zhipuToken } from './jwt.js';

const DEFAULT_BASE_URL = 'https://open.bigmodel.cn';
const PATH_PREFIX = '/api/paas/v4';

export const zhipu: ProviderDefinition = {
  name: 'Zhipu',
  protocol: 'openai',
  streamUsageOption: true,
  supports: (endpoint) => endpoint === 'chat.completions' || endpoint === 'embeddings',
  target(channel, endpoint) {
    const base = (channel.base_url || DEFAULT_BASE_URL).replace(/\/+$/, '');
    return { url: base + PATH_PREFIX + ENDPOINTS[endpoint], headers: {} };
  },
  async prepare(call) {
    const key = splitZhipuKey(call.channel.key);
    const bearer = key ? zhipuToken(key, Date.now()) : call.channel.key;
    return {
      target: { url: call.target.url, headers: { ...call.target.headers, authorization: `Bearer ${bearer}` } },
      body: call.body,
    };
  },
};
