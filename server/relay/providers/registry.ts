import { CHANNEL_TYPES, type ChannelType } from '../../channels/types.js';
import { azure } from './azure/index.js';
import { claude } from './claude/index.js';
import { gemini } from './gemini/index.js';
import { bedrock } from './bedrock/index.js';
import { vertex } from './vertex/index.js';
import { baidu } from './baidu/index.js';
import { iflytek } from './iflytek/index.js';
import { palm } from './palm/index.js';
import { tencent } from './tencent/index.js';
import { zhipu } from './zhipu/index.js';
import { openAICompatible } from './openai-compatible/index.js';
import { aiProxyLibrary } from './aiproxy-library/index.js';
import { cohere } from './cohere/index.js';
import { coze } from './coze/index.js';
import { dify } from './dify/index.js';
import { jina } from './jina/index.js';
import { minimax } from './minimax/index.js';
import { ollama } from './ollama/index.js';
import { ENDPOINTS, type Endpoint } from '../endpoints.js';
import type { ProviderDefinition } from './types.js';
import { midjourneyProxy, suno } from './task-platforms/index.js';

/** Only OpenAI (and Azure) serve `/v1/responses`; the other compatible upstreams get it converted to chat. */
const ALL_ENDPOINTS = Object.keys(ENDPOINTS) as Endpoint[];
const WITHOUT_RESPONSES = ALL_ENDPOINTS.filter((e) => e !== 'responses');

const compatible = (type: ChannelType, pathPrefix = '/v1', extra: Partial<Parameters<typeof openAICompatible>[0]> = {}) =>
  openAICompatible({
    name: CHANNEL_TYPES[type].name,
    defaultBaseUrl: CHANNEL_TYPES[type].defaultBaseUrl,
    pathPrefix,
    endpoints: WITHOUT_RESPONSES,
    ...extra,
  });

/**
 * Channel type → provider. The OpenAI-compatible family is data on one shared base; providers with
 * protocols of their own live in their own folders.
 */
export const PROVIDERS = {
  1: compatible(1, '/v1', { endpoints: ALL_ENDPOINTS }),
  2: midjourneyProxy,
  3: azure,
  4: ollama,
  5: midjourneyProxy,
  8: compatible(8),
  11: palm,
  14: claude,
  15: baidu,
  16: zhipu,
  17: compatible(17, '/compatible-mode/v1'),
  18: iflytek,
  19: compatible(19),
  20: compatible(20),
  21: aiProxyLibrary,
  22: compatible(22, '/v1', { endpoints: ['chat.completions'], streamUsageOption: false }),
  23: tencent,
  24: gemini,
  25: compatible(25),
  26: compatible(26, '/api/paas/v4'),
  31: compatible(31),
  33: bedrock,
  34: cohere,
  35: minimax,
  36: suno,
  37: dify,
  38: jina,
  39: compatible(39, '/client/v4/accounts/{other}/ai/v1'),
  40: compatible(40),
  41: vertex,
  42: compatible(42),
  43: compatible(43),
  44: compatible(44),
  45: compatible(45, '/api/v3'),
  46: compatible(46, '/v2', { endpoints: ['chat.completions', 'embeddings'] }),
  47: compatible(47),
  48: compatible(48),
  49: coze,
} satisfies Record<ChannelType, ProviderDefinition>;

/**
 * The provider serving a channel type; given the upstream model, the definition for that model
 * where the protocol depends on it (Vertex AI serves Gemini and Claude models).
 */
export function providerFor(type: number, model?: string): ProviderDefinition | undefined {
  const provider: ProviderDefinition | undefined = PROVIDERS[type as ChannelType];
  return model !== undefined ? (provider?.forModel?.(model) ?? provider) : provider;
}
