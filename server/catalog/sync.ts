/**
 * Syncing model metadata from the official catalogue, as new-api's console asks for it: a preview
 * (the served models without a row that the catalogue knows, and the fields where the catalogue
 * differs from a row that allows syncing), and the sync itself, which creates those rows (and
 * their vendors, by name) and overwrites the fields the admin picked on rows whose
 * `sync_official` is on. Nothing is written unless the catalogue was read.
 */
import type { Db } from '../db/index.js';
import type { DbKind } from '../db/dsn.js';
import { isUniqueViolation } from '../db/errors.js';
import type { ModelMeta, Vendor } from '../db/types.js';
import { allModels, insertModel, updateModel, type ModelFields } from './models-repository.js';
import { CATALOG_ENABLED, type SyncConflict, type SyncOverwrite, type SyncPreview, type SyncResult } from './schemas.js';
import { fetchUpstream, upstreamSource, type UpstreamCatalogue, type UpstreamModel } from './upstream.js';
import { allVendors, insertVendor } from './vendors-repository.js';

export interface SyncDeps {
  db: Db;
  dbKind: DbKind;
  base: string;
  /** Served models no row names exactly (GET /api/models/missing). */
  missing: () => Promise<string[]>;
  now: () => number;
}

/** Fields compared only when the catalogue's row has them (new-api's rule). */
const OPTIONAL = [
  'context_length',
  'max_output_tokens',
  'knowledge_cutoff',
  'release_date',
  'parameter_count',
  'input_modalities',
  'output_modalities',
] as const;
const PLAIN = ['description', 'icon', 'tags'] as const;

/** The fields `overwrite` may name. */
export const SYNC_FIELDS = [...PLAIN, 'vendor', 'name_rule', 'status', ...OPTIONAL] as const;

const differs = (a: string | number, b: string | number) =>
  typeof a === 'string' && typeof b === 'string' ? a.trim() !== b.trim() : a !== b;

/** Where the catalogue differs from a row, field by field. */
export function conflictsOf(local: ModelMeta, up: UpstreamModel, vendorName: string): SyncConflict['fields'] {
  const out: SyncConflict['fields'] = [];
  const check = (field: string, mine: string | number, theirs: string | number) => {
    if (differs(mine, theirs)) out.push({ field, local: mine, upstream: theirs });
  };
  for (const field of PLAIN) check(field, local[field] ?? '', up[field]);
  check('vendor', vendorName, up.vendor_name);
  check('name_rule', local.name_rule, up.name_rule);
  check('status', local.status, up.status || local.status);
  for (const field of OPTIONAL) if (up.present.has(field)) check(field, local[field], up[field]);
  return out;
}

/** Of the served models without a row, those the catalogue knows. */
async function missingKnown(deps: SyncDeps, upstream: UpstreamCatalogue): Promise<string[]> {
  return (await deps.missing()).filter((name) => upstream.models.has(name));
}

export async function syncPreview(deps: SyncDeps, locale: string): Promise<SyncPreview> {
  const source = upstreamSource(deps.base, locale);
  const upstream = await fetchUpstream(source);
  const [rows, vendors] = await Promise.all([allModels(deps.db), allVendors(deps.db)]);
  const vendorNames = new Map(vendors.map((v) => [v.id, v.name]));
  const conflicts: SyncConflict[] = [];
  for (const row of rows) {
    const up = upstream.models.get(row.model_name);
    if (!up || row.sync_official === 0) continue;
    const fields = conflictsOf(row, up, vendorNames.get(row.vendor_id) ?? '');
    if (fields.length > 0) conflicts.push({ model_name: row.model_name, fields });
  }
  return { missing: await missingKnown(deps, upstream), conflicts, source };
}

/** Vendor ids by name, creating the catalogue's vendor the first time one is named. */
class VendorIds {
  private readonly byName: Map<string, number>;
  created = 0;

  constructor(
    private readonly deps: SyncDeps,
    vendors: readonly Vendor[],
    private readonly upstream: UpstreamCatalogue,
  ) {
    this.byName = new Map(vendors.map((v) => [v.name, v.id]));
  }

  async idOf(name: string): Promise<number> {
    if (name === '') return 0;
    const known = this.byName.get(name);
    if (known !== undefined) return known;
    const up = this.upstream.vendors.get(name);
    const fields = { name, description: up?.description ?? '', icon: up?.icon ?? '', status: up?.status || CATALOG_ENABLED };
    try {
      const id = await insertVendor(this.deps.db, this.deps.dbKind, fields, this.deps.now());
      this.created += 1;
      this.byName.set(name, id);
      return id;
    } catch (err) {
      // Made meanwhile by another request: use it.
      if (!isUniqueViolation(err)) throw err;
      const vendors = await allVendors(this.deps.db);
      const id = vendors.find((v) => v.name === name)?.id ?? 0;
      this.byName.set(name, id);
      return id;
    }
  }
}

function newRow(up: UpstreamModel, vendorId: number): ModelFields {
  return {
    model_name: up.model_name,
    description: up.description,
    icon: up.icon,
    tags: up.tags,
    vendor_id: vendorId,
    endpoints: '',
    context_length: up.context_length,
    max_output_tokens: up.max_output_tokens,
    knowledge_cutoff: up.knowledge_cutoff,
    release_date: up.release_date,
    parameter_count: up.parameter_count,
    input_modalities: up.input_modalities,
    output_modalities: up.output_modalities,
    status: up.status || CATALOG_ENABLED,
    sync_official: 1,
    name_rule: up.name_rule,
  };
}

/** The fields of `row` the admin asked to take from the catalogue. */
async function overwritten(
  row: ModelMeta,
  up: UpstreamModel,
  fields: ReadonlySet<string>,
  vendorIds: VendorIds,
): Promise<Partial<ModelFields>> {
  const changes: Partial<ModelFields> = {};
  for (const field of PLAIN) if (fields.has(field)) changes[field] = up[field];
  if (fields.has('vendor')) changes.vendor_id = await vendorIds.idOf(up.vendor_name);
  if (fields.has('name_rule')) changes.name_rule = up.name_rule;
  if (fields.has('status')) changes.status = up.status || row.status;
  for (const field of OPTIONAL) {
    if (!fields.has(field) || !up.present.has(field)) continue;
    // Split by type: one assignment over the whole union would not type-check.
    if (field === 'context_length' || field === 'max_output_tokens') changes[field] = up[field];
    else changes[field] = up[field];
  }
  return changes;
}

export async function syncUpstream(deps: SyncDeps, locale: string, overwrite: readonly SyncOverwrite[]): Promise<SyncResult> {
  const source = upstreamSource(deps.base, locale);
  const missing = await deps.missing();
  const result: SyncResult = {
    created_models: 0,
    created_vendors: 0,
    updated_models: 0,
    skipped_models: [],
    created_list: [],
    updated_list: [],
    source,
  };
  // Nothing to create and nothing to overwrite: the catalogue need not be asked.
  if (missing.length === 0 && overwrite.length === 0) return result;

  const upstream = await fetchUpstream(source);
  const [rows, vendors] = await Promise.all([allModels(deps.db), allVendors(deps.db)]);
  const vendorIds = new VendorIds(deps, vendors, upstream);
  const byName = new Map(rows.map((row) => [row.model_name, row]));

  for (const name of missing) {
    const up = upstream.models.get(name);
    if (!up || byName.has(name)) {
      result.skipped_models.push(name);
      continue;
    }
    try {
      await insertModel(deps.db, deps.dbKind, newRow(up, await vendorIds.idOf(up.vendor_name)), deps.now());
      result.created_list.push(name);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      result.skipped_models.push(name);
    }
  }

  for (const { model_name, fields } of overwrite) {
    const row = byName.get(model_name);
    const up = upstream.models.get(model_name);
    if (!row || !up || row.sync_official === 0) continue;
    const changes = await overwritten(row, up, new Set(fields.map((f) => f.trim().toLowerCase())), vendorIds);
    if (Object.keys(changes).length === 0) continue;
    if (await updateModel(deps.db, row.id, changes, deps.now())) result.updated_list.push(model_name);
  }

  result.created_models = result.created_list.length;
  result.updated_models = result.updated_list.length;
  result.created_vendors = vendorIds.created;
  return result;
}
