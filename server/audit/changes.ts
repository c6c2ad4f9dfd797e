/**
 * A subject's state as the audit keeps it, and what changed between two of them. Secret values
 * are compared as they are and written only masked: a key's last four characters (enough to tell
 * which key it is, as providers' dashboards show them) or nothing at all for a password hash.
 */

/** A secret field's value: compared raw, never written raw. */
export class Secret {
  constructor(
    readonly raw: unknown,
    /** `tail`: the last four characters of a long value; `hidden`: only whether one is set. */
    readonly kind: 'tail' | 'hidden' = 'tail',
  ) {}
}

export type Snapshot = Record<string, unknown>;

/** One field: only `after` for a created subject, only `before` for a deleted one. */
export interface FieldChange {
  field: string;
  before?: unknown;
  after?: unknown;
}

export const MASK = '••••••';
/** Longer values are cut: a row says what changed, not every byte of a page's HTML. */
const TEXT_MAX = 4000;
const TAIL_MIN_LENGTH = 16;

function masked(secret: Secret): string {
  const text = secret.raw === null || secret.raw === undefined ? '' : String(secret.raw);
  if (text === '') return '';
  if (secret.kind === 'hidden' || text.length < TAIL_MIN_LENGTH) return MASK;
  return MASK + text.slice(-4);
}

/** What a value is written as: secrets masked, long text cut, null as "" (answers carry no null). */
export function shown(value: unknown): unknown {
  if (value instanceof Secret) return masked(value);
  if (value === null || value === undefined) return '';
  if (typeof value === 'string' && value.length > TEXT_MAX) return `${value.slice(0, TEXT_MAX)}… (${value.length})`;
  if (typeof value === 'object') {
    const text = JSON.stringify(value);
    return text.length > TEXT_MAX ? `${text.slice(0, TEXT_MAX)}… (${text.length})` : value;
  }
  return value;
}

function comparable(value: unknown): string {
  const raw = value instanceof Secret ? value.raw : value;
  return raw === null || raw === undefined ? '' : JSON.stringify(raw);
}

/**
 * The fields of a change: every field of a created subject (after only) or a deleted one (before
 * only), the fields that differ of an edited one.
 */
export function fieldChanges(before: Snapshot | undefined, after: Snapshot | undefined): FieldChange[] {
  if (!before && !after) return [];
  if (!before) return Object.entries(after ?? {}).map(([field, value]) => ({ field, after: shown(value) }));
  if (!after) return Object.entries(before).map(([field, value]) => ({ field, before: shown(value) }));
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return fields
    .filter((field) => comparable(before[field]) !== comparable(after[field]))
    .map((field) => ({ field, before: shown(before[field]), after: shown(after[field]) }));
}
