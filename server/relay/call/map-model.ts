/**
 * A channel's model mapping: a JSON map followed as a chain (a → b → c), refusing loops. Parsed
 * maps are kept per mapping string, so the hot path parses each channel's mapping once.
 */
const parsed = new Map<string, Record<string, string>>();

function parse(mapping: string): Record<string, string> {
  let map = parsed.get(mapping);
  if (!map) {
    try {
      const value: unknown = JSON.parse(mapping);
      map = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, string>) : {};
    } catch {
      map = {};
    }
    if (parsed.size > 10_000) parsed.clear();
    parsed.set(mapping, map);
  }
  return map;
}

export type MappingResult = { ok: true; model: string } | { ok: false; message: string };

export function mapModel(mapping: string | null, model: string): MappingResult {
  if (!mapping || mapping === '{}') return { ok: true, model };
  const map = parse(mapping);
  const seen = new Set<string>([model]);
  let current = model;
  for (;;) {
    const next = map[current];
    if (typeof next !== 'string' || next === '' || next === current) return { ok: true, model: current };
    if (seen.has(next)) return { ok: false, message: `模型映射存在循环：${[...seen, next].join(' → ')}` };
    seen.add(next);
    current = next;
  }
}

const overrides = new Map<string, Record<string, unknown>>();

/** A channel's param_override as an object (empty when unset or invalid), parsed once. */
export function paramOverride(raw: string | null): Record<string, unknown> | null {
  if (!raw || raw === '{}') return null;
  let value = overrides.get(raw);
  if (!value) {
    try {
      const v: unknown = JSON.parse(raw);
      value = v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
    } catch {
      value = {};
    }
    if (overrides.size > 10_000) overrides.clear();
    overrides.set(raw, value);
  }
  return Object.keys(value).length > 0 ? value : null;
}

/** A channel's status_code_mapping applied to an upstream error status. */
export function mapStatus(raw: string | null, status: number): number {
  if (!raw || raw === '{}') return status;
  try {
    const map = JSON.parse(raw) as Record<string, unknown>;
    const to = Number(map[String(status)]);
    return Number.isInteger(to) && to >= 100 && to <= 599 ? to : status;
  } catch {
    return status;
  }
}
