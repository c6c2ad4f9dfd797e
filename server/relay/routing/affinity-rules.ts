/**
 * The rules of channel affinity (option `channel_affinity_setting.rules`, the family's shape): a
 * rule matches a call by model and path patterns (and, optionally, words of its User-Agent), and
 * names where the session's key comes from — a field of the JSON body (`gjson`, a dotted path, with
 * `nested_path` into a value that is itself JSON text, as Claude Code's `metadata.user_id` is), a
 * request header, or the caller (`context_int`/`context_string`: `user_id`, `token_id`,
 * `username`, `token_name`). The first source with a value (matching `value_regex` when set) keys
 * the session. Checked before the option is stored; compiled once per stored value.
 */

export interface KeySource {
  type: 'gjson' | 'request_header' | 'context_int' | 'context_string';
  key?: string;
  path?: string;
  nested_path?: string;
}

export interface AffinityRule {
  name: string;
  model_regex: string[];
  path_regex: string[];
  user_agent_include?: string[];
  key_sources: KeySource[];
  value_regex?: string;
  /** 0: the setting's default_ttl_seconds. */
  ttl_seconds?: number;
  include_using_group?: boolean;
  include_model_name?: boolean;
  include_rule_name?: boolean;
  /** Only callers of these groups (absent or empty: every group). */
  groups?: string[];
}

export interface CompiledRule {
  rule: AffinityRule;
  models: RegExp[];
  paths: RegExp[];
  value: RegExp | null;
}

const SOURCE_TYPES = new Set(['gjson', 'request_header', 'context_int', 'context_string']);
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string' && s.length <= 500);

function regex(text: string): RegExp | null {
  try {
    return new RegExp(text);
  } catch {
    return null;
  }
}

function compileRule(raw: unknown): CompiledRule | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const r = raw as Record<string, unknown>;
  if (typeof r.name !== 'string' || r.name.trim() === '' || r.name.length > 100) return null;
  if (!isStrings(r.model_regex) || !isStrings(r.path_regex)) return null;
  if (r.user_agent_include !== undefined && r.user_agent_include !== null && !isStrings(r.user_agent_include)) return null;
  if (r.groups !== undefined && r.groups !== null && !isStrings(r.groups)) return null;
  if (!Array.isArray(r.key_sources) || r.key_sources.length === 0) return null;
  for (const s of r.key_sources as unknown[]) {
    if (typeof s !== 'object' || s === null) return null;
    const { type, key, path } = s as Record<string, unknown>;
    if (typeof type !== 'string' || !SOURCE_TYPES.has(type)) return null;
    const named = type === 'gjson' ? path : key;
    if (typeof named !== 'string' || named === '') return null;
  }
  const ttl = r.ttl_seconds ?? 0;
  if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 0 || ttl > 30 * 86_400) return null;
  if (r.value_regex !== undefined && typeof r.value_regex !== 'string') return null;
  const models = r.model_regex.map(regex);
  const paths = r.path_regex.map(regex);
  const value = r.value_regex ? regex(r.value_regex) : null;
  if (models.includes(null) || paths.includes(null) || (r.value_regex && !value)) return null;
  return { rule: raw as AffinityRule, models: models as RegExp[], paths: paths as RegExp[], value };
}

/** The compiled rules, or null when `value` is not a valid list of rules. */
export function compileAffinityRules(value: unknown): CompiledRule[] | null {
  if (!Array.isArray(value)) return null;
  const out: CompiledRule[] = [];
  const names = new Set<string>();
  for (const raw of value) {
    const compiled = compileRule(raw);
    if (!compiled || names.has(compiled.rule.name)) return null;
    names.add(compiled.rule.name);
    out.push(compiled);
  }
  return out;
}

/** The option's check. */
export function affinityRulesError(text: string): boolean {
  try {
    return compileAffinityRules(JSON.parse(text)) === null;
  } catch {
    return true;
  }
}

/** The family's default rules: Codex's prompt_cache_key on Responses, Claude Code's session. */
export const DEFAULT_AFFINITY_RULES: AffinityRule[] = [
  {
    name: 'codex cli trace',
    model_regex: ['^gpt-.*$'],
    path_regex: ['/v1/responses'],
    key_sources: [{ type: 'gjson', path: 'prompt_cache_key' }],
    include_using_group: true,
    include_rule_name: true,
  },
  {
    name: 'claude cli trace',
    model_regex: ['^claude-.*$', '^gpt-.*$'],
    path_regex: ['/v1/messages'],
    key_sources: [
      { type: 'request_header', key: 'X-Claude-Code-Session-Id' },
      { type: 'gjson', path: 'metadata.user_id', nested_path: 'session_id' },
    ],
    include_using_group: true,
    include_rule_name: true,
  },
];
