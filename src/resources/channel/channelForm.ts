/**
 * The create / edit form of a channel as plain functions: the form's values from a record, the
 * checks, and the body the API expects (models and groups as comma strings).
 */
import type { ChannelKeyView, CreateChannelBody, UpdateChannelBody } from '../../../server/channels/schemas';
import { baseUrlRequired, CHANNEL_TYPE_IDS, keyRequired, manifestOf, otherDefault } from '../../../server/shared';
import { isChannelType, PRIORITY_MIN, splitNames, type ChannelView } from './types';

export type FormMode = 'create' | 'edit';

export interface ChannelFormValues {
  id?: number;
  type: number;
  name: string;
  key: string;
  /** Create only: one channel per line of `key`. */
  batch: boolean;
  base_url: string;
  other: string;
  openai_organization: string;
  models: string[];
  group: string[];
  model_mapping: string;
  status_code_mapping: string;
  param_override: string;
  setting: string;
  test_model: string;
  priority: number | string | null;
  weight: number | string | null;
  auto_ban: boolean;
  tag: string;
  /** A channel with several keys (lines of `key`, not a batch): '' (random), random or polling. */
  multi_key_mode: string;
  /** Edit only, shown and never sent: the keys of a multi-key channel as the server describes them. */
  keys?: ChannelKeyView[];
  remark: string;
  settings: string;
  header_override: string;
  /** 0 or empty: no limit. */
  rpm_limit: number | string | null;
  max_concurrency: number | string | null;
}

/** Types with an extra `other` field, and what it means for them (from their manifests). */
export const OTHER_FIELD: Partial<Record<number, { label: string; placeholder?: string }>> = Object.fromEntries(
  CHANNEL_TYPE_IDS.flatMap((type) => {
    const other = manifestOf(type)?.other;
    return other ? [[type, { label: other.label, placeholder: other.placeholder }]] : [];
  }),
);

/** Types whose key has a special format, explained under the key input. */
export const KEY_FORMAT_TYPES: readonly number[] = CHANNEL_TYPE_IDS.filter((type) => manifestOf(type)?.keyFormatHint);

/** Types that take an OpenAI organization id. */
export const OPENAI_TYPES: readonly number[] = CHANNEL_TYPE_IDS.filter((type) => manifestOf(type)?.organization);

const V1_SUFFIX = /\/v1$/i;

export function emptyValues(): ChannelFormValues {
  return {
    type: 1,
    name: '',
    key: '',
    batch: false,
    base_url: '',
    other: '',
    openai_organization: '',
    models: [],
    group: ['default'],
    model_mapping: '',
    status_code_mapping: '',
    param_override: '',
    setting: '',
    test_model: '',
    priority: 0,
    weight: 0,
    auto_ban: true,
    tag: '',
    multi_key_mode: '',
    remark: '',
    settings: '',
    header_override: '',
    rpm_limit: 0,
    max_concurrency: 0,
  };
}

export function toFormValues(record: ChannelView): ChannelFormValues {
  return {
    ...emptyValues(),
    id: record.id,
    type: record.type,
    name: record.name,
    base_url: record.base_url ?? '',
    other: record.other ?? '',
    openai_organization: record.openai_organization ?? '',
    models: splitNames(record.models),
    group: splitNames(record.group),
    model_mapping: record.model_mapping ?? '',
    status_code_mapping: record.status_code_mapping ?? '',
    param_override: record.param_override ?? '',
    setting: record.setting ?? '',
    test_model: record.test_model ?? '',
    priority: record.priority,
    weight: record.weight,
    auto_ban: record.auto_ban !== 0,
    tag: record.tag ?? '',
    multi_key_mode: record.multi_key_mode ?? '',
    keys: record.keys ?? [],
    remark: record.remark ?? '',
    settings: record.settings ?? '',
    header_override: record.header_override ?? '',
    rpm_limit: record.rpm_limit ?? 0,
    max_concurrency: record.max_concurrency ?? 0,
  };
}

const text = (value: unknown): string => (value === undefined || value === null ? '' : String(value).trim());

/** Trailing slashes go. */
export function cleanBaseUrl(value: unknown): string {
  return text(value).replace(/\/+$/, '');
}

/** A base URL ending in /v1 is usually a mistake: the gateway appends the path itself. */
export function endsWithV1(value: unknown): boolean {
  return V1_SUFFIX.test(cleanBaseUrl(value));
}

function isJsonObject(value: string): boolean {
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

const JSON_FIELDS = ['model_mapping', 'status_code_mapping', 'param_override', 'setting', 'settings', 'header_override'] as const;

const LIMIT_FIELDS = ['rpm_limit', 'max_concurrency'] as const;
const INT32_MAX = 2147483647;

/** Header override: a JSON object whose values are all text (the server checks the names). */
function isHeaderObject(value: string): boolean {
  const parsed: unknown = JSON.parse(value);
  return Object.values(parsed as Record<string, unknown>).every((v) => typeof v === 'string');
}

/** An integer from a number input; undefined when blank; NaN when not an integer. */
function integerOf(value: unknown): number | undefined {
  if (text(value) === '') return undefined;
  const n = Number(value);
  return Number.isInteger(n) ? n : Number.NaN;
}

/** Field → i18n key of its message; empty when the form may be saved. */
export function validateChannel(values: Partial<ChannelFormValues>, mode: FormMode): Record<string, string> {
  const errors: Record<string, string> = {};
  const v = 'resources.channel.validation.';
  const type = Number(values.type ?? 1);
  if (text(values.name) === '') errors.name = `${v}name_and_key`;
  // Ollama serves without a key; every other type needs one.
  if (mode === 'create' && text(values.key) === '' && keyRequired(type)) errors.key = `${v}name_and_key`;
  if (!values.models || values.models.length === 0) errors.models = `${v}models`;
  const baseUrl = cleanBaseUrl(values.base_url);
  if (baseUrl === '' && isChannelType(type) && baseUrlRequired(type)) errors.base_url = `${v}base_url_required`;
  else if (baseUrl !== '' && !/^https?:\/\/[^\s/]+/i.test(baseUrl)) errors.base_url = `${v}base_url_format`;
  for (const field of JSON_FIELDS) {
    const value = text(values[field]);
    if (value !== '' && !isJsonObject(value)) errors[field] = `${v}${field}_json`;
  }
  const headers = text(values.header_override);
  if (headers !== '' && !errors.header_override && !isHeaderObject(headers)) errors.header_override = `${v}header_override_text`;
  for (const field of LIMIT_FIELDS) {
    const n = integerOf(values[field]);
    if (n !== undefined && (Number.isNaN(n) || n < 0 || n > INT32_MAX)) errors[field] = `${v}limit_integer`;
  }
  const priority = integerOf(values.priority);
  if (priority !== undefined && Number.isNaN(priority)) errors.priority = `${v}priority_integer`;
  else if (priority !== undefined && priority < PRIORITY_MIN) errors.priority = `${v}priority_min`;
  const weight = integerOf(values.weight);
  if (weight !== undefined && Number.isNaN(weight)) errors.weight = `${v}weight_integer`;
  return errors;
}

type ChannelBody = CreateChannelBody & Partial<Pick<UpdateChannelBody, 'id'>>;

/**
 * The body of POST /api/channel/ (create) or PUT /api/channel/ (edit). On edit an empty key is
 * left out, which keeps the stored one; empty priority or weight is left out too.
 */
export function toChannelBody(values: ChannelFormValues, mode: FormMode): ChannelBody {
  const type = Number(values.type);
  let other = text(values.other);
  if (other === '') other = otherDefault(type) ?? '';
  const body: ChannelBody = {
    type,
    name: text(values.name),
    base_url: cleanBaseUrl(values.base_url),
    other: OTHER_FIELD[type] ? other : '',
    openai_organization: OPENAI_TYPES.includes(type) ? text(values.openai_organization) : '',
    models: values.models
      .map((m) => m.trim())
      .filter((m) => m !== '')
      .join(','),
    group: values.group.join(','),
    model_mapping: text(values.model_mapping),
    status_code_mapping: text(values.status_code_mapping),
    param_override: text(values.param_override),
    setting: text(values.setting),
    test_model: text(values.test_model),
    auto_ban: values.auto_ban ? 1 : 0,
    tag: text(values.tag),
    multi_key_mode: text(values.multi_key_mode),
    remark: text(values.remark),
    settings: text(values.settings),
    header_override: text(values.header_override),
    rpm_limit: integerOf(values.rpm_limit) ?? 0,
    max_concurrency: integerOf(values.max_concurrency) ?? 0,
  };
  const priority = integerOf(values.priority);
  if (priority !== undefined) body.priority = priority;
  const weight = integerOf(values.weight);
  if (weight !== undefined) body.weight = Math.max(0, weight);
  const key = text(values.key);
  if (mode === 'create') {
    body.key = key;
    if (values.batch) body.mode = 'batch';
  } else {
    if (values.id !== undefined) body.id = values.id;
    if (key !== '') body.key = key;
  }
  return body;
}
