/**
 * The model pricing editor's logic, free of React: rows built from and written back to the
 * ModelPrice / ModelRatio / CompletionRatio options, the per-token / per-request modes and the
 * conversions between ratios and dollar prices (ratio × 2 = USD per 1M input tokens), batch set,
 * duplicate handling and every check of the editor. Messages are i18n keys with arguments.
 */

import { builtInCompletionRatio } from '../../../../server/shared';

/** One model as the editor holds it: every value as typed (strings), '' when not set. */
export interface PricingRow {
  name: string;
  /** Fixed USD per call (per-request mode). */
  price: string;
  ratio: string;
  completionRatio: string;
}

export type PriceMode = 'per_token' | 'per_request';
/** How a per-token price is typed: as ratios, or as USD per 1M tokens. */
export type TokenInput = 'ratio' | 'price';
export type BatchField = 'price' | 'ratio' | 'completionRatio' | 'both';

export interface Problem {
  message: string;
  args?: Record<string, string | number>;
}

export type Result<T> = { ok: true; value: T } | { ok: false; problem: Problem };

export const PRICING_KEYS = ['ModelPrice', 'ModelRatio', 'CompletionRatio'] as const;
export type PricingKey = (typeof PRICING_KEYS)[number];
export type PricingOptions = Record<PricingKey, string>;

const M = 'settings_operation.pricing.errors';
const problem = (key: string, args?: Problem['args']): { ok: false; problem: Problem } => ({
  ok: false,
  problem: args ? { message: `${M}.${key}`, args } : { message: `${M}.${key}` },
});

/** USD per 1M input tokens for a ratio of 1. */
export const USD_PER_MILLION_PER_RATIO = 2;

/** Drops floating-point noise (0.1 × 3 = 0.30000000000000004) without losing small ratios. */
export function tidy(value: number): number {
  return Number(value.toPrecision(12));
}

export const ratioToTokenPrice = (ratio: number): number => tidy(ratio * USD_PER_MILLION_PER_RATIO);
export const tokenPriceToRatio = (price: number): number => tidy(price / USD_PER_MILLION_PER_RATIO);
export const completionPriceOf = (ratio: number, completionRatio: number): number =>
  tidy(ratioToTokenPrice(ratio) * completionRatio);

/** The completion ratio from the two prices; undefined when the input price is 0 (no ratio to derive). */
export function completionRatioFromPrices(inputPrice: number, completionPrice: number): number | undefined {
  if (inputPrice === 0) return undefined;
  return tidy(completionPrice / inputPrice);
}

const DECIMAL = /^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;

/** A typed number: '' → null (not set), a non-negative decimal number, or NaN for anything else. */
export function parseAmount(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const value = Number(trimmed);
  return DECIMAL.test(trimmed) && Number.isFinite(value) && value >= 0 ? value : NaN;
}

/** The problem key of a text `parseAmount` refused. */
const refusal = (text: string): 'negative' | 'not_number' => {
  const trimmed = text.trim();
  return DECIMAL.test(trimmed) && Number.isFinite(Number(trimmed)) ? 'negative' : 'not_number';
};

function numberMap(raw: string | undefined): Record<string, number> {
  if (!raw) return {};
  try {
    const value: unknown = JSON.parse(raw);
    if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
    return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, number] => typeof entry[1] === 'number'));
  } catch {
    return {};
  }
}

/** One row per model named in any of the three options, sorted by name. */
export function rowsFromOptions(values: Partial<Record<string, string>>): PricingRow[] {
  const prices = numberMap(values.ModelPrice);
  const ratios = numberMap(values.ModelRatio);
  const completions = numberMap(values.CompletionRatio);
  const names = [...new Set([...Object.keys(prices), ...Object.keys(ratios), ...Object.keys(completions)])].sort();
  const text = (map: Record<string, number>, name: string) => (name in map ? String(map[name]) : '');
  return names.map((name) => ({
    name,
    price: text(prices, name),
    ratio: text(ratios, name),
    completionRatio: text(completions, name),
  }));
}

/** Whether two JSON texts hold the same value (key order aside); false when either is not JSON. */
export function sameJson(a: string | undefined, b: string): boolean {
  if (a === undefined) return false;
  try {
    return canonical(JSON.parse(a)) === canonical(JSON.parse(b));
  } catch {
    return false;
  }
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The three options written from `rows` (pretty JSON). A key whose content did not change keeps
 * its stored text, so the settings save sends only the options that really changed.
 */
export function optionsFromRows(rows: PricingRow[], current: Partial<Record<string, string>>): PricingOptions {
  const maps: Record<PricingKey, Record<string, number>> = { ModelPrice: {}, ModelRatio: {}, CompletionRatio: {} };
  for (const row of rows) {
    const put = (key: PricingKey, text: string) => {
      const value = parseAmount(text);
      if (value !== null && !Number.isNaN(value)) maps[key][row.name] = value;
    };
    put('ModelPrice', row.price);
    put('ModelRatio', row.ratio);
    put('CompletionRatio', row.completionRatio);
  }
  const out = {} as PricingOptions;
  for (const key of PRICING_KEYS) {
    const text = JSON.stringify(maps[key], null, 2);
    const stored = current[key];
    out[key] = stored !== undefined && sameJson(stored, text) ? stored : text;
  }
  return out;
}

/** A row is priced when it has a fixed price or a model ratio (what the gateway needs to bill it). */
export const isPriced = (row: PricingRow | undefined): boolean => !!row && (row.price.trim() !== '' || row.ratio.trim() !== '');

/** A row with a fixed price bills per request: its ratio fields are disabled. */
export const modeOf = (row: PricingRow): PriceMode => (row.price.trim() !== '' ? 'per_request' : 'per_token');

/** Enabled models with neither a fixed price nor a ratio in `rows`, each once, sorted. */
export function unsetModels(enabled: readonly string[], rows: readonly PricingRow[]): string[] {
  const byName = new Map(rows.map((row) => [row.name, row]));
  return [...new Set(enabled.map((m) => m.trim()).filter((m) => m !== ''))].filter((m) => !isPriced(byName.get(m))).sort();
}

/** USD per 1M input and output tokens of a per-token row, for display (undefined when not derivable). */
export function displayPrices(row: PricingRow): { tokenPrice?: number; completionTokenPrice?: number } {
  if (modeOf(row) === 'per_request') return {};
  const ratio = parseAmount(row.ratio);
  if (ratio === null || Number.isNaN(ratio)) return {};
  const tokenPrice = ratioToTokenPrice(ratio);
  const completion = effectiveCompletionRatio(row);
  if (completion === undefined) return { tokenPrice };
  return { tokenPrice, completionTokenPrice: completionPriceOf(ratio, completion) };
}

/**
 * The completion ratio billing uses for a row: the typed one, else the built-in one of its model
 * family (the value the pricing page shows). Undefined while the typed text is not a number.
 */
export function effectiveCompletionRatio(row: PricingRow): number | undefined {
  const typed = parseAmount(row.completionRatio);
  if (typed === null) return builtInCompletionRatio(row.name);
  return Number.isNaN(typed) ? undefined : typed;
}

/** Rows whose name contains `search` (trimmed, case-insensitive). */
export function filterRows(rows: readonly PricingRow[], search: string): PricingRow[] {
  const needle = search.trim().toLowerCase();
  return needle ? rows.filter((row) => row.name.toLowerCase().includes(needle)) : [...rows];
}

/** Checks every typed value of every row: numbers, not negative. */
export function validateRows(rows: readonly PricingRow[]): Problem | null {
  for (const row of rows) {
    for (const text of [row.price, row.ratio, row.completionRatio]) {
      if (Number.isNaN(parseAmount(text))) return { message: `${M}.row_${refusal(text)}`, args: { model: row.name } };
    }
  }
  return null;
}

/** Adds a new model to the pricing table; an existing name is refused. */
export function addRow(rows: readonly PricingRow[], row: PricingRow): Result<PricingRow[]> {
  const name = row.name.trim();
  if (!name) return problem('name_required');
  if (rows.some((r) => r.name === name)) return problem('duplicate', { model: name });
  return { ok: true, value: [...rows, { ...row, name }].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) };
}

/** Sets a model's prices, adding it when absent (the edit dialog and the unset-models list). */
export function upsertRow(rows: readonly PricingRow[], row: PricingRow): PricingRow[] {
  const index = rows.findIndex((r) => r.name === row.name);
  if (index < 0) return [...rows, row].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return rows.map((r, i) => (i === index ? row : r));
}

export function removeRow(rows: readonly PricingRow[], name: string): PricingRow[] {
  return rows.filter((r) => r.name !== name);
}

export function updateCell(
  rows: readonly PricingRow[],
  name: string,
  field: 'price' | 'ratio' | 'completionRatio',
  value: string,
): PricingRow[] {
  return rows.map((r) => (r.name === name ? { ...r, [field]: value } : r));
}

function batchNumber(text: string | undefined): Result<string> {
  const trimmed = (text ?? '').trim();
  if (trimmed === '') return problem('batch_no_value');
  const value = parseAmount(trimmed);
  if (value === null || Number.isNaN(value)) return problem(refusal(trimmed) === 'negative' ? 'negative' : 'batch_invalid');
  return { ok: true, value: String(value) };
}

/**
 * Sets one field (or both ratios) on every selected model. A fixed price switches those models to
 * per-request (ratios cleared); a model ratio switches them to per-token (fixed price cleared).
 */
export function batchSet(
  rows: readonly PricingRow[],
  selected: readonly string[],
  field: BatchField,
  value: string,
  second = '',
): Result<PricingRow[]> {
  if (selected.length === 0) return problem('batch_no_selection');
  if (field === 'both' && (value.trim() === '' || second.trim() === '')) return problem('batch_both_required');
  const first = batchNumber(value);
  if (!first.ok) return first;
  const other = field === 'both' ? batchNumber(second) : first;
  if (!other.ok) return other;
  const chosen = new Set(selected);
  const change = (row: PricingRow): PricingRow => {
    switch (field) {
      case 'price':
        return { ...row, price: first.value, ratio: '', completionRatio: '' };
      case 'ratio':
        return { ...row, price: '', ratio: first.value };
      case 'completionRatio':
        return { ...row, completionRatio: first.value };
      case 'both':
        return { ...row, price: '', ratio: first.value, completionRatio: other.value };
    }
  };
  return { ok: true, value: rows.map((row) => (chosen.has(row.name) ? change(row) : row)) };
}

/** The add / edit dialog's state. */
export interface PriceDraft {
  name: string;
  mode: PriceMode;
  tokenInput: TokenInput;
  price: string;
  ratio: string;
  completionRatio: string;
  /** USD per 1M input tokens. */
  tokenPrice: string;
  /** USD per 1M output tokens. */
  completionTokenPrice: string;
}

export function emptyDraft(name = ''): PriceDraft {
  return {
    name,
    mode: 'per_token',
    tokenInput: 'ratio',
    price: '',
    ratio: '',
    completionRatio: '',
    tokenPrice: '',
    completionTokenPrice: '',
  };
}

export function draftFromRow(row: PricingRow): PriceDraft {
  return { ...emptyDraft(row.name), mode: modeOf(row), price: row.price, ratio: row.ratio, completionRatio: row.completionRatio };
}

/** Per-request clears the ratios and token prices; per-token clears the fixed price. */
export function switchMode(draft: PriceDraft, mode: PriceMode): PriceDraft {
  if (mode === draft.mode) return draft;
  if (mode === 'per_request') return { ...draft, mode, ratio: '', completionRatio: '', tokenPrice: '', completionTokenPrice: '' };
  return { ...draft, mode, price: '' };
}

/**
 * Switches between typing ratios and typing USD per 1M tokens, converting what is typed:
 * price = ratio × 2, completion price = price × completion ratio; back: ratio = price / 2,
 * completion ratio = completion price / price (refused when the input price is 0).
 */
export function switchTokenInput(draft: PriceDraft, tokenInput: TokenInput): Result<PriceDraft> {
  if (tokenInput === draft.tokenInput) return { ok: true, value: draft };
  if (tokenInput === 'price') {
    const ratio = parseAmount(draft.ratio);
    const completion = parseAmount(draft.completionRatio);
    if (Number.isNaN(ratio)) return problem(refusal(draft.ratio));
    if (Number.isNaN(completion)) return problem(refusal(draft.completionRatio));
    return {
      ok: true,
      value: {
        ...draft,
        tokenInput,
        tokenPrice: ratio === null ? '' : String(ratioToTokenPrice(ratio)),
        completionTokenPrice: ratio === null || completion === null ? '' : String(completionPriceOf(ratio, completion)),
      },
    };
  }
  const derived = ratiosFromPrices(draft.tokenPrice, draft.completionTokenPrice);
  if (!derived.ok) return derived;
  return { ok: true, value: { ...draft, tokenInput, ...derived.value } };
}

function ratiosFromPrices(tokenPrice: string, completionTokenPrice: string): Result<{ ratio: string; completionRatio: string }> {
  const input = parseAmount(tokenPrice);
  const output = parseAmount(completionTokenPrice);
  if (Number.isNaN(input)) return problem(refusal(tokenPrice));
  if (Number.isNaN(output)) return problem(refusal(completionTokenPrice));
  if (input === null) return { ok: true, value: { ratio: '', completionRatio: '' } };
  if (output === null) return { ok: true, value: { ratio: String(tokenPriceToRatio(input)), completionRatio: '' } };
  const completionRatio = completionRatioFromPrices(input, output);
  if (completionRatio === undefined) return problem('zero_price');
  return { ok: true, value: { ratio: String(tokenPriceToRatio(input)), completionRatio: String(completionRatio) } };
}

/** The row the dialog describes, or the first problem with what was typed. */
export function draftToRow(draft: PriceDraft): Result<PricingRow> {
  const name = draft.name.trim();
  if (!name) return problem('name_required');
  const number = (text: string, missing: string): Result<string> => {
    const value = parseAmount(text);
    if (value === null) return problem(missing);
    if (Number.isNaN(value)) return problem(refusal(text));
    return { ok: true, value: String(value) };
  };
  const optional = (text: string): Result<string> => (text.trim() === '' ? { ok: true, value: '' } : number(text, 'not_number'));
  if (draft.mode === 'per_request') {
    const price = number(draft.price, 'price_required');
    if (!price.ok) return price;
    return { ok: true, value: { name, price: price.value, ratio: '', completionRatio: '' } };
  }
  if (draft.tokenInput === 'ratio') {
    const ratio = number(draft.ratio, 'ratio_required');
    if (!ratio.ok) return ratio;
    const completion = optional(draft.completionRatio);
    if (!completion.ok) return completion;
    return { ok: true, value: { name, price: '', ratio: ratio.value, completionRatio: completion.value } };
  }
  const input = number(draft.tokenPrice, 'token_price_required');
  if (!input.ok) return input;
  const output = optional(draft.completionTokenPrice);
  if (!output.ok) return output;
  const derived = ratiosFromPrices(input.value, output.value);
  if (!derived.ok) return derived;
  return { ok: true, value: { name, price: '', ...derived.value } };
}
