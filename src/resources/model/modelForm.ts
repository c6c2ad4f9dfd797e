/** The model form's values as the API takes them, and its whole-form checks. */
import type { GatewayDataProvider } from '../../api/customMethods';
import type { Choice, FormValues } from '../schema';
import type { VendorRecord } from '../vendor/types';

const TEXT_FIELDS = [
  'model_name',
  'description',
  'icon',
  'tags',
  'endpoints',
  'knowledge_cutoff',
  'release_date',
  'parameter_count',
  'input_modalities',
  'output_modalities',
] as const;
const NUMBER_FIELDS = ['vendor_id', 'context_length', 'max_output_tokens', 'status', 'sync_official', 'name_rule'] as const;

/** Every writable field: a cleared text input is "", a cleared number 0 (the API takes no null). */
export function toModelBody(values: FormValues): FormValues {
  const body: FormValues = {};
  for (const key of TEXT_FIELDS) body[key] = typeof values[key] === 'string' ? values[key] : '';
  for (const key of NUMBER_FIELDS) body[key] = Math.trunc(Number(values[key] ?? 0)) || 0;
  if (values.id !== undefined) body.id = values.id;
  return body;
}

function isEndpoint(value: unknown): boolean {
  if (typeof value === 'string') return true;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { path, method } = value as Record<string, unknown>;
  return (path === undefined || typeof path === 'string') && (method === undefined || typeof method === 'string');
}

/** The server's rule for endpoints, checked before saving: "" or a JSON object of paths or {path, method}. */
export function endpointsValid(text: unknown): boolean {
  if (typeof text !== 'string' || text.trim() === '') return true;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && Object.values(parsed).every(isEndpoint);
  } catch {
    return false;
  }
}

/** Every vendor as a choice (the list pages by 100). */
export async function loadVendorChoices(gateway: GatewayDataProvider): Promise<Choice[]> {
  const choices: Choice[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await gateway.getList<VendorRecord>('vendor', {
      pagination: { page, perPage: 100 },
      sort: { field: 'id', order: 'ASC' },
      filter: {},
    });
    choices.push(...answer.data.map((vendor) => ({ id: vendor.id, name: vendor.name })));
    if (answer.data.length === 0 || choices.length >= (answer.total ?? 0)) return choices;
  }
}
