/**
 * Custom sign-in providers and the accounts bound through them. A binding counts for a live user
 * only (users/ says who is live); one left by a deregistered user is replaced when the account is
 * bound again.
 */
import type { Db } from '../../db/index.js';
import type { DbKind } from '../../db/dsn.js';
import { insertWithId } from '../../db/helpers.js';
import type { CustomOauthProvider, NewCustomOauthProvider } from '../../db/types.js';

export type ProviderFields = Omit<NewCustomOauthProvider, 'id' | 'created_at' | 'updated_at'>;

export function listProviders(db: Db, enabledOnly = false): Promise<CustomOauthProvider[]> {
  let query = db.selectFrom('custom_oauth_providers').selectAll();
  if (enabledOnly) query = query.where('enabled', '=', 1);
  return query.orderBy('id').execute();
}

export function findProvider(db: Db, id: number): Promise<CustomOauthProvider | undefined> {
  return db.selectFrom('custom_oauth_providers').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findProviderBySlug(db: Db, slug: string): Promise<CustomOauthProvider | undefined> {
  return db.selectFrom('custom_oauth_providers').selectAll().where('slug', '=', slug).executeTakeFirst();
}

export async function isSlugTaken(db: Db, slug: string, exceptId = 0): Promise<boolean> {
  const row = await db
    .selectFrom('custom_oauth_providers')
    .select('id')
    .where('slug', '=', slug)
    .where('id', '!=', exceptId)
    .executeTakeFirst();
  return row !== undefined;
}

export function insertProvider(db: Db, kind: DbKind, fields: ProviderFields, now: number): Promise<number> {
  return insertWithId(db, kind, 'custom_oauth_providers', { ...fields, created_at: now, updated_at: now });
}

export async function updateProvider(db: Db, id: number, fields: ProviderFields, now: number): Promise<void> {
  await db
    .updateTable('custom_oauth_providers')
    .set({ ...fields, updated_at: now })
    .where('id', '=', id)
    .execute();
}

export async function deleteProvider(db: Db, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('user_oauth_bindings').where('provider_id', '=', id).execute();
    await trx.deleteFrom('custom_oauth_providers').where('id', '=', id).execute();
  });
}

/** The users bound to the provider (deregistered ones included). */
export async function boundUserIds(db: Db, providerId: number): Promise<number[]> {
  const rows = await db.selectFrom('user_oauth_bindings').select('user_id').where('provider_id', '=', providerId).execute();
  return rows.map((r) => r.user_id);
}

/** The user bound to the external account, live or not. */
export async function boundUserId(db: Db, providerId: number, externalId: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('user_oauth_bindings')
    .select('user_id')
    .where('provider_id', '=', providerId)
    .where('provider_user_id', '=', externalId)
    .executeTakeFirst();
  return row?.user_id;
}

/**
 * Binds the external account to `userId`, replacing the user's earlier account at the provider
 * and a binding left by someone else (the caller checked no live user holds it).
 */
export async function bindExternal(db: Db, userId: number, providerId: number, externalId: string, now: number): Promise<void> {
  await db
    .deleteFrom('user_oauth_bindings')
    .where('provider_id', '=', providerId)
    .where((eb) => eb.or([eb('user_id', '=', userId), eb('provider_user_id', '=', externalId)]))
    .execute();
  await db
    .insertInto('user_oauth_bindings')
    .values({ user_id: userId, provider_id: providerId, provider_user_id: externalId, created_at: now })
    .execute();
}

export interface BindingRow {
  provider_id: number;
  provider_user_id: string;
  name: string;
  slug: string;
  icon: string;
}

export function listUserBindings(db: Db, userId: number): Promise<BindingRow[]> {
  return db
    .selectFrom('user_oauth_bindings as b')
    .innerJoin('custom_oauth_providers as p', 'p.id', 'b.provider_id')
    .select(['b.provider_id', 'b.provider_user_id', 'p.name', 'p.slug', 'p.icon'])
    .where('b.user_id', '=', userId)
    .orderBy('b.provider_id')
    .execute();
}

/** Removes the user's binding to the provider; whether there was one. */
export async function unbindExternal(db: Db, userId: number, providerId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('user_oauth_bindings')
    .where('user_id', '=', userId)
    .where('provider_id', '=', providerId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
