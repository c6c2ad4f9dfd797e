import type { ChannelTypeManifest } from '../manifest.js';

export const difyType = {
  name: 'Dify',
  defaultBaseUrl: 'https://api.dify.ai',
  models: ['dify'],
} as const satisfies ChannelTypeManifest;
