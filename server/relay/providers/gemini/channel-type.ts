import type { ChannelTypeManifest } from '../manifest.js';

export const GEMINI_MODELS = ['gemini-2.0-flash', 'gemini-2.5-flash', 'gemini-2.5-pro', 'text-embedding-004'];

export const geminiType = {
  name: 'Gemini',
  defaultBaseUrl: 'https://generativelanguage.googleapis.com',
  models: GEMINI_MODELS,
  promptCache: true,
} as const satisfies ChannelTypeManifest;
