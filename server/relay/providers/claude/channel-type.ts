import type { ChannelTypeManifest } from '../manifest.js';

export const CLAUDE_MODELS = [
  'claude-3-haiku-20240307',
  'claude-3-5-haiku-20241022',
  'claude-3-5-sonnet-20241022',
  'claude-3-7-sonnet-20250219',
  'claude-sonnet-4-20250514',
  'claude-opus-4-20250514',
];

export const claudeType = {
  name: 'Claude',
  defaultBaseUrl: 'https://api.anthropic.com',
  models: CLAUDE_MODELS,
  promptCache: true,
} as const satisfies ChannelTypeManifest;
