import type { Channel } from '../../db/types.js';
import type { Endpoint } from '../endpoints.js';

/** Where and how to send one upstream call. */
export interface UpstreamTarget {
  url: string;
  headers: Record<string, string>;
}

/**
 * A provider: how a channel of its type is reached. Pure: it reads only the channel and the
 * request's endpoint and model, never HTTP context or global settings.
 */
export interface ProviderDefinition {
  name: string;
  /** The endpoints this provider serves; the relay refuses others before calling upstream. */
  supports(endpoint: Endpoint): boolean;
  target(
    channel: Pick<Channel, 'key' | 'base_url' | 'other' | 'openai_organization'>,
    endpoint: Endpoint,
    model: string,
  ): UpstreamTarget;
  /** Asks for usage in the last stream chunk (`stream_options.include_usage`). */
  streamUsageOption: boolean;
}
