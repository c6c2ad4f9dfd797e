/**
 * The models table: metadata of the models matching each row's name by its rule. Names are unique
 * (a unique index; the routes also check first, to answer with the refusal rather than a database
 * error).
 */
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Db } from '../db/index.js';
import type { DbKind } from '../db/dsn.js';
import { insertWithId, likeExpr } from '../db/helpers.js';
import type { Database, ModelMeta } from '../db/types.js';

/** Every writable column of a model row. */
export interface ModelFields {
  model_name: string;
  description: string;
  icon: string;
  tags: string;
  vendor_id: number;
  endpoints: string;
  context_length: number;
  max_output_tokens: number;
  knowledge_cutoff: string;
  release_date: string;
  parameter_count: string;
  input_modalities: string;
  output_modalities: string;
  status: number;
  sync_official: number;
  name_rule: number;
}

/**
 * What a list is narrowed to: a keyword (name, description or tags), vendor ids (`null`: any
 * vendor), a status and a sync flag.
 */
export interface ModelFilter {
  keyword: string;
  vendorIds: number[] | null;
  status: number | undefined;
  syncOfficial: number | undefined;
}

function conditions(filter: ModelFilter) {
  return (eb: ExpressionBuilder<Database, 'models'>): Expression<SqlBool> => {
    const all: Expression<SqlBool>[] = [];
    const { keyword } = filter;
    if (keyword !== '')
      all.push(eb.or([likeExpr('model_name', keyword), likeExpr('description', keyword), likeExpr('tags', keyword)]));
    // No vendor matched the name asked for: nothing matches (an empty IN list is not valid SQL).
    if (filter.vendorIds !== null)
      all.push(filter.vendorIds.length > 0 ? eb('vendor_id', 'in', filter.vendorIds) : eb.lit(false));
    if (filter.status !== undefined) all.push(eb('status', '=', filter.status));
    if (filter.syncOfficial !== undefined) all.push(eb('sync_official', '=', filter.syncOfficial));
    return eb.and(all);
  };
}

export async function countModels(db: Db, filter: ModelFilter): Promise<number> {
  const row = await db
    .selectFrom('models')
    .where(conditions(filter))
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listModels(db: Db, filter: ModelFilter, limit: number, offset: number): Promise<ModelMeta[]> {
  return db
    .selectFrom('models')
    .selectAll()
    .where(conditions(filter))
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** Every model row: the pricing page matches them against the served models (a short table). */
export async function allModels(db: Db): Promise<ModelMeta[]> {
  return db.selectFrom('models').selectAll().orderBy('id').execute();
}

export async function findModel(db: Db, id: number): Promise<ModelMeta | undefined> {
  return db.selectFrom('models').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Whether another row (not `exceptId`) has this name. */
export async function modelNameTaken(db: Db, name: string, exceptId = 0): Promise<boolean> {
  const row = await db
    .selectFrom('models')
    .select('id')
    .where('model_name', '=', name)
    .where('id', '<>', exceptId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Of `names`, those a row names exactly. */
export async function namedModels(db: Db, names: readonly string[]): Promise<Set<string>> {
  if (names.length === 0) return new Set();
  const rows = await db.selectFrom('models').select('model_name').where('model_name', 'in', names).execute();
  return new Set(rows.map((row) => row.model_name));
}

/** Model rows per vendor id (0: rows without a vendor). */
export async function vendorModelCounts(db: Db): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('models')
    .select((eb) => ['vendor_id', eb.fn.countAll().as('n')])
    .groupBy('vendor_id')
    .execute();
  return new Map(rows.map((row) => [row.vendor_id, Number(row.n)]));
}

export async function insertModel(db: Db, kind: DbKind, fields: ModelFields, now: number): Promise<number> {
  return insertWithId(db, kind, 'models', { ...fields, created_time: now, updated_time: now });
}

export async function updateModel(db: Db, id: number, fields: Partial<ModelFields>, now: number): Promise<boolean> {
  const result = await db
    .updateTable('models')
    .set({ ...fields, updated_time: now })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteModel(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('models').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Rows of a deleted vendor keep their metadata without a vendor (in the deletion's transaction). */
export async function clearVendor(db: Db, vendorId: number, now: number): Promise<void> {
  await db.updateTable('models').set({ vendor_id: 0, updated_time: now }).where('vendor_id', '=', vendorId).execute();
}
