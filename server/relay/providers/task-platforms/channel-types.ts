import type { ChannelTypeManifest } from '../manifest.js';

const MIDJOURNEY_MODELS = ['mj_imagine', 'mj_variation', 'mj_reroll', 'mj_blend', 'mj_upscale', 'mj_describe'];

export const midjourneyProxyType = {
  name: 'Midjourney Proxy',
  defaultBaseUrl: '',
  models: MIDJOURNEY_MODELS,
} as const satisfies ChannelTypeManifest;

export const midjourneyProxyPlusType = {
  name: 'Midjourney Proxy Plus',
  defaultBaseUrl: '',
  models: MIDJOURNEY_MODELS,
} as const satisfies ChannelTypeManifest;

export const sunoType = {
  name: 'Suno',
  defaultBaseUrl: '',
  models: ['suno_music', 'suno_lyrics'],
} as const satisfies ChannelTypeManifest;
