/** The prefill_groups table. `items` is stored as a JSON array of strings. */
import type { Db } from '../db/index.js';
import type { DbKind } from '../db/dsn.js';
import { insertWithId } from '../db/helpers.js';
import type { PrefillGroup } from '../db/types.js';
import type { PrefillGroupView } from './schemas.js';

export interface PrefillFields {
  name: string;
  type: string;
  items: string[];
  description: string;
}

function storedItems(text: string): string[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

export function toPrefillView(row: PrefillGroup): PrefillGroupView {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    items: storedItems(row.items),
    description: row.description,
    created_time: Number(row.created_time),
    updated_time: Number(row.updated_time),
  };
}

export function prefillFields(row: PrefillGroup): PrefillFields {
  return { name: row.name, type: row.type, items: storedItems(row.items), description: row.description };
}

export async function listPrefillGroups(db: Db, type: string): Promise<PrefillGroup[]> {
  let query = db.selectFrom('prefill_groups').selectAll();
  if (type !== '') query = query.where('type', '=', type);
  return query.orderBy('updated_time', 'desc').orderBy('id', 'desc').execute();
}

export async function findPrefillGroup(db: Db, id: number): Promise<PrefillGroup | undefined> {
  return db.selectFrom('prefill_groups').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Whether another group (not `exceptId`) already has this name. */
export async function isPrefillNameTaken(db: Db, name: string, exceptId = 0): Promise<boolean> {
  const row = await db
    .selectFrom('prefill_groups')
    .select('id')
    .where('name', '=', name)
    .where('id', '!=', exceptId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertPrefillGroup(db: Db, kind: DbKind, fields: PrefillFields, now: number): Promise<number> {
  return insertWithId(db, kind, 'prefill_groups', {
    ...fields,
    items: JSON.stringify(fields.items),
    created_time: now,
    updated_time: now,
  });
}

export async function updatePrefillGroup(db: Db, id: number, fields: PrefillFields, now: number): Promise<boolean> {
  const result = await db
    .updateTable('prefill_groups')
    .set({ ...fields, items: JSON.stringify(fields.items), updated_time: now })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deletePrefillGroup(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('prefill_groups').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
