/**
 * The models each channel type is known to serve, offered by the console's "fill models" button
 * (GET /api/models). Data only: operators can always type other model names.
 */
import type { ChannelType } from './types.js';
import { BEDROCK_CLAUDE_MODELS } from '../relay/providers/bedrock/bedrock-models.js';

const OPENAI = [
  'gpt-4o',
  'gpt-4o-mini',
  'gpt-4.1',
  'gpt-4.1-mini',
  'gpt-4.1-nano',
  'gpt-4-turbo',
  'gpt-3.5-turbo',
  'o1',
  'o1-mini',
  'o3',
  'o3-mini',
  'o4-mini',
  'gpt-3.5-turbo-instruct',
  'text-embedding-3-small',
  'text-embedding-3-large',
  'text-embedding-ada-002',
  'omni-moderation-latest',
  'dall-e-3',
  'tts-1',
  'tts-1-hd',
  'whisper-1',
];
const CLAUDE = [
  'claude-3-haiku-20240307',
  'claude-3-5-haiku-20241022',
  'claude-3-5-sonnet-20241022',
  'claude-3-7-sonnet-20250219',
  'claude-sonnet-4-20250514',
  'claude-opus-4-20250514',
];
const GEMINI = ['gemini-2.0-flash', 'gemini-2.5-flash', 'gemini-2.5-pro', 'text-embedding-004'];

export const TYPE_MODELS: Partial<Record<ChannelType, string[]>> = {
  1: OPENAI,
  2: ['mj_imagine', 'mj_variation', 'mj_reroll', 'mj_blend', 'mj_upscale', 'mj_describe'],
  3: OPENAI,
  4: ['llama3.2', 'llama3.1', 'qwen2.5', 'deepseek-r1', 'gemma3', 'nomic-embed-text'],
  5: ['mj_imagine', 'mj_variation', 'mj_reroll', 'mj_blend', 'mj_upscale', 'mj_describe'],
  11: ['chat-bison-001'],
  14: CLAUDE,
  15: [
    'ERNIE-4.0-8K',
    'ERNIE-4.0-Turbo-8K',
    'ERNIE-3.5-8K',
    'ERNIE-3.5-128K',
    'ERNIE-Speed-8K',
    'ERNIE-Speed-128K',
    'ERNIE-Lite-8K',
    'ERNIE-Tiny-8K',
  ],
  16: ['glm-4-plus', 'glm-4-air', 'glm-4-flash', 'glm-4', 'glm-4v', 'glm-3-turbo', 'embedding-2'],
  17: ['qwen-turbo', 'qwen-plus', 'qwen-max', 'qwen-long', 'text-embedding-v3'],
  18: ['SparkDesk-v4.0', 'SparkDesk-v3.5', 'SparkDesk-v3.1', 'SparkDesk-v2.1', 'SparkDesk-v1.1'],
  19: ['360GPT_S2_V9', 'embedding-bert-512-v1'],
  20: ['openai/gpt-4o', 'anthropic/claude-3.5-sonnet', 'google/gemini-2.5-pro'],
  21: ['gpt-4o-mini', 'gpt-3.5-turbo'],
  22: ['fastgpt'],
  23: ['hunyuan-lite', 'hunyuan-standard', 'hunyuan-standard-256K', 'hunyuan-pro', 'hunyuan-turbo', 'hunyuan-large'],
  24: GEMINI,
  25: ['moonshot-v1-8k', 'moonshot-v1-32k', 'moonshot-v1-128k'],
  26: ['glm-4-plus', 'glm-4-air', 'glm-4-flash', 'glm-4v-plus', 'embedding-3'],
  31: ['yi-lightning', 'yi-large', 'yi-medium'],
  33: BEDROCK_CLAUDE_MODELS,
  34: ['command-r', 'command-r-plus', 'command-a-03-2025', 'embed-v4.0', 'embed-multilingual-v3.0', 'rerank-v3.5'],
  35: ['abab6.5s-chat', 'MiniMax-Text-01', 'MiniMax-M1'],
  36: ['suno_music', 'suno_lyrics'],
  37: ['dify'],
  38: ['jina-embeddings-v3', 'jina-reranker-v2-base-multilingual'],
  39: ['@cf/meta/llama-3.1-8b-instruct', '@cf/baai/bge-base-en-v1.5'],
  40: ['deepseek-ai/DeepSeek-V3', 'Qwen/Qwen2.5-72B-Instruct', 'BAAI/bge-m3'],
  // Vertex AI serves Gemini chat (not embeddings) and Claude.
  41: [...GEMINI.filter((m) => !m.includes('embedding')), ...CLAUDE],
  42: ['mistral-large-latest', 'mistral-small-latest', 'open-mistral-nemo', 'mistral-embed'],
  43: ['deepseek-chat', 'deepseek-reasoner'],
  45: ['doubao-1.5-pro-32k', 'doubao-1.5-lite-32k', 'doubao-embedding'],
  46: ['ernie-4.0-8k', 'ernie-4.0-turbo-8k', 'ernie-3.5-8k', 'ernie-speed-128k', 'ernie-lite-8k', 'embedding-v1'],
  48: ['grok-3', 'grok-3-mini', 'grok-2-vision-1212'],
  49: ['coze-bot'],
};
