/**
 * Prices of a request, from the options (ratios and fixed prices are data, never constants here).
 * Model ratio 1 = 2 USD per 1M input tokens; quota 500000 = 1 USD by default.
 */
import { builtInCompletionRatio } from '../options/default-prices.js';
import type { OptionStore } from '../options/store.js';

export interface Price {
  /** Fixed USD per call; when set, the ratios are not used. */
  modelPrice: number | null;
  modelRatio: number;
  completionRatio: number;
  cacheRatio: number;
  cacheWriteRatio: number;
  groupRatio: number;
  /** The model has neither price nor ratio: priced at the DefaultModelRatio option. */
  unset: boolean;
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens read from the provider's cache (part of promptTokens). */
  cachedTokens?: number;
  /** Prompt tokens written to the provider's cache (part of promptTokens). */
  cacheWriteTokens?: number;
}

const DEFAULT_CACHE_WRITE_RATIO = 1.25;

/**
 * The entry of a price map for `name`: a finite number ≥ 0, else undefined. Saving checks this
 * (server/options/values.ts); a value stored before then — a negative price, a map that is not an
 * object — counts as no entry rather than making a call's cost negative.
 */
function entry(map: unknown, name: string): number | undefined {
  if (typeof map !== 'object' || map === null || Array.isArray(map) || !Object.hasOwn(map, name)) return undefined;
  const value = (map as Record<string, unknown>)[name];
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

export type PriceLookup = { ok: true; price: Price } | { ok: false; reason: 'model_ratio_not_set' };

/**
 * The price of `model` for a caller in `group`. A model with neither a fixed price nor a ratio is
 * refused unless `acceptUnset` (self-use mode, or the user's accept_unset_model_ratio_model), and
 * then priced at the DefaultModelRatio option — never free unless an admin sets that to 0.
 */
export function lookupPrice(options: OptionStore, model: string, group: string, acceptUnset: boolean): PriceLookup {
  const fixed = entry(options.json<unknown>('ModelPrice'), model);
  const ratio = entry(options.json<unknown>('ModelRatio'), model);
  const unset = fixed === undefined && ratio === undefined;
  if (unset && !acceptUnset) return { ok: false, reason: 'model_ratio_not_set' };
  return {
    ok: true,
    price: {
      modelPrice: fixed ?? null,
      modelRatio: ratio ?? (unset ? Math.max(0, options.number('DefaultModelRatio')) : 0),
      completionRatio: entry(options.json<unknown>('CompletionRatio'), model) ?? builtInCompletionRatio(model),
      cacheRatio: entry(options.json<unknown>('CacheRatio'), model) ?? 1,
      cacheWriteRatio: DEFAULT_CACHE_WRITE_RATIO,
      groupRatio: entry(options.json<unknown>('GroupRatio'), group) ?? 1,
      unset,
    },
  };
}

/**
 * The cost in quota (an integer). Per-token: round((prompt − cached − cacheWrite + cached × cacheRatio
 * + cacheWrite × cacheWriteRatio + completion × completionRatio) × modelRatio × groupRatio), with a
 * non-zero cost that rounds to 0 becoming 1. Fixed price: price × quotaPerUnit × groupRatio.
 */
export function quotaFor(price: Price, usage: Usage, quotaPerUnit: number): number {
  if (price.modelPrice !== null) return Math.round(price.modelPrice * quotaPerUnit * price.groupRatio);
  const cached = usage.cachedTokens ?? 0;
  const cacheWrite = usage.cacheWriteTokens ?? 0;
  const tokens =
    usage.promptTokens -
    cached -
    cacheWrite +
    cached * price.cacheRatio +
    cacheWrite * price.cacheWriteRatio +
    usage.completionTokens * price.completionRatio;
  const exact = tokens * price.modelRatio * price.groupRatio;
  const rounded = Math.round(exact);
  return rounded === 0 && exact > 0 ? 1 : rounded;
}

/**
 * A cost the ledger can hold, or an error: a price list whose product overflows (or an upstream
 * reporting absurd usage) must fail the settlement, never write a fraction or NaN to a balance.
 */
export function billableQuota(quota: number, model: string): number {
  if (!Number.isSafeInteger(quota) || quota < 0) throw new Error(`the prices of ${model} give a cost of ${quota}`);
  return quota;
}
