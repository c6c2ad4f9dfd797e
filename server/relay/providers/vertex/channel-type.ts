import type { ChannelTypeManifest } from '../manifest.js';
import { CLAUDE_MODELS } from '../claude/channel-type.js';
import { GEMINI_MODELS } from '../gemini/channel-type.js';

const VEO_MODELS = ['veo-3.0-generate-001', 'veo-3.0-fast-generate-001'];

export const vertexType = {
  name: 'Vertex AI',
  defaultBaseUrl: '',
  baseUrlFromRegion: true,
  // Service-account keys span several lines: several of them are a JSON array.
  keys: 'json-array',
  keyFormatHint: true,
  other: { label: 'vertex', placeholder: 'us-central1' },
  // Vertex AI serves Gemini chat (not embeddings), Claude, and Veo videos (server/tasks/video/).
  models: [...GEMINI_MODELS.filter((m) => !m.includes('embedding')), ...CLAUDE_MODELS, ...VEO_MODELS],
  promptCache: true,
} as const satisfies ChannelTypeManifest;
