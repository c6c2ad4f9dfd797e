/** Field rules of a channel; each check throws `fail` with its refusal. */
import { fail } from '../http/errors.js';
import type { RefusalCode } from '../http/refusals.js';
import {
  baseUrlRequired,
  CHANNEL_ENABLED,
  CHANNEL_MANUALLY_DISABLED,
  isChannelType,
  keyRequired,
  otherDefault,
  type ChannelType,
} from './types.js';
import type { NameList } from './schemas.js';
import { INT32_MAX } from '../http/schemas.js';
import { MAX_TEXT_BYTES } from '../http/validation.js';
import { isMultiKeyMode, type MultiKeyMode } from './keys/parse.js';
import { checkHeaderOverride } from './header-override.js';

export const PRIORITY_MIN = -999;
/** Column widths of the channels and abilities tables. */
const NAME_MAX = 128;
const BASE_URL_MAX = 255;
const TAG_MAX = 128;
const GROUP_LIST_MAX = 255;
const GROUP_MAX = 64;
const MODEL_MAX = 255;
const STATUS_CODE_MAPPING_MAX = 1024;
const REMARK_MAX = 255;
const TEST_MODEL_MAX = 255;
const ORGANIZATION_MAX = 255;
/** A batch create makes at most this many channels. */
export const BATCH_KEYS_MAX = 1000;

/** Trimmed, de-duplicated, non-empty entries of a list given as an array or a comma string. */
export function splitList(value: NameList | null | undefined): string[] {
  if (value === undefined || value === null) return [];
  const parts = (Array.isArray(value) ? value : [value]).flatMap((v) => v.split(','));
  return [...new Set(parts.map((p) => p.trim()).filter((p) => p !== ''))];
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** An integer from a number or a numeric string; undefined when blank; NaN when not an integer. */
function parseInteger(value: unknown): number | undefined {
  if (isBlank(value)) return undefined;
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : Number.NaN;
  if (typeof value === 'string' && /^\s*-?\d{1,15}\s*$/.test(value)) return Number(value);
  return Number.NaN;
}

/** Priority: blank → undefined; otherwise an integer ≥ -999. */
export function parsePriority(value: unknown): number | undefined {
  const n = parseInteger(value);
  if (n === undefined) return undefined;
  if (Number.isNaN(n)) throw fail('channel.priority_invalid');
  if (n < PRIORITY_MIN) throw fail('channel.priority_too_low', { min: PRIORITY_MIN });
  return n;
}

/** Weight of a single channel: blank → undefined; an integer that fits its column, raised to 0 when negative. */
export function parseWeight(value: unknown): number | undefined {
  const n = parseInteger(value);
  if (n === undefined) return undefined;
  if (Number.isNaN(n) || n > INT32_MAX) throw fail('channel.weight_invalid');
  return Math.max(0, n);
}

/** Weight in a tag edit: a non-negative integer that fits its column, nothing else. */
export function parseStrictWeight(value: unknown): number {
  const n = parseInteger(value);
  if (n === undefined || Number.isNaN(n) || n < 0 || n > INT32_MAX) throw fail('channel.weight_invalid');
  return n;
}

/** Priority in a tag edit: present means it must be a valid integer. */
export function parseStrictPriority(value: unknown): number {
  const n = parsePriority(value);
  if (n === undefined) throw fail('channel.priority_invalid');
  return n;
}

/** A JSON object text, or null when blank. */
export function jsonObjectText(value: string | null | undefined, refusal: RefusalCode): string | null {
  if (value === undefined || value === null || value.trim() === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw fail(refusal);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw fail(refusal);
  return value.trim();
}

function optionalText(value: string | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

export function checkTag(value: string | null | undefined): string | null {
  const tag = optionalText(value);
  if (tag !== null && tag.length > TAG_MAX) throw fail('channel.tag_too_long', { max: TAG_MAX });
  return tag;
}

export function checkGroups(groups: string[]): string {
  for (const g of groups) if (g.length > GROUP_MAX) throw fail('channel.group_too_long', { max: GROUP_MAX });
  const joined = groups.join(',');
  if (joined.length > GROUP_LIST_MAX) throw fail('channel.group_list_too_long', { max: GROUP_LIST_MAX });
  return joined === '' ? 'default' : joined;
}

export function checkModels(models: string[]): string {
  if (models.length === 0) throw fail('channel.models_required');
  for (const m of models) if (m.length > MODEL_MAX) throw fail('channel.model_too_long', { max: MODEL_MAX });
  // Sent as a list, each name within the text rule, the joined column can still outgrow its TEXT.
  const joined = models.join(',');
  if (Buffer.byteLength(joined) > MAX_TEXT_BYTES) throw fail('channel.models_too_long', { max: MAX_TEXT_BYTES });
  return joined;
}

/** The key column as it will be stored (after a batch is joined or keys appended) fits its TEXT. */
export function checkKeyText(key: string): string {
  if (Buffer.byteLength(key) > MAX_TEXT_BYTES) throw fail('channel.key_too_long', { max: MAX_TEXT_BYTES });
  return key;
}

function boundedText(value: string | null | undefined, max: number, refusal: RefusalCode): string | null {
  const text = optionalText(value);
  if (text !== null && text.length > max) throw fail(refusal, { max });
  return text;
}

function checkBaseUrl(value: string | null | undefined, type: ChannelType): string | null {
  const url = optionalText(value)?.replace(/\/+$/, '') ?? null;
  if (url === null || url === '') {
    if (baseUrlRequired(type)) throw fail('channel.base_url_required');
    return null;
  }
  if (!/^https?:\/\/[^\s/]+/i.test(url)) throw fail('channel.base_url_scheme');
  if (url.length > BASE_URL_MAX) throw fail('channel.base_url_too_long', { max: BASE_URL_MAX });
  return url;
}

/** The raw editable fields as they arrive (create, or a full update merged over the stored row). */
export interface ChannelFieldsInput {
  name?: string | undefined;
  type?: number | undefined;
  key?: string | undefined;
  openai_organization?: string | null | undefined;
  test_model?: string | null | undefined;
  base_url?: string | null | undefined;
  other?: string | null | undefined;
  models?: NameList | undefined;
  group?: NameList | undefined;
  model_mapping?: string | null | undefined;
  status_code_mapping?: string | null | undefined;
  setting?: string | null | undefined;
  param_override?: string | null | undefined;
  tag?: string | null | undefined;
  auto_ban?: number | undefined;
  max_input_tokens?: number | undefined;
  rpm_limit?: number | undefined;
  max_concurrency?: number | undefined;
  remark?: string | null | undefined;
  settings?: string | null | undefined;
  header_override?: string | null | undefined;
  priority?: unknown;
  weight?: unknown;
  multi_key_mode?: string | null | undefined;
}

/** Checked, normalised columns of a channel (the key is handled by the caller). */
export interface ChannelColumns {
  name: string;
  type: ChannelType;
  openai_organization: string | null;
  test_model: string | null;
  base_url: string | null;
  other: string | null;
  models: string;
  group: string;
  model_mapping: string | null;
  status_code_mapping: string | null;
  setting: string | null;
  param_override: string | null;
  tag: string | null;
  auto_ban: number;
  max_input_tokens: number;
  rpm_limit: number;
  max_concurrency: number;
  remark: string | null;
  settings: string | null;
  header_override: string | null;
  priority: number;
  weight: number;
  multi_key_mode: MultiKeyMode | null;
}

/**
 * Checks and normalises every editable field. `key` is required unless `keyOptional` (an update
 * keeps the stored key when none is given) or the type serves without one (Ollama).
 */
export function checkChannelFields(input: ChannelFieldsInput, keyOptional: boolean): ChannelColumns {
  const name = (input.name ?? '').trim();
  const key = (input.key ?? '').trim();
  const typeId = input.type ?? 1;
  if (name === '' || (!keyOptional && key === '' && keyRequired(typeId))) throw fail('channel.name_and_key_required');
  if (name.length > NAME_MAX) throw fail('channel.name_too_long', { max: NAME_MAX });
  if (!isChannelType(typeId)) throw fail('channel.type_unknown');
  const models = checkModels(splitList(input.models));
  const group = checkGroups(splitList(input.group));
  const statusCodeMapping = jsonObjectText(input.status_code_mapping, 'channel.status_code_mapping_invalid');
  if (statusCodeMapping !== null && statusCodeMapping.length > STATUS_CODE_MAPPING_MAX) {
    throw fail('channel.status_code_mapping_too_long', { max: STATUS_CODE_MAPPING_MAX });
  }
  let other = optionalText(input.other);
  other ??= otherDefault(typeId);
  const maxInputTokens = input.max_input_tokens ?? 0;
  if (maxInputTokens < 0) throw fail('channel.max_input_tokens_negative');
  const remark = optionalText(input.remark);
  if (remark !== null && remark.length > REMARK_MAX) throw fail('channel.remark_too_long', { max: REMARK_MAX });
  return {
    name,
    type: typeId,
    openai_organization: boundedText(input.openai_organization, ORGANIZATION_MAX, 'channel.organization_too_long'),
    test_model: boundedText(input.test_model, TEST_MODEL_MAX, 'channel.test_model_too_long'),
    base_url: checkBaseUrl(input.base_url, typeId),
    other,
    models,
    group,
    model_mapping: jsonObjectText(input.model_mapping, 'channel.model_mapping_invalid'),
    status_code_mapping: statusCodeMapping,
    setting: jsonObjectText(input.setting, 'channel.setting_invalid'),
    param_override: jsonObjectText(input.param_override, 'channel.param_override_invalid'),
    tag: checkTag(input.tag),
    auto_ban: input.auto_ban === 0 ? 0 : 1,
    max_input_tokens: maxInputTokens,
    rpm_limit: limitOf(input.rpm_limit),
    max_concurrency: limitOf(input.max_concurrency),
    remark,
    settings: jsonObjectText(input.settings, 'channel.settings_invalid'),
    header_override: checkHeaderOverride(input.header_override),
    priority: parsePriority(input.priority) ?? 0,
    weight: parseWeight(input.weight) ?? 0,
    multi_key_mode: checkMultiKeyMode(input.multi_key_mode),
  };
}

/** `random` or `polling`; blank means unset (random). */
export function checkMultiKeyMode(value: string | null | undefined): MultiKeyMode | null {
  const mode = optionalText(value);
  if (mode === null) return null;
  if (!isMultiKeyMode(mode)) throw fail('channel.multi_key_mode_invalid');
  return mode;
}

/** A per-channel limit: a non-negative integer that fits its column; absent means none (0). */
function limitOf(value: number | undefined): number {
  const n = value ?? 0;
  if (!Number.isInteger(n) || n < 0 || n > INT32_MAX) throw fail('channel.limit_invalid', { max: INT32_MAX });
  return n;
}

/** A quick status edit: enable (1) or disable by hand (2). */
export function checkManualStatus(status: number): number {
  if (status !== CHANNEL_ENABLED && status !== CHANNEL_MANUALLY_DISABLED) throw fail('channel.status_invalid');
  return status;
}

/**
 * The keys of a batch create: one per line (a Vertex AI batch is a JSON array of service-account
 * objects, since each key spans several lines).
 */
export function splitBatchKeys(key: string, vertex: boolean): string[] {
  let keys: string[];
  if (vertex) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(key);
    } catch {
      throw fail('channel.vertex_keys_not_array');
    }
    const list = Array.isArray(parsed) ? parsed : [parsed];
    if (!list.every((k) => typeof k === 'object' && k !== null)) throw fail('channel.vertex_keys_not_array');
    keys = list.map((k) => JSON.stringify(k));
  } else {
    keys = key.split(/\r?\n/).map((k) => k.trim());
  }
  keys = [...new Set(keys.filter((k) => k !== ''))];
  if (keys.length === 0) throw fail('channel.name_and_key_required');
  if (keys.length > BATCH_KEYS_MAX) throw fail('channel.batch_too_large', { max: BATCH_KEYS_MAX });
  return keys;
}

/** Keys as one channel's key field: lines, or (Vertex AI) a JSON array of service accounts. */
export function joinKeys(keys: readonly string[], vertex: boolean): string {
  return vertex ? `[${keys.join(',')}]` : keys.join('\n');
}

/**
 * An edit's `key_mode: "append"`: the new keys join the stored ones (a key already there is not
 * added twice), so adding keys to a multi-key channel never asks for the old ones again.
 */
export function appendKeys(stored: string, added: string, vertex: boolean): string {
  if (stored.trim() === '') return added;
  const keys = [...new Set([...splitBatchKeys(stored, vertex), ...splitBatchKeys(added, vertex)])];
  if (keys.length > BATCH_KEYS_MAX) throw fail('channel.batch_too_large', { max: BATCH_KEYS_MAX });
  return joinKeys(keys, vertex);
}
