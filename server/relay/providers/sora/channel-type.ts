import type { ChannelTypeManifest } from '../manifest.js';

export const soraType = {
  name: 'Sora',
  defaultBaseUrl: 'https://api.openai.com',
  models: ['sora-2', 'sora-2-pro'],
} as const satisfies ChannelTypeManifest;
