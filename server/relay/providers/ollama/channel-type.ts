import type { ChannelTypeManifest } from '../manifest.js';

export const ollamaType = {
  name: 'Ollama',
  defaultBaseUrl: 'http://localhost:11434',
  keyOptional: true,
  models: ['llama3.2', 'llama3.1', 'qwen2.5', 'deepseek-r1', 'gemma3', 'nomic-embed-text'],
} as const satisfies ChannelTypeManifest;
