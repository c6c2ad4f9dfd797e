/**
 * The vendors table: who makes a model. Names are unique (a unique index; the routes also check
 * first, to answer with the refusal rather than a database error).
 */
import type { Db } from '../db/index.js';
import type { DbKind } from '../db/dsn.js';
import { insertWithId, likeExpr } from '../db/helpers.js';
import type { Vendor } from '../db/types.js';

export interface VendorFields {
  name: string;
  description: string;
  icon: string;
  status: number;
}

function matching(db: Db, keyword: string) {
  let query = db.selectFrom('vendors');
  if (keyword !== '') query = query.where((eb) => eb.or([likeExpr('name', keyword), likeExpr('description', keyword)]));
  return query;
}

export async function countVendors(db: Db, keyword: string): Promise<number> {
  const row = await matching(db, keyword)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listVendors(db: Db, keyword: string, limit: number, offset: number): Promise<Vendor[]> {
  return matching(db, keyword).selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute();
}

/** Every vendor, for the pricing page and the model screen's vendor choices (a short table). */
export async function allVendors(db: Db): Promise<Vendor[]> {
  return db.selectFrom('vendors').selectAll().orderBy('id').execute();
}

export async function findVendor(db: Db, id: number): Promise<Vendor | undefined> {
  return db.selectFrom('vendors').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Whether another vendor (not `exceptId`) has this name. */
export async function vendorNameTaken(db: Db, name: string, exceptId = 0): Promise<boolean> {
  const row = await db.selectFrom('vendors').select('id').where('name', '=', name).where('id', '<>', exceptId).executeTakeFirst();
  return row !== undefined;
}

/** The ids of vendors whose name contains `part` (the model search's vendor filter). */
export async function vendorIdsNamed(db: Db, part: string): Promise<number[]> {
  const rows = await db.selectFrom('vendors').select('id').where(likeExpr('name', part)).execute();
  return rows.map((row) => row.id);
}

export async function insertVendor(db: Db, kind: DbKind, fields: VendorFields, now: number): Promise<number> {
  return insertWithId(db, kind, 'vendors', { ...fields, created_time: now, updated_time: now });
}

export async function updateVendor(db: Db, id: number, fields: VendorFields, now: number): Promise<boolean> {
  const result = await db
    .updateTable('vendors')
    .set({ ...fields, updated_time: now })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteVendor(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('vendors').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
