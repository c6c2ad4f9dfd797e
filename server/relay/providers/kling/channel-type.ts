import type { ChannelTypeManifest } from '../manifest.js';

export const klingType = {
  name: 'Kling',
  defaultBaseUrl: 'https://api.klingai.com',
  models: ['kling-v1', 'kling-v1-6', 'kling-v2-master', 'kling-v2-1'],
} as const satisfies ChannelTypeManifest;
