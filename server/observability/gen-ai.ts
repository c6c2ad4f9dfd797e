/** The GenAI semantic conventions' names for what the gateway relays. */
import type { Endpoint } from '../relay/endpoints.js';

const OPERATIONS: Record<Endpoint, string> = {
  'chat.completions': 'chat',
  completions: 'text_completion',
  embeddings: 'embeddings',
  moderations: 'moderations',
  'images.generations': 'generate_content',
  'images.edits': 'generate_content',
  'audio.speech': 'generate_content',
  'audio.transcriptions': 'generate_content',
  'audio.translations': 'generate_content',
  rerank: 'rerank',
  responses: 'chat',
};

export const operationOf = (endpoint: Endpoint): string => OPERATIONS[endpoint];

/** The conventions' well-known provider names; others go as their name in lower case. */
const PROVIDERS: Record<string, string> = {
  OpenAI: 'openai',
  'Azure OpenAI': 'azure.ai.openai',
  Claude: 'anthropic',
  'AWS Claude': 'aws.bedrock',
  Gemini: 'gcp.gemini',
  'Vertex AI': 'gcp.vertex_ai',
  DeepSeek: 'deepseek',
  Mistral: 'mistral_ai',
  Cohere: 'cohere',
  xAI: 'x_ai',
};

export function providerNameOf(name: string): string {
  return PROVIDERS[name] ?? name.toLowerCase().replace(/[^a-z0-9.]+/g, '_');
}
