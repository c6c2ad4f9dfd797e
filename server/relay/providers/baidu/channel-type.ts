import type { ChannelTypeManifest } from '../manifest.js';

export const baiduType = {
  name: 'Baidu',
  defaultBaseUrl: 'https://aip.baidubce.com',
  keyFormatHint: true,
  models: [
    'ERNIE-4.0-8K',
    'ERNIE-4.0-Turbo-8K',
    'ERNIE-3.5-8K',
    'ERNIE-3.5-128K',
    'ERNIE-Speed-8K',
    'ERNIE-Speed-128K',
    'ERNIE-Lite-8K',
    'ERNIE-Tiny-8K',
  ],
} as const satisfies ChannelTypeManifest;
