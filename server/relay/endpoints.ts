/** The OpenAI-format endpoints the relay serves, and their paths below `/v1`. */
export const ENDPOINTS = {
  'chat.completions': '/chat/completions',
  completions: '/completions',
  embeddings: '/embeddings',
  moderations: '/moderations',
  'images.generations': '/images/generations',
  'images.edits': '/images/edits',
  'audio.speech': '/audio/speech',
  'audio.transcriptions': '/audio/transcriptions',
  'audio.translations': '/audio/translations',
  rerank: '/rerank',
  responses: '/responses',
} as const;

export type Endpoint = keyof typeof ENDPOINTS;
