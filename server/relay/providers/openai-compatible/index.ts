import { ENDPOINTS, type Endpoint } from '../../endpoints.js';
import type { ProviderDefinition } from '../types.js';

export interface OpenAICompatibleSettings {
  name: string;
  defaultBaseUrl: string;
  /** Inserted between the base URL and the endpoint path (`/v1` for most). */
  pathPrefix?: string;
  /** Endpoints served; all when omitted. */
  endpoints?: readonly Endpoint[];
  streamUsageOption?: boolean;
}

/**
 * A provider that speaks OpenAI's wire format with a Bearer key: a few lines of data each.
 * `{other}` in the prefix is replaced by the channel's `other` field (Cloudflare's account id).
 */
export function openAICompatible(settings: OpenAICompatibleSettings): ProviderDefinition {
  const served = settings.endpoints ? new Set<Endpoint>(settings.endpoints) : null;
  const prefix = settings.pathPrefix ?? '/v1';
  return {
    name: settings.name,
    protocol: 'openai',
    streamUsageOption: settings.streamUsageOption ?? true,
    supports: (endpoint) => served === null || served.has(endpoint),
    target(channel, endpoint) {
      const base = (channel.base_url || settings.defaultBaseUrl).replace(/\/+$/, '');
      const path = prefix.replace('{other}', encodeURIComponent(channel.other ?? '')) + ENDPOINTS[endpoint];
      const headers: Record<string, string> = { authorization: `Bearer ${channel.key}` };
      if (channel.openai_organization) headers['openai-organization'] = channel.openai_organization;
      return { url: base + path, headers };
    },
  };
}
