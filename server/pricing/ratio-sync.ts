/**
 * Ratio sync, the pure half: reading another gateway's answer into price maps, and comparing them
 * with ours. An upstream answers either `/api/ratio_config` (`{success, data: {model_ratio, …}}`)
 * or `/api/pricing` (`{success, data: [{model_name, quota_type, model_ratio, …}]}`); only finite,
 * non-negative numbers are kept. The differences keep the family's shape: per model and ratio type,
 * `{current, upstreams: {name: value | "same" | null}, confidence: {name: bool}}`.
 */

export const RATIO_TYPES = ['model_ratio', 'completion_ratio', 'cache_ratio', 'model_price'] as const;
export type RatioType = (typeof RATIO_TYPES)[number];
export type RatioData = Record<RatioType, Record<string, number>>;

/** The option each ratio type is saved in (the admin applies through PUT /api/option/). */
export const RATIO_OPTIONS: Record<RatioType, 'ModelRatio' | 'CompletionRatio' | 'CacheRatio' | 'ModelPrice'> = {
  model_ratio: 'ModelRatio',
  completion_ratio: 'CompletionRatio',
  cache_ratio: 'CacheRatio',
  model_price: 'ModelPrice',
};

const MODEL_NAME_MAX = 255;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isPrice = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const isModelName = (name: string) => name !== '' && name.length <= MODEL_NAME_MAX;

export function emptyRatioData(): RatioData {
  return { model_ratio: {}, completion_ratio: {}, cache_ratio: {}, model_price: {} };
}

/** A name → number map with what is not a price or not a model name left out. */
export function priceMap(value: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  if (!isObject(value)) return out;
  for (const [name, v] of Object.entries(value)) if (isModelName(name) && isPrice(v)) out[name] = v;
  return out;
}

/** The `/api/pricing` rows: a per-call model gives its price, a per-token one its ratios. */
function fromPricingRows(rows: unknown[]): RatioData {
  const data = emptyRatioData();
  for (const row of rows) {
    if (!isObject(row) || typeof row.model_name !== 'string' || !isModelName(row.model_name)) continue;
    const name = row.model_name;
    if (row.quota_type === 1) {
      if (isPrice(row.model_price)) data.model_price[name] = row.model_price;
    } else {
      if (isPrice(row.model_ratio)) data.model_ratio[name] = row.model_ratio;
      if (isPrice(row.completion_ratio)) data.completion_ratio[name] = row.completion_ratio;
    }
    if (isPrice(row.cache_ratio)) data.cache_ratio[name] = row.cache_ratio;
  }
  return data;
}

/** An upstream's answer as price maps; throws an Error whose message says what was wrong. */
export function parseUpstreamAnswer(text: string): RatioData {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error('上游返回的不是 JSON');
  }
  if (!isObject(body)) throw new Error('上游返回格式不正确');
  if (body.success !== true) throw new Error(typeof body.message === 'string' && body.message ? body.message : '上游返回失败');
  const payload = body.data;
  if (Array.isArray(payload)) return fromPricingRows(payload);
  if (isObject(payload) && RATIO_TYPES.some((t) => t in payload)) {
    const data = emptyRatioData();
    for (const type of RATIO_TYPES) data[type] = priceMap(payload[type]);
    return data;
  }
  throw new Error('无法解析上游返回数据');
}

export interface UpstreamRatios {
  name: string;
  data: RatioData;
}

export interface DifferenceItem {
  current: number | null;
  upstreams: Record<string, number | 'same' | null>;
  confidence: Record<string, boolean>;
}
export type Differences = Record<string, Partial<Record<RatioType, DifferenceItem>>>;

const EPSILON = 1e-9;
const same = (a: number | null, b: number | null) => a !== null && b !== null && Math.abs(a - b) < EPSILON;

/**
 * A `/api/pricing` answer fills unset models with ratio 37.5 and completion ratio 1: such a pair
 * is marked not to be trusted (`confidence` false), as the family does.
 */
function trusted(data: RatioData, model: string): boolean {
  return !(same(data.model_ratio[model] ?? null, 37.5) && same(data.completion_ratio[model] ?? null, 1));
}

/** Where an upstream differs from us: every model and ratio type an upstream sets otherwise. */
export function buildDifferences(local: RatioData, upstreams: UpstreamRatios[]): Differences {
  const models = new Set<string>();
  for (const data of [local, ...upstreams.map((u) => u.data)]) {
    for (const type of RATIO_TYPES) for (const name of Object.keys(data[type])) models.add(name);
  }
  const differences: Differences = {};
  const differing = new Set<string>();
  for (const model of models) {
    for (const type of RATIO_TYPES) {
      const current = local[type][model] ?? null;
      const item: DifferenceItem = { current, upstreams: {}, confidence: {} };
      let include = false;
      for (const { name, data } of upstreams) {
        const value = data[type][model] ?? null;
        const shown = value === null ? (current === null ? 'same' : null) : same(current, value) ? 'same' : value;
        if (typeof shown === 'number') {
          include = true;
          differing.add(name);
        }
        item.upstreams[name] = shown;
        item.confidence[name] = trusted(data, model);
      }
      if (include) (differences[model] ??= {})[type] = item;
    }
  }
  // An upstream that differs nowhere is left out of every item.
  for (const [model, items] of Object.entries(differences)) {
    for (const [type, item] of Object.entries(items) as Array<[RatioType, DifferenceItem]>) {
      for (const name of Object.keys(item.upstreams)) {
        if (differing.has(name)) continue;
        delete item.upstreams[name];
        delete item.confidence[name];
      }
      if (Object.values(item.upstreams).every((v) => v === 'same')) delete items[type];
    }
    if (Object.keys(items).length === 0) delete differences[model];
  }
  return differences;
}
