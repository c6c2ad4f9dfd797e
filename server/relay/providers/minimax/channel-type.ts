import type { ChannelTypeManifest } from '../manifest.js';

export const minimaxType = {
  name: 'MiniMax',
  defaultBaseUrl: 'https://api.minimax.chat',
  models: ['abab6.5s-chat', 'MiniMax-Text-01', 'MiniMax-M1'],
} as const satisfies ChannelTypeManifest;
