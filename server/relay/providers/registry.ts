import { CHANNEL_TYPES, type ChannelType } from '../../channels/types.js';
import { azure } from './azure/index.js';
import { claude } from './claude/index.js';
import { gemini } from './gemini/index.js';
import { openAICompatible } from './openai-compatible/index.js';
import type { ProviderDefinition } from './types.js';

const compatible = (type: ChannelType, pathPrefix = '/v1', extra: Partial<Parameters<typeof openAICompatible>[0]> = {}) =>
  openAICompatible({ name: CHANNEL_TYPES[type].name, defaultBaseUrl: CHANNEL_TYPES[type].defaultBaseUrl, pathPrefix, ...extra });

/**
 * Channel type → provider. The OpenAI-compatible family is data on one shared base; providers with
 * protocols of their own live in their own folders.
 */
export const PROVIDERS: Partial<Record<ChannelType, ProviderDefinition>> = {
  1: compatible(1),
  3: azure,
  8: compatible(8),
  14: claude,
  17: compatible(17, '/compatible-mode/v1'),
  19: compatible(19),
  20: compatible(20),
  24: gemini,
  25: compatible(25),
  26: compatible(26, '/api/paas/v4'),
  31: compatible(31),
  39: compatible(39, '/client/v4/accounts/{other}/ai/v1'),
  40: compatible(40),
  42: compatible(42),
  43: compatible(43),
  44: compatible(44),
  45: compatible(45, '/api/v3'),
  47: compatible(47),
  48: compatible(48),
};

export function providerFor(type: number): ProviderDefinition | undefined {
  return PROVIDERS[type as ChannelType];
}
