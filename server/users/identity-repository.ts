/**
 * Finding who someone is: the user behind a login name or e-mail, a system access token, a
 * third-party id or an invitation code, and whether the root user exists yet.
 */
import type { Db } from '../db/index.js';
import type { User } from '../db/types.js';
import { ROLE_ROOT } from '../auth/roles.js';

/** The live user whose username, or (when not empty) e-mail, is `login`. */
export async function findLiveUserByLogin(db: Db, login: string): Promise<User | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb.or([eb('username', '=', login), eb.and([eb('email', '=', login), eb('email', '!=', '')])]))
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** Deregistered users included: the guard refuses them with its own message. */
export async function findUserByAccessToken(db: Db, token: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('access_token', '=', token).executeTakeFirst();
}

/** The first live user holding the address (other than `exceptId`, when given). */
export async function findLiveUserIdByEmail(db: Db, email: string, exceptId?: number): Promise<number | undefined> {
  let query = db
    .selectFrom('users')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
    .where('deleted_at', 'is', null);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return (await query.orderBy('id').executeTakeFirst())?.id;
}

/** The user columns holding a third-party id. */
export type ProviderColumn = 'github_id' | 'oidc_id' | 'linux_do_id' | 'discord_id' | 'wechat_id' | 'telegram_id';

/** The live user the third-party id is bound to. */
export async function findBoundUser(db: Db, column: ProviderColumn, id: string): Promise<User | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where(column, '=', id)
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .executeTakeFirst();
}

export async function bindProviderId(db: Db, userId: number, column: ProviderColumn, id: string): Promise<void> {
  await db.updateTable('users').set(column, id).where('id', '=', userId).execute();
}

/** The live user with this invitation code. */
export async function findLiveUserIdByAffCode(db: Db, code: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('aff_code', '=', code)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row?.id;
}

export async function rootUserExists(db: Db): Promise<boolean> {
  return (await db.selectFrom('users').select('id').where('role', '>=', ROLE_ROOT).executeTakeFirst()) !== undefined;
}
