import type { ChannelTypeManifest } from '../manifest.js';

export const cozeType = {
  name: 'Coze',
  defaultBaseUrl: 'https://api.coze.cn',
  other: { label: 'coze' },
  models: ['coze-bot'],
} as const satisfies ChannelTypeManifest;
