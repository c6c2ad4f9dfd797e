import type { ChannelTypeManifest } from '../manifest.js';

export const palmType = {
  name: 'PaLM2',
  defaultBaseUrl: 'https://generativelanguage.googleapis.com',
  models: ['chat-bison-001'],
} as const satisfies ChannelTypeManifest;
