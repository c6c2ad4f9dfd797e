/**
 * The pricing a fresh gateway starts with (and that "reset model ratios" restores). Prices are
 * data: operators change them through the options, never here at run time. Pure data with no
 * imports, so the console's pricing editor shows the same built-in values billing uses.
 * Model ratio 1 = 2 USD per 1M input tokens.
 */
export const DEFAULT_MODEL_RATIO: Record<string, number> = {
  'gpt-4o': 1.25,
  'gpt-4o-mini': 0.075,
  'gpt-4.1': 1,
  'gpt-4.1-mini': 0.2,
  'gpt-4.1-nano': 0.05,
  'gpt-4-turbo': 5,
  'gpt-3.5-turbo': 0.25,
  o1: 7.5,
  'o1-mini': 0.55,
  'o3-mini': 0.55,
  'text-embedding-3-small': 0.01,
  'text-embedding-3-large': 0.065,
  'text-embedding-ada-002': 0.05,
  'claude-3-5-sonnet-20241022': 1.5,
  'claude-3-7-sonnet-20250219': 1.5,
  'claude-sonnet-4-20250514': 1.5,
  'claude-3-5-haiku-20241022': 0.4,
  'claude-3-haiku-20240307': 0.125,
  'gemini-2.5-pro': 0.625,
  'gemini-2.5-flash': 0.15,
  'gemini-2.0-flash': 0.05,
  'deepseek-chat': 0.135,
  'deepseek-reasoner': 0.275,
  // Image models bill their tokens: input here, image output through the completion ratio.
  'gpt-image-1': 2.5,
  'gpt-image-1-mini': 1,
  'gemini-2.5-flash-image': 0.15,
  'gemini-3-pro-image-preview': 1,
};

export const DEFAULT_COMPLETION_RATIO: Record<string, number> = {};

/**
 * Completion ratios by model-name prefix (the longest match wins), for models the CompletionRatio
 * option does not name: output tokens of these families cost this many times their input.
 */
const BUILT_IN_COMPLETION_RATIOS: ReadonlyArray<readonly [prefix: string, ratio: number]> = [
  ['gpt-4o', 4],
  ['gpt-4.1', 4],
  ['gpt-4-turbo', 3],
  ['gpt-3.5-turbo', 3],
  ['o1', 4],
  ['o3', 4],
  ['o4', 4],
  ['claude-3', 5],
  ['claude-4', 5],
  ['claude-sonnet-4', 5],
  ['claude-opus-4', 5],
  ['gemini-1.5', 4],
  ['gemini-2.0', 4],
  ['gemini-2.5-pro', 8],
  // Image output tokens: 40 and 8 USD per 1M for OpenAI's, 30 and 120 for Gemini's.
  ['gpt-image-1', 8],
  ['gpt-image-1-mini', 4],
  ['gemini-2.5-flash-image', 100],
  ['gemini-3-pro-image', 60],
];

/** The completion ratio of `model` when the CompletionRatio option has no entry for it (1 for unknown families). */
export function builtInCompletionRatio(model: string): number {
  let best: readonly [string, number] | undefined;
  for (const entry of BUILT_IN_COMPLETION_RATIOS) {
    if (model.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  }
  return best ? best[1] : 1;
}

export const DEFAULT_CACHE_RATIO: Record<string, number> = {
  'gpt-4o': 0.5,
  'gpt-4o-mini': 0.5,
  'claude-3-5-sonnet-20241022': 0.1,
  'claude-3-7-sonnet-20250219': 0.1,
  'claude-sonnet-4-20250514': 0.1,
  'claude-3-5-haiku-20241022': 0.1,
  'claude-3-haiku-20240307': 0.1,
};

/** USD per call. */
export const DEFAULT_MODEL_PRICE: Record<string, number> = {
  'dall-e-3': 0.04,
  mj_imagine: 0.1,
  mj_variation: 0.1,
  mj_reroll: 0.1,
  mj_blend: 0.1,
  mj_upscale: 0.05,
  mj_describe: 0.05,
  suno_music: 0.1,
  suno_lyrics: 0.01,
};
