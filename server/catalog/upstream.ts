/**
 * The official model metadata new-api's console syncs from: `{base}/api/newapi/models.json` and
 * `vendors.json` (or `{base}/api/i18n/{locale}/newapi/…`), each an envelope `{success, data}` or a
 * bare array. Fetched through the SSRF-safe fetcher, within a deadline and a size cap, only when an
 * admin asks. What comes back is somebody else's data: every value is held to the columns (text
 * cut to length, numbers to their range, icons that are neither names nor http(s) addresses
 * dropped) before anything is compared or written.
 */
import { fail } from '../http/errors.js';
import { INT32_MAX } from '../http/schemas.js';
import { safeFetch } from '../http/safe-fetch.js';
import { CATALOG_ENABLED, ICON_MAX, NAME_MAX, NAME_RULE_EXACT, NAME_RULE_SUFFIX, TAGS_MAX, DESCRIPTION_MAX } from './schemas.js';

const LOCALES = ['en', 'zh-CN', 'zh-TW', 'ja'] as const;
const FETCH_TIMEOUT_MS = 15_000;
const MAX_BYTES = 10 * 1024 * 1024;

/** The fields a sync may set, with what the upstream row said (`present`: the keys it had). */
export interface UpstreamModel {
  model_name: string;
  description: string;
  icon: string;
  tags: string;
  vendor_name: string;
  name_rule: number;
  /** 1, or 0 when the catalogue does not say. */
  status: number;
  context_length: number;
  max_output_tokens: number;
  knowledge_cutoff: string;
  release_date: string;
  parameter_count: string;
  input_modalities: string;
  output_modalities: string;
  present: ReadonlySet<string>;
}

export interface UpstreamVendor {
  name: string;
  description: string;
  icon: string;
  status: number;
}

export interface UpstreamSource {
  locale: string;
  models_url: string;
  vendors_url: string;
}

/** The catalogue's locale as it spells it (any case asked), or "" for the default one. */
export function catalogueLocale(input: string | undefined): string {
  const wanted = (input ?? '').trim().toLowerCase();
  return LOCALES.find((locale) => locale.toLowerCase() === wanted) ?? '';
}

export function upstreamSource(base: string, locale: string): UpstreamSource {
  const root = locale === '' ? `${base}/api/newapi` : `${base}/api/i18n/${locale}/newapi`;
  return { locale, models_url: `${root}/models.json`, vendors_url: `${root}/vendors.json` };
}

/**
 * An upstream's text held to its column: at most `max` characters, without NUL characters (which
 * PostgreSQL refuses in text, failing the whole sync there, and which no field here means).
 */
const text = (value: unknown, max: number): string =>
  typeof value === 'string' ? [...value.replaceAll('\u0000', '').trim()].slice(0, max).join('') : '';

const count = (value: unknown): number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= INT32_MAX ? value : 0;

/** An icon the console may show: an icon name or an http(s) address; anything else is dropped. */
function icon(value: unknown): string {
  const candidate = text(value, ICON_MAX);
  if (/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(candidate)) return candidate;
  return /^https?:\/\/\S+$/i.test(candidate) && URL.canParse(candidate) ? candidate : '';
}

/** 1 enabled; anything else is "not said" (0), as new-api reads it: a new row is then enabled. */
const status = (value: unknown): number => (value === CATALOG_ENABLED ? CATALOG_ENABLED : 0);

const nameRule = (value: unknown): number =>
  typeof value === 'number' && Number.isInteger(value) && value >= NAME_RULE_EXACT && value <= NAME_RULE_SUFFIX
    ? value
    : NAME_RULE_EXACT;

function rows(body: unknown): Record<string, unknown>[] {
  const list: unknown = Array.isArray(body) ? body : (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(list)) return [];
  return list.filter((row): row is Record<string, unknown> => typeof row === 'object' && row !== null && !Array.isArray(row));
}

export function parseModels(body: unknown): UpstreamModel[] {
  return rows(body)
    .map((row) => ({
      model_name: text(row.model_name, NAME_MAX),
      description: text(row.description, DESCRIPTION_MAX),
      icon: icon(row.icon),
      tags: text(row.tags, TAGS_MAX),
      vendor_name: text(row.vendor_name, NAME_MAX),
      name_rule: nameRule(row.name_rule),
      status: status(row.status),
      context_length: count(row.context_length),
      max_output_tokens: count(row.max_output_tokens),
      knowledge_cutoff: text(row.knowledge_cutoff, 32),
      release_date: text(row.release_date, 32),
      parameter_count: text(row.parameter_count, 32),
      input_modalities: text(row.input_modalities, 128),
      output_modalities: text(row.output_modalities, 128),
      present: new Set(Object.keys(row)),
    }))
    .filter((model) => model.model_name !== '');
}

export function parseVendors(body: unknown): UpstreamVendor[] {
  return rows(body)
    .map((row) => ({
      name: text(row.name, NAME_MAX),
      description: text(row.description, DESCRIPTION_MAX),
      icon: icon(row.icon),
      status: status(row.status),
    }))
    .filter((vendor) => vendor.name !== '');
}

async function fetchJson(url: string): Promise<unknown> {
  const res = await safeFetch(url, { headers: { accept: 'application/json' }, timeoutMs: FETCH_TIMEOUT_MS, maxBytes: MAX_BYTES });
  if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
  return JSON.parse(res.text()) as unknown;
}

export interface UpstreamCatalogue {
  models: Map<string, UpstreamModel>;
  vendors: Map<string, UpstreamVendor>;
}

/**
 * Both lists; the models are required (a failure is refused with its reason), the vendors are not
 * (a model then gets a vendor of its name only).
 */
export async function fetchUpstream(source: UpstreamSource): Promise<UpstreamCatalogue> {
  const [models, vendors] = await Promise.allSettled([fetchJson(source.models_url), fetchJson(source.vendors_url)]);
  if (models.status === 'rejected') {
    throw fail('model.sync_fetch_failed', { detail: (models.reason as Error).message });
  }
  return {
    models: new Map(parseModels(models.value).map((model) => [model.model_name, model])),
    vendors: new Map(vendors.status === 'fulfilled' ? parseVendors(vendors.value).map((vendor) => [vendor.name, vendor]) : []),
  };
}
