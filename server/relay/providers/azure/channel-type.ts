import type { ChannelTypeManifest } from '../manifest.js';
import { OPENAI_MODELS } from '../openai-compatible/channel-types.js';

export const azureType = {
  name: 'Azure OpenAI',
  defaultBaseUrl: '',
  other: { label: 'azure', placeholder: '2024-10-21' },
  models: OPENAI_MODELS,
  promptCache: true,
} as const satisfies ChannelTypeManifest;
