import type { ChannelTypeManifest } from '../manifest.js';

export const tencentType = {
  name: 'Tencent',
  defaultBaseUrl: 'https://hunyuan.tencentcloudapi.com',
  keyFormatHint: true,
  models: ['hunyuan-lite', 'hunyuan-standard', 'hunyuan-standard-256K', 'hunyuan-pro', 'hunyuan-turbo', 'hunyuan-large'],
} as const satisfies ChannelTypeManifest;
