import type { ChannelTypeManifest } from '../manifest.js';

/** iFlytek's API version lives in `other`; an empty one means this version. */
export const XUNFEI_DEFAULT_VERSION = 'v2.1';

export const iflytekType = {
  name: 'iFlytek',
  defaultBaseUrl: 'https://spark-api.xf-yun.com',
  keyFormatHint: true,
  other: { label: 'xunfei', placeholder: XUNFEI_DEFAULT_VERSION, default: XUNFEI_DEFAULT_VERSION },
  models: ['SparkDesk-v4.0', 'SparkDesk-v3.5', 'SparkDesk-v3.1', 'SparkDesk-v2.1', 'SparkDesk-v1.1'],
} as const satisfies ChannelTypeManifest;
