/**
 * What a value of each option may be — its type, range, choices or JSON shape (declared per option
 * in registry.ts) — checked before anything is stored. The readers of the options tolerate a bad
 * stored value (one saved before these rules), but a value a reader would misread must never be
 * saved: a negative price once made every call to its model hang.
 */
import type { ErrorParams } from '../http/errors.js';
import type { RefusalCode } from '../http/refusals.js';

/** The shapes JSON options take; each has its own refusal naming the entry at fault. */
export type JsonShape =
  /** Name → a finite number ≥ 0 (prices, ratios, group ratios). */
  | 'number_map'
  /** Name → text (usable groups, Gemini safety thresholds and API versions). */
  | 'string_map'
  /** Model → an integer ≥ 1 (Claude's default max_tokens). */
  | 'positive_int_map'
  /** Name → an integer ≥ 0 (tokens per minute per group). */
  | 'count_map'
  /** Group → [requests, successes], both integers ≥ 0. */
  | 'count_pair_map'
  /** Model → header name → text (Claude's extra headers). */
  | 'header_map'
  /** A list of names. */
  | 'string_list'
  /** The chat links: a list of objects, client name → URL template. */
  | 'chat_list';

export interface ValueRule {
  type: 'bool' | 'int' | 'float' | 'string' | 'json';
  min?: number;
  max?: number;
  /** The only values a text option takes. */
  choices?: readonly string[];
  shape?: JsonShape;
  /** A further check of the value's form, after its type's, range and shape. */
  check?: (value: string) => RefusalCode | null;
}

export interface Refusal {
  code: RefusalCode;
  params?: ErrorParams;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** Per map shape: what each entry's value must be, and the refusal naming an entry that is not. */
const MAP_ENTRIES: Partial<Record<JsonShape, { accept: (v: unknown) => boolean; code: RefusalCode }>> = {
  number_map: { accept: (v) => typeof v === 'number' && Number.isFinite(v) && v >= 0, code: 'option.json_number_values' },
  string_map: { accept: (v) => typeof v === 'string', code: 'option.json_string_values' },
  positive_int_map: { accept: (v) => isCount(v) && (v as number) > 0, code: 'option.json_positive_int_values' },
  count_map: { accept: isCount, code: 'option.json_count_values' },
  count_pair_map: { accept: (v) => Array.isArray(v) && v.length === 2 && v.every(isCount), code: 'option.json_count_pairs' },
  header_map: {
    accept: (v) => isObject(v) && Object.values(v).every((h) => typeof h === 'string'),
    code: 'option.json_header_values',
  },
};

function checkShape(shape: JsonShape, value: unknown): Refusal | null {
  if (shape === 'string_list') {
    return Array.isArray(value) && value.every((v) => typeof v === 'string') ? null : { code: 'option.json_string_list' };
  }
  if (shape === 'chat_list') {
    const ok = Array.isArray(value) && value.every((v) => isObject(v) && Object.values(v).every((u) => typeof u === 'string'));
    return ok ? null : { code: 'option.json_chats' };
  }
  if (!isObject(value)) return { code: 'option.json_object' };
  const entries = MAP_ENTRIES[shape]!;
  const bad = Object.entries(value).find(([, v]) => !entries.accept(v));
  return bad ? { code: entries.code, params: { name: bad[0] } } : null;
}

function checkRange(rule: ValueRule, n: number): Refusal | null {
  const { min, max } = rule;
  if (min !== undefined && max !== undefined && (n < min || n > max))
    return { code: 'option.out_of_range', params: { min, max } };
  if (min !== undefined && n < min) return { code: 'option.below_minimum', params: { min } };
  if (max !== undefined && n > max) return { code: 'option.above_maximum', params: { max } };
  return null;
}

/** Why `value` (as stored: text) is no value of an option with `rule`; null when it is one. */
export function checkOptionValue(rule: ValueRule, value: string): Refusal | null {
  const refusal = checkType(rule, value);
  if (refusal || !rule.check) return refusal;
  const code = rule.check(value);
  return code ? { code } : null;
}

function checkType(rule: ValueRule, value: string): Refusal | null {
  switch (rule.type) {
    case 'bool':
      return value === 'true' || value === 'false' ? null : { code: 'option.not_boolean' };
    case 'int':
      // A safe integer: every int option is read back as a JavaScript number.
      if (!/^-?\d+$/.test(value.trim()) || !Number.isSafeInteger(Number(value))) return { code: 'option.not_integer' };
      return checkRange(rule, Number(value));
    case 'float':
      if (value.trim() === '' || !Number.isFinite(Number(value))) return { code: 'option.not_number' };
      return checkRange(rule, Number(value));
    case 'json': {
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch {
        return { code: 'option.not_json' };
      }
      return rule.shape ? checkShape(rule.shape, parsed) : null;
    }
    case 'string':
      return rule.choices && !rule.choices.includes(value)
        ? { code: 'option.not_choice', params: { choices: rule.choices.map((c) => JSON.stringify(c)).join(', ') } }
        : null;
  }
}

/** Whether a number read back from storage is within the option's range (a value saved before the rules may not be). */
export function inRange(rule: ValueRule, n: number): boolean {
  return Number.isFinite(n) && (rule.min === undefined || n >= rule.min) && (rule.max === undefined || n <= rule.max);
}
