import { ENDPOINTS } from '../../endpoints.js';
import type { ProviderDefinition } from '../types.js';

const DEFAULT_API_VERSION = '2024-10-21';

/** Azure deployment names cannot hold dots: `gpt-3.5-turbo` is deployed as `gpt-35-turbo`. */
export function azureDeployment(model: string): string {
  return model.replace(/\./g, '');
}

/** Azure OpenAI: `/openai/deployments/{deployment}{path}?api-version=…` with an `api-key` header. */
export const azure: ProviderDefinition = {
  name: 'Azure OpenAI',
  protocol: 'openai',
  streamUsageOption: true,
  supports: (endpoint) => endpoint !== 'rerank',
  target(channel, endpoint, model) {
    const base = (channel.base_url ?? '').replace(/\/+$/, '');
    const version = channel.other?.trim() || DEFAULT_API_VERSION;
    const url = `${base}/openai/deployments/${encodeURIComponent(azureDeployment(model))}${ENDPOINTS[endpoint]}?api-version=${encodeURIComponent(version)}`;
    return { url, headers: { 'api-key': channel.key } };
  },
};
