/**
 * The gemini.* options as one settings object the converters take as a parameter, and the two
 * lookups made from them per request: safety thresholds and the API version.
 */
import type { OptionStore } from '../../../options/store.js';
import type { GeminiSafetySetting } from './gemini-api-types.js';
import { isJsonObject } from './gemini-schema.js';
import { thinkingSuffixExempt } from '../thinking-suffix.js';

export type GeminiApiVersion = 'v1beta' | 'v1';

/** The gemini.* options, read by the caller. */
export interface GeminiSettings {
  /** gemini.safety_settings: harm category → threshold, `default` for the rest (BLOCK_NONE when absent). */
  safetySettings: Readonly<Record<string, unknown>>;
  /** gemini.version_settings: model → 'v1beta' | 'v1', `default` for the rest (v1beta when absent). */
  versionSettings: Readonly<Record<string, unknown>>;
  /** gemini.supported_imagine_models: asked for IMAGE output besides TEXT. */
  imageModels: readonly string[];
  thinkingAdapterEnabled: boolean;
  /** Share of max_tokens given to thinking (gemini.thinking_adapter_budget_tokens_percentage). */
  thinkingBudgetPercentage: number;
  /** `global.thinking_model_blacklist`: models whose own name ends in `-thinking` (kept as named). */
  thinkingSuffixExempt?: readonly string[];
}

export function geminiSettingsFrom(options: Pick<OptionStore, 'json' | 'bool' | 'number'>): GeminiSettings {
  const imageModels = options.json<unknown>('gemini.supported_imagine_models');
  const map = (key: 'gemini.safety_settings' | 'gemini.version_settings') => {
    const value = options.json<unknown>(key);
    return isJsonObject(value) ? value : {};
  };
  return {
    safetySettings: map('gemini.safety_settings'),
    versionSettings: map('gemini.version_settings'),
    imageModels: Array.isArray(imageModels) ? imageModels.filter((m): m is string => typeof m === 'string') : [],
    thinkingAdapterEnabled: options.bool('gemini.thinking_adapter_enabled'),
    thinkingBudgetPercentage: options.number('gemini.thinking_adapter_budget_tokens_percentage'),
    thinkingSuffixExempt: thinkingSuffixExempt(options),
  };
}

/** The harm categories every request sets a threshold for. */
export const GEMINI_HARM_CATEGORIES = [
  'HARM_CATEGORY_HARASSMENT',
  'HARM_CATEGORY_HATE_SPEECH',
  'HARM_CATEGORY_SEXUALLY_EXPLICIT',
  'HARM_CATEGORY_DANGEROUS_CONTENT',
  'HARM_CATEGORY_CIVIC_INTEGRITY',
];

/**
 * Thresholds from gemini.safety_settings. Several models refuse OFF for civic integrity ("threshold
 * cannot be 5"), so a `default` of OFF gives that category BLOCK_NONE unless it is named itself.
 */
export function safetySettingsFor(map: Readonly<Record<string, unknown>>): GeminiSafetySetting[] {
  const fallback = typeof map.default === 'string' ? map.default : 'BLOCK_NONE';
  const categories = new Set([...GEMINI_HARM_CATEGORIES, ...Object.keys(map).filter((k) => k.startsWith('HARM_CATEGORY_'))]);
  return [...categories].map((category) => {
    const threshold = map[category];
    if (typeof threshold === 'string') return { category, threshold };
    const civicOff = category === 'HARM_CATEGORY_CIVIC_INTEGRITY' && fallback === 'OFF';
    return { category, threshold: civicOff ? 'BLOCK_NONE' : fallback };
  });
}

export function apiVersionFor(model: string, versions: Readonly<Record<string, unknown>>): GeminiApiVersion {
  const version = versions[model] ?? versions.default;
  return version === 'v1' ? 'v1' : 'v1beta';
}
