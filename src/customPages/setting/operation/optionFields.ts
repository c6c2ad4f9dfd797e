/**
 * Settings forms as data: each field names its option key and kind (switch, text, number, JSON,
 * choice), and `checkField` checks a typed string against its field, returning i18n message
 * keys. Shared by the operation, rate limit and models tabs.
 */
import type { OptionKey, OptionValues } from '../../../api/customMethods';
import { capabilityOverridesError } from '../../../../server/shared';

export interface Problem {
  message: string;
  args?: Record<string, string | number>;
}

/** Checks a parsed JSON value; null when it is acceptable. */
export type JsonCheck = (value: unknown) => Problem | null;

export type FieldSpec =
  | { key: OptionKey; kind: 'switch'; hint?: true }
  | { key: OptionKey; kind: 'text'; lines?: number; hint?: true }
  | { key: OptionKey; kind: 'int' | 'float'; min?: number; max?: number; hint?: true }
  | { key: OptionKey; kind: 'json'; check?: JsonCheck; hint?: true }
  | { key: OptionKey; kind: 'select'; choices: readonly string[]; hint?: true };

/** Typed strings by option key (the server's option registry). */
export type FormValues = OptionValues;

const E = 'settings_operation.errors';

/** Polyglot reads dots as nesting, so `gemini.safety_settings` is labelled under `gemini_safety_settings`. */
export const labelKey = (key: string): string => `settings_operation.fields.${key.replace(/\./g, '_')}`;
export const hintKey = (key: string): string => `settings_operation.hints.${key.replace(/\./g, '_')}`;

const isObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);

export const jsonObject: JsonCheck = (value) => (isObject(value) ? null : { message: `${E}.json_object` });

export const jsonArray: JsonCheck = (value) => (Array.isArray(value) ? null : { message: `${E}.json_array` });

/** An object whose every value passes `accept`; names the first entry that does not. */
function objectOf(accept: (v: unknown) => boolean, message: string): JsonCheck {
  return (value) => {
    if (!isObject(value)) return { message: `${E}.json_object` };
    const bad = Object.entries(value).find(([, v]) => !accept(v));
    return bad ? { message: `${E}.${message}`, args: { name: bad[0] } } : null;
  };
}

/** Model or group → a non-negative number (price and ratio maps). */
export const numberMap = objectOf((v) => typeof v === 'number' && Number.isFinite(v) && v >= 0, 'json_number_values');
/** Name → text (usable groups, Gemini safety thresholds and API versions). */
export const stringMap = objectOf((v) => typeof v === 'string', 'json_string_values');
/** Model → a positive integer (Claude default max_tokens). */
export const positiveIntMap = objectOf((v) => typeof v === 'number' && Number.isInteger(v) && v > 0, 'json_positive_int_values');
/** Model → header name → value (Claude extra headers). */
export const headerMap = objectOf(
  (v) => isObject(v) && Object.values(v).every((h) => typeof h === 'string'),
  'json_header_values',
);

/** Model prefix → capabilities (relay.model_capabilities), by the server's own rule; names the entry at fault. */
export const capabilityTable: JsonCheck = (value) => {
  if (!isObject(value)) return { message: `${E}.json_object` };
  const why = capabilityOverridesError(JSON.stringify(value));
  if (why === null) return null;
  const at = why.includes(':') ? why.slice(0, why.indexOf(':')) : '""';
  return { message: `${E}.json_capabilities`, args: { name: at } };
};

/** A list of model names. */
export const stringList: JsonCheck = (value) =>
  Array.isArray(value) && value.every((v) => typeof v === 'string') ? null : { message: `${E}.json_string_list` };

/** The chat links: a list of one-entry objects, client name → URL template. */
export const chatList: JsonCheck = (value) =>
  Array.isArray(value) && value.every((v) => isObject(v) && Object.values(v).every((url) => typeof url === 'string'))
    ? null
    : { message: `${E}.json_chats` };

function checkNumber(field: Extract<FieldSpec, { kind: 'int' | 'float' }>, text: string): Problem | null {
  const trimmed = text.trim();
  if (trimmed === '' || !Number.isFinite(Number(trimmed))) return { message: `${E}.not_number` };
  const value = Number(trimmed);
  if (field.kind === 'int' && !Number.isInteger(value)) return { message: `${E}.integer` };
  if (field.min !== undefined && field.max !== undefined && (value < field.min || value > field.max)) {
    return { message: `${E}.range`, args: { min: field.min, max: field.max } };
  }
  if (field.min !== undefined && value < field.min) return { message: `${E}.min`, args: { min: field.min } };
  if (field.max !== undefined && value > field.max) return { message: `${E}.max`, args: { max: field.max } };
  return null;
}

export function checkField(field: FieldSpec, text: string): Problem | null {
  switch (field.kind) {
    case 'int':
    case 'float':
      return checkNumber(field, text);
    case 'json': {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        return { message: 'settings.common.invalid_json' };
      }
      return field.check ? field.check(value) : null;
    }
    case 'select':
      return field.choices.includes(text) ? null : { message: `${E}.choice` };
    case 'switch':
    case 'text':
      return null;
  }
}

/** The form's slice of the stored options ('' for a key the server did not send). */
export function pickValues(fields: readonly FieldSpec[], values: FormValues): FormValues {
  return Object.fromEntries(fields.map((field) => [field.key, values[field.key] ?? '']));
}
