import type { ChannelTypeManifest } from '../manifest.js';

export const seedanceType = {
  name: 'DoubaoVideo',
  defaultBaseUrl: 'https://ark.cn-beijing.volces.com',
  models: ['doubao-seedance-1-0-pro-250528', 'doubao-seedance-1-0-lite-t2v-250428', 'doubao-seedance-1-0-lite-i2v-250428'],
} as const satisfies ChannelTypeManifest;
