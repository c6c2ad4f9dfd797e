/**
 * Channel types as data: id → display name and default base URL. Pure data with no server
 * imports, so the console can import it too. A default base URL is the provider's origin (plus the
 * fixed prefix some providers need); the relay's provider for the type appends the request path.
 * An empty default means the operator must give the address (self-hosted or per-account services).
 */

export interface ChannelTypeInfo {
  name: string;
  defaultBaseUrl: string;
}

export const CHANNEL_TYPES = {
  1: { name: 'OpenAI', defaultBaseUrl: 'https://api.openai.com' },
  2: { name: 'Midjourney Proxy', defaultBaseUrl: '' },
  3: { name: 'Azure OpenAI', defaultBaseUrl: '' },
  4: { name: 'Ollama', defaultBaseUrl: 'http://localhost:11434' },
  5: { name: 'Midjourney Proxy Plus', defaultBaseUrl: '' },
  8: { name: 'Custom', defaultBaseUrl: '' },
  11: { name: 'PaLM2', defaultBaseUrl: 'https://generativelanguage.googleapis.com' },
  14: { name: 'Claude', defaultBaseUrl: 'https://api.anthropic.com' },
  15: { name: 'Baidu', defaultBaseUrl: 'https://aip.baidubce.com' },
  16: { name: 'Zhipu', defaultBaseUrl: 'https://open.bigmodel.cn' },
  17: { name: 'Ali', defaultBaseUrl: 'https://dashscope.aliyuncs.com' },
  18: { name: 'iFlytek', defaultBaseUrl: 'https://spark-api.xf-yun.com' },
  19: { name: '360', defaultBaseUrl: 'https://api.360.cn' },
  20: { name: 'OpenRouter', defaultBaseUrl: 'https://openrouter.ai/api' },
  21: { name: 'AI Proxy knowledge base', defaultBaseUrl: 'https://api.aiproxy.io' },
  22: { name: 'FastGPT', defaultBaseUrl: 'https://api.fastgpt.in/api' },
  23: { name: 'Tencent', defaultBaseUrl: 'https://hunyuan.tencentcloudapi.com' },
  24: { name: 'Gemini', defaultBaseUrl: 'https://generativelanguage.googleapis.com' },
  25: { name: 'Moonshot', defaultBaseUrl: 'https://api.moonshot.cn' },
  26: { name: 'Zhipu v4', defaultBaseUrl: 'https://open.bigmodel.cn' },
  31: { name: '01.AI', defaultBaseUrl: 'https://api.lingyiwanwu.com' },
  33: { name: 'AWS Claude', defaultBaseUrl: '' },
  34: { name: 'Cohere', defaultBaseUrl: 'https://api.cohere.ai' },
  35: { name: 'MiniMax', defaultBaseUrl: 'https://api.minimax.chat' },
  36: { name: 'Suno', defaultBaseUrl: '' },
  37: { name: 'Dify', defaultBaseUrl: 'https://api.dify.ai' },
  38: { name: 'Jina', defaultBaseUrl: 'https://api.jina.ai' },
  39: { name: 'Cloudflare', defaultBaseUrl: 'https://api.cloudflare.com' },
  40: { name: 'SiliconCloud', defaultBaseUrl: 'https://api.siliconflow.cn' },
  41: { name: 'Vertex AI', defaultBaseUrl: '' },
  42: { name: 'Mistral', defaultBaseUrl: 'https://api.mistral.ai' },
  43: { name: 'DeepSeek', defaultBaseUrl: 'https://api.deepseek.com' },
  44: { name: 'M3E', defaultBaseUrl: '' },
  45: { name: 'Volcengine', defaultBaseUrl: 'https://ark.cn-beijing.volces.com' },
  46: { name: 'Baidu v2', defaultBaseUrl: 'https://qianfan.baidubce.com' },
  47: { name: 'Xinference', defaultBaseUrl: '' },
  48: { name: 'xAI', defaultBaseUrl: 'https://api.x.ai' },
  49: { name: 'Coze', defaultBaseUrl: 'https://api.coze.cn' },
} as const satisfies Record<number, ChannelTypeInfo>;

export type ChannelType = keyof typeof CHANNEL_TYPES;

export const CHANNEL_TYPE_IDS = Object.keys(CHANNEL_TYPES).map(Number) as ChannelType[];

export function isChannelType(type: number): type is ChannelType {
  return Object.hasOwn(CHANNEL_TYPES, type);
}

export const AWS_CLAUDE_TYPE = 33;
/** Vertex AI keys are service-account JSON documents, several lines long. */
export const VERTEX_TYPE = 41;

/**
 * Types whose upstream address has no default and must be given per channel (self-hosted or
 * per-account services). AWS and Vertex derive theirs from the region instead.
 */
export function baseUrlRequired(type: ChannelType): boolean {
  return CHANNEL_TYPES[type].defaultBaseUrl === '' && type !== AWS_CLAUDE_TYPE && type !== VERTEX_TYPE;
}

export const OLLAMA_TYPE = 4;

/** Ollama serves without a key (one given is sent as a Bearer token); every other type needs one. */
export function keyRequired(type: number): boolean {
  return type !== OLLAMA_TYPE;
}

/** iFlytek's API version lives in `other`; an empty one means this version. */
export const XUNFEI_TYPE = 18;
export const XUNFEI_DEFAULT_VERSION = 'v2.1';

// ---- Channel status ----

export const CHANNEL_ENABLED = 1;
export const CHANNEL_MANUALLY_DISABLED = 2;
export const CHANNEL_AUTO_DISABLED = 3;
