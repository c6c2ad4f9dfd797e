import type { ChannelTypeManifest } from '../manifest.js';
import { CLAUDE_MODELS } from '../claude/channel-type.js';
import { GEMINI_MODELS } from '../gemini/channel-type.js';

export const vertexType = {
  name: 'Vertex AI',
  defaultBaseUrl: '',
  baseUrlFromRegion: true,
  // Service-account keys span several lines: several of them are a JSON array.
  keys: 'json-array',
  keyFormatHint: true,
  other: { label: 'vertex', placeholder: 'us-central1' },
  // Vertex AI serves Gemini chat (not embeddings) and Claude.
  models: [...GEMINI_MODELS.filter((m) => !m.includes('embedding')), ...CLAUDE_MODELS],
  promptCache: true,
} as const satisfies ChannelTypeManifest;
