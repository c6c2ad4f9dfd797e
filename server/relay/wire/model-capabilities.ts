/**
 * What each upstream model family takes, for the conversions: a request converted from another
 * format carries what its client asked in that format's terms (Claude's thinking, Gemini's
 * thinkingConfig, max_tokens), and the target model may refuse it. Families are model-name
 * prefixes (a vendor path such as `openai/` ignored); the longest matching prefix wins, the admin's
 * entries (`relay.model_capabilities`) before the built-in ones, so an admin can add a new model or
 * correct one without a release.
 *
 * Sources: OpenAI's reasoning guide (o-series and gpt-5 take `max_completion_tokens` and refuse
 * `max_tokens`, temperature other than 1, top_p, penalties and logprobs); Anthropic's model and
 * extended-thinking pages (output limits; which models think; Sonnet/Haiku 4.5 and Opus 4.1+ refuse
 * temperature with top_p); Google's thinking guide (2.5 takes a budget, 3 a level, earlier none).
 */
export type ThinkingStyle = 'none' | 'effort' | 'budget' | 'level';

export interface ModelCapabilities {
  /** Reasons before answering (OpenAI o-series, gpt-5): refuses the sampling parameters. */
  reasons: boolean;
  /** The field the completion limit goes in. */
  tokenField: 'max_tokens' | 'max_completion_tokens';
  /** The sampling parameters it takes; null: all of them. */
  sampling: readonly string[] | null;
  /** Refuses temperature and top_p together (Claude Sonnet/Haiku 4.5, Opus 4.1+). */
  oneSampler: boolean;
  /** How thinking is asked of it: not at all, OpenAI's effort, a token budget, a level. */
  thinking: ThinkingStyle;
  /** The most output tokens it takes; null: unknown. */
  outputLimit: number | null;
}

/** OpenAI chat's sampling parameters, the ones reasoning models refuse. */
export const SAMPLING_PARAMS = [
  'temperature',
  'top_p',
  'top_k',
  'presence_penalty',
  'frequency_penalty',
  'logprobs',
  'top_logprobs',
] as const;

const plain = (outputLimit: number): ModelCapabilities => ({
  reasons: false,
  tokenField: 'max_tokens',
  sampling: null,
  oneSampler: false,
  thinking: 'none',
  outputLimit,
});
const reasoning = (outputLimit: number, thinking: ThinkingStyle = 'effort'): ModelCapabilities => ({
  reasons: true,
  tokenField: 'max_completion_tokens',
  sampling: [],
  oneSampler: false,
  thinking,
  outputLimit,
});
const claude = (outputLimit: number, thinks: boolean, oneSampler = false): ModelCapabilities => ({
  ...plain(outputLimit),
  sampling: ['temperature', 'top_p', 'top_k'],
  oneSampler,
  thinking: thinks ? 'budget' : 'none',
});
const gemini = (outputLimit: number, thinking: ThinkingStyle): ModelCapabilities => ({ ...plain(outputLimit), thinking });

export const BUILT_IN_CAPABILITIES: Readonly<Record<string, ModelCapabilities>> = {
  'gpt-3.5': plain(4096),
  'gpt-4': plain(8192),
  'gpt-4-turbo': plain(4096),
  'gpt-4o': plain(16384),
  'gpt-4.1': plain(32768),
  'gpt-5': reasoning(128000),
  'gpt-5-chat': plain(16384),
  o1: reasoning(100000),
  'o1-mini': reasoning(65536, 'none'),
  'o1-preview': reasoning(32768, 'none'),
  o3: reasoning(100000),
  'o3-mini': reasoning(100000),
  'o4-mini': reasoning(100000),
  'claude-3-haiku': claude(4096, false),
  'claude-3-opus': claude(4096, false),
  'claude-3-5': claude(8192, false),
  'claude-3-7-sonnet': claude(64000, true),
  'claude-sonnet-4': claude(64000, true),
  'claude-sonnet-4-5': claude(64000, true, true),
  'claude-haiku-4-5': claude(64000, true, true),
  'claude-opus-4': claude(32000, true),
  'claude-opus-4-1': claude(32000, true, true),
  'claude-opus-4-5': claude(64000, true, true),
  'gemini-1.5': gemini(8192, 'none'),
  'gemini-2.0': gemini(8192, 'none'),
  'gemini-2.5': gemini(65536, 'budget'),
  'gemini-3': gemini(65536, 'level'),
};

const FIELD_CHECKS: Record<keyof ModelCapabilities, (v: unknown) => boolean> = {
  reasons: (v) => typeof v === 'boolean',
  tokenField: (v) => v === 'max_tokens' || v === 'max_completion_tokens',
  sampling: (v) => v === null || (Array.isArray(v) && v.every((p) => (SAMPLING_PARAMS as readonly unknown[]).includes(p))),
  oneSampler: (v) => typeof v === 'boolean',
  thinking: (v) => v === 'none' || v === 'effort' || v === 'budget' || v === 'level',
  outputLimit: (v) => v === null || (typeof v === 'number' && Number.isSafeInteger(v) && v > 0),
};

/**
 * Why a value of `relay.model_capabilities` is refused, or null: a JSON object of model prefix →
 * some of the fields above, each of its type. A misspelt field would silently do nothing, so
 * unknown fields are refused too.
 */
export function capabilityOverridesError(text: string): string | null {
  if (text.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  if (!isObject(value)) return 'not a JSON object';
  for (const [prefix, entry] of Object.entries(value)) {
    if (prefix.trim() === '') return 'an empty model prefix';
    if (!isObject(entry)) return `${prefix}: not an object`;
    for (const [field, v] of Object.entries(entry)) {
      const check = FIELD_CHECKS[field as keyof ModelCapabilities] as ((v: unknown) => boolean) | undefined;
      if (!check) return `${prefix}.${field}: unknown field`;
      if (!check(v)) return `${prefix}.${field}: invalid value`;
    }
  }
  return null;
}

/** The option store's reads (not imported: the option registry validates with this file). */
interface OverridesSource {
  raw(key: 'relay.model_capabilities'): string;
  json<T>(key: 'relay.model_capabilities'): T;
}

export type CapabilityOverrides = Readonly<Record<string, Partial<ModelCapabilities>>>;

/** The admin's overrides, or none when the stored value is one a release since refuses. */
export function capabilityOverridesFrom(options: OverridesSource): CapabilityOverrides {
  if (capabilityOverridesError(options.raw('relay.model_capabilities')) !== null) return {};
  const value = options.json<unknown>('relay.model_capabilities');
  return isObject(value) ? (value as CapabilityOverrides) : {};
}

/** The longest key of `table` that `model` starts with. */
function longestPrefix(table: Readonly<Record<string, unknown>>, model: string): string | null {
  let best: string | null = null;
  for (const prefix of Object.keys(table))
    if (model.startsWith(prefix.toLowerCase()) && (best === null || prefix.length > best.length)) best = prefix;
  return best;
}

/**
 * The capabilities of an upstream model, or null for a model of no known family (sent as the
 * conversion made it). An override of a built-in family changes only the fields it names.
 */
export function capabilitiesOf(model: string, overrides: CapabilityOverrides = {}): ModelCapabilities | null {
  const name = model.toLowerCase().slice(model.lastIndexOf('/') + 1);
  const builtIn = longestPrefix(BUILT_IN_CAPABILITIES, name);
  const own = longestPrefix(overrides, name);
  const base = builtIn ? BUILT_IN_CAPABILITIES[builtIn]! : null;
  if (own === null || (builtIn !== null && builtIn.length > own.length)) return base;
  return { ...(base ?? plain(0)), ...(base ? {} : { outputLimit: null }), ...overrides[own] };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
