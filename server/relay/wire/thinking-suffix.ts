/**
 * `global.thinking_model_blacklist` (the family's name): models whose real name ends in
 * `-thinking` or `-nothinking`, which the thinking adapters must pass on as named instead of
 * reading the suffix as a switch.
 */
import type { OptionStore } from '../../options/store.js';

export function thinkingSuffixExempt(options: Pick<OptionStore, 'json'>): string[] {
  const list = options.json<unknown>('global.thinking_model_blacklist');
  return Array.isArray(list) ? list.filter((m): m is string => typeof m === 'string') : [];
}
