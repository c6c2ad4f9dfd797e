import type { ChannelTypeManifest } from '../manifest.js';

export const cohereType = {
  name: 'Cohere',
  defaultBaseUrl: 'https://api.cohere.ai',
  models: ['command-r', 'command-r-plus', 'command-a-03-2025', 'embed-v4.0', 'embed-multilingual-v3.0', 'rerank-v3.5'],
} as const satisfies ChannelTypeManifest;
