/**
 * Which model row describes a served model: a row names one model exactly, or every model whose
 * name starts with, contains or ends with its `model_name`. Several rows may match one name; the
 * winner is fixed so every process and every request picks the same one: an exact row first, then
 * prefix, suffix and contains rows, among rows of one rule the longest name (the most specific),
 * then the oldest row.
 */
import type { ModelMeta } from '../db/types.js';
import { NAME_RULE_CONTAINS, NAME_RULE_EXACT, NAME_RULE_PREFIX, NAME_RULE_SUFFIX } from './schemas.js';

export function matchesRule(rule: number, pattern: string, name: string): boolean {
  switch (rule) {
    case NAME_RULE_EXACT:
      return name === pattern;
    case NAME_RULE_PREFIX:
      return name.startsWith(pattern);
    case NAME_RULE_SUFFIX:
      return name.endsWith(pattern);
    case NAME_RULE_CONTAINS:
      return name.includes(pattern);
    default:
      return false;
  }
}

/** Lower comes first. */
const RULE_RANK: Record<number, number> = {
  [NAME_RULE_EXACT]: 0,
  [NAME_RULE_PREFIX]: 1,
  [NAME_RULE_SUFFIX]: 2,
  [NAME_RULE_CONTAINS]: 3,
};

function precedes(a: ModelMeta, b: ModelMeta): boolean {
  const rank = (RULE_RANK[a.name_rule] ?? 9) - (RULE_RANK[b.name_rule] ?? 9);
  if (rank !== 0) return rank < 0;
  if (a.model_name.length !== b.model_name.length) return a.model_name.length > b.model_name.length;
  return a.id < b.id;
}

/** Finds the row describing each model name; built once per snapshot of the table. */
export class RowMatcher {
  private readonly exact = new Map<string, ModelMeta>();
  private readonly patterns: ModelMeta[];

  constructor(rows: readonly ModelMeta[]) {
    for (const row of rows) if (row.name_rule === NAME_RULE_EXACT) this.exact.set(row.model_name, row);
    this.patterns = rows.filter((row) => row.name_rule !== NAME_RULE_EXACT && row.model_name !== '');
  }

  rowFor(name: string): ModelMeta | undefined {
    const exact = this.exact.get(name);
    if (exact) return exact;
    let best: ModelMeta | undefined;
    for (const row of this.patterns) {
      if (matchesRule(row.name_rule, row.model_name, name) && (!best || precedes(row, best))) best = row;
    }
    return best;
  }
}
