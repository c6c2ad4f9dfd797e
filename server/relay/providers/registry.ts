import { CHANNEL_TYPES, CHANNEL_TYPE_IDS, type ChannelType, type ChannelTypeManifest } from '../../channels/types.js';
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
import { sora } from './sora/index.js';
import { kling } from './kling/index.js';
import { seedance } from './seedance/index.js';

/** Only OpenAI (and Azure) serve `/v1/responses`; the other compatible upstreams get it converted to chat. */
const ALL_ENDPOINTS = Object.keys(ENDPOINTS) as Endpoint[];
const WITHOUT_RESPONSES = ALL_ENDPOINTS.filter((e) => e !== 'responses');

type Manifests = typeof CHANNEL_TYPES;
/** The types relayed by the OpenAI-compatible base from their manifest alone. */
type CompatibleType = { [T in ChannelType]: Manifests[T] extends { compatible: object } ? T : never }[ChannelType];

function compatible(manifest: ChannelTypeManifest): ProviderDefinition | null {
  const relay = manifest.compatible;
  if (!relay) return null;
  const endpoints = relay.endpoints === 'all' ? ALL_ENDPOINTS : (relay.endpoints ?? WITHOUT_RESPONSES);
  return openAICompatible({
    name: manifest.name,
    defaultBaseUrl: manifest.defaultBaseUrl,
    pathPrefix: relay.pathPrefix,
    endpoints: [...endpoints],
    ...(relay.streamUsageOption === false ? { streamUsageOption: false } : {}),
  });
}

/**
 * The providers with code of their own, by channel type: a type whose manifest is not `compatible`
 * and has no provider here is a type error.
 */
const OWN_PROTOCOL = {
  2: midjourneyProxy,
  3: azure,
  4: ollama,
  5: midjourneyProxy,
  11: palm,
  14: claude,
  15: baidu,
  16: zhipu,
  18: iflytek,
  21: aiProxyLibrary,
  23: tencent,
  24: gemini,
  33: bedrock,
  34: cohere,
  35: minimax,
  36: suno,
  37: dify,
  38: jina,
  41: vertex,
  49: coze,
  50: kling,
  54: seedance,
  55: sora,
} satisfies Record<Exclude<ChannelType, CompatibleType>, ProviderDefinition>;

/** Channel type → provider: the compatible family built from the manifests, the others as above. */
export const PROVIDERS: Partial<Record<number, ProviderDefinition>> = Object.fromEntries(
  CHANNEL_TYPE_IDS.map((type) => [
    type,
    compatible(CHANNEL_TYPES[type]) ?? (OWN_PROTOCOL as Partial<Record<number, ProviderDefinition>>)[type],
  ]),
);

/**
 * The provider serving a channel type; given the upstream model, the definition for that model
 * where the protocol depends on it (Vertex AI serves Gemini and Claude models).
 */
export function providerFor(type: number, model?: string): ProviderDefinition | undefined {
  const provider = PROVIDERS[type];
  return model !== undefined ? (provider?.forModel?.(model) ?? provider) : provider;
}
