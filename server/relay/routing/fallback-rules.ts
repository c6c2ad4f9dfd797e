/**
 * The rules of option `relay.model_fallbacks` (fallbacks.ts): a model maps to a list of models, or
 * to rules `{models, on, groups}`; checked before the option is stored, read once per stored value.
 */
export const FALLBACK_TRIGGERS = ['5xx', '429', 'context_length'] as const;
export type FallbackTrigger = (typeof FALLBACK_TRIGGERS)[number];

export interface FallbackRule {
  models: string[];
  on: FallbackTrigger[];
  groups: string[] | null;
}

const MAX_CHAIN = 10;
const isText = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '' && v.length <= 200;

function ruleOf(value: unknown): FallbackRule | null {
  if (Array.isArray(value))
    return value.every(isText) && value.length <= MAX_CHAIN ? { models: value, on: [], groups: null } : null;
  if (typeof value !== 'object' || value === null) return null;
  const { models, on = [], groups = null, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0) return null;
  if (!Array.isArray(models) || models.length === 0 || models.length > MAX_CHAIN || !models.every(isText)) return null;
  if (!Array.isArray(on) || !on.every((t) => (FALLBACK_TRIGGERS as readonly unknown[]).includes(t))) return null;
  if (groups !== null && !(Array.isArray(groups) && groups.every(isText))) return null;
  return { models, on: on as FallbackTrigger[], groups: groups as string[] | null };
}

/** The rules of each model, or null when `value` is not a valid option value. */
export function parseFallbacks(value: unknown): Map<string, FallbackRule[]> | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const out = new Map<string, FallbackRule[]>();
  for (const [model, spec] of Object.entries(value)) {
    // A plain list is one rule; a list of objects is several.
    const specs = Array.isArray(spec) && spec.some((s) => typeof s === 'object') ? spec : [spec];
    const rules = specs.map(ruleOf);
    if (!isText(model) || rules.some((r) => r === null)) return null;
    out.set(model, rules as FallbackRule[]);
  }
  return out;
}

/** The option's check: valid JSON of the shape above. */
export function fallbacksValueError(text: string): boolean {
  try {
    return parseFallbacks(JSON.parse(text)) === null;
  } catch {
    return true;
  }
}
