import type { ChannelTypeManifest } from '../manifest.js';

export const zhipuType = {
  name: 'Zhipu',
  defaultBaseUrl: 'https://open.bigmodel.cn',
  models: ['glm-4-plus', 'glm-4-air', 'glm-4-flash', 'glm-4', 'glm-4v', 'glm-3-turbo', 'embedding-2'],
} as const satisfies ChannelTypeManifest;
