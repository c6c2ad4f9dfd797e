/**
 * Who makes a model when no model row names a vendor: known name prefixes of the big model
 * families. These are built in, never written to the database (a public GET must not create
 * rows); an admin's vendor of the same name (any case) stands in for the built-in one, with its
 * own id, icon and description, and an admin's model row wins over the prefixes altogether.
 *
 * Built-in vendors have stable negative ids (their place in this list), so new-api's console,
 * which looks vendors up by `vendor_id`, finds them in the pricing answer's `vendors` too. Icons
 * are @lobehub/icons names, as new-api's console renders them.
 */

export interface DefaultVendor {
  name: string;
  icon: string;
  /** Lower-case prefixes of the model name (or of its last path segment: `openai/gpt-4o`). */
  prefixes: readonly string[];
}

export const DEFAULT_VENDORS: readonly DefaultVendor[] = [
  {
    name: 'OpenAI',
    icon: 'OpenAI',
    prefixes: [
      'gpt',
      'chatgpt',
      'o1',
      'o3',
      'o4',
      'dall-e',
      'whisper',
      'tts-1',
      'gpt-image',
      'text-embedding-',
      'text-moderation',
      'omni-moderation',
      'davinci',
      'babbage',
      'codex',
      'sora',
    ],
  },
  { name: 'Anthropic', icon: 'Claude.Color', prefixes: ['claude'] },
  {
    name: 'Google',
    icon: 'Gemini.Color',
    prefixes: ['gemini', 'gemma', 'palm', 'chat-bison', 'text-bison', 'imagen', 'veo', 'learnlm', 'text-embedding-004'],
  },
  { name: 'DeepSeek', icon: 'DeepSeek.Color', prefixes: ['deepseek'] },
  { name: 'Moonshot', icon: 'Moonshot', prefixes: ['moonshot', 'kimi'] },
  { name: 'Zhipu AI', icon: 'Zhipu.Color', prefixes: ['glm', 'chatglm', 'cogview', 'cogvideo', 'charglm'] },
  { name: 'Alibaba', icon: 'Qwen.Color', prefixes: ['qwen', 'qwq', 'qvq', 'wanx', 'text-embedding-v'] },
  { name: 'MiniMax', icon: 'Minimax.Color', prefixes: ['abab', 'minimax'] },
  { name: 'Baidu', icon: 'Wenxin.Color', prefixes: ['ernie'] },
  { name: 'iFlytek', icon: 'Spark.Color', prefixes: ['spark', 'generalv'] },
  { name: 'Tencent', icon: 'Hunyuan.Color', prefixes: ['hunyuan'] },
  { name: 'Cohere', icon: 'Cohere.Color', prefixes: ['command', 'embed-english', 'embed-multilingual', 'rerank-'] },
  { name: 'Cloudflare', icon: 'Cloudflare.Color', prefixes: ['@cf/', '@hf/'] },
  { name: '360', icon: 'Ai360.Color', prefixes: ['360'] },
  { name: '01.AI', icon: 'Yi.Color', prefixes: ['yi-'] },
  { name: 'Jina', icon: 'Jina', prefixes: ['jina'] },
  {
    name: 'Mistral',
    icon: 'Mistral.Color',
    prefixes: ['mistral', 'open-mistral', 'mixtral', 'codestral', 'pixtral', 'ministral', 'magistral', 'devstral'],
  },
  { name: 'xAI', icon: 'XAI', prefixes: ['grok'] },
  { name: 'Meta', icon: 'Meta', prefixes: ['llama', 'meta-llama'] },
  { name: 'ByteDance', icon: 'Doubao.Color', prefixes: ['doubao'] },
  { name: 'Microsoft', icon: 'AzureAI', prefixes: ['phi-'] },
  { name: 'Kuaishou', icon: 'Kling.Color', prefixes: ['kling'] },
  { name: 'Jimeng', icon: 'Jimeng.Color', prefixes: ['jimeng'] },
  { name: 'Vidu', icon: 'Vidu', prefixes: ['vidu'] },
  { name: 'Midjourney', icon: 'Midjourney', prefixes: ['mj_', 'midjourney'] },
  { name: 'Suno', icon: 'Suno', prefixes: ['suno'] },
];

/** The id a built-in vendor carries in answers: -1 for the first of the list, -2 … */
export function defaultVendorId(index: number): number {
  return -(index + 1);
}

/** Every prefix with its vendor's index, longest first: the most specific prefix wins. */
const PREFIXES: readonly (readonly [string, number])[] = DEFAULT_VENDORS.flatMap((vendor, index) =>
  vendor.prefixes.map((prefix) => [prefix, index] as const),
).sort((a, b) => b[0].length - a[0].length);

function longestPrefix(name: string): number | undefined {
  return PREFIXES.find(([prefix]) => name.startsWith(prefix))?.[1];
}

/**
 * The index in DEFAULT_VENDORS of the vendor a model name suggests, or undefined. The whole name
 * is tried first (`@cf/meta/llama-3` is Cloudflare's), then its last path segment (`openai/gpt-4o`).
 */
export function defaultVendorIndex(modelName: string): number | undefined {
  const name = modelName.trim().toLowerCase();
  const whole = longestPrefix(name);
  if (whole !== undefined) return whole;
  const slash = name.lastIndexOf('/');
  return slash >= 0 ? longestPrefix(name.slice(slash + 1)) : undefined;
}
