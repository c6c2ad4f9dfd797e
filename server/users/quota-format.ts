import type { OptionStore } from '../options/store.js';

/**
 * Quota as an operator reads it in messages and logs: dollars when the site displays currency,
 * otherwise raw quota points. `digits` trades exactness for brevity.
 */
export function formatQuota(options: OptionStore, quota: number, digits = 2): string {
  if (!options.bool('DisplayInCurrencyEnabled')) return `${quota} 点额度`;
  const perUnit = options.number('QuotaPerUnit') || 500_000;
  return `$${(quota / perUnit).toFixed(digits)}`;
}
