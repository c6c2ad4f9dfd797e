import type { ChannelTypeManifest } from '../manifest.js';

export const jinaType = {
  name: 'Jina',
  defaultBaseUrl: 'https://api.jina.ai',
  models: ['jina-embeddings-v3', 'jina-reranker-v2-base-multilingual'],
} as const satisfies ChannelTypeManifest;
