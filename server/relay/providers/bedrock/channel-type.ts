import type { ChannelTypeManifest } from '../manifest.js';
import { BEDROCK_CLAUDE_MODELS } from './bedrock-models.js';

export const bedrockType = {
  name: 'AWS Claude',
  defaultBaseUrl: '',
  baseUrlFromRegion: true,
  keyFormatHint: true,
  models: BEDROCK_CLAUDE_MODELS,
  promptCache: true,
} as const satisfies ChannelTypeManifest;
