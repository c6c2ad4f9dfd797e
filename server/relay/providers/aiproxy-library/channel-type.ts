import type { ChannelTypeManifest } from '../manifest.js';

export const aiProxyLibraryType = {
  name: 'AI Proxy knowledge base',
  defaultBaseUrl: 'https://api.aiproxy.io',
  keyFormatHint: true,
  other: { label: 'knowledge' },
  models: ['gpt-4o-mini', 'gpt-3.5-turbo'],
} as const satisfies ChannelTypeManifest;
