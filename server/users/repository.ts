import { randomBytes } from 'node:crypto';
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Db } from '../db/index.js';
import type { DbKind } from '../db/dsn.js';
import { insertWithId, likeExpr } from '../db/helpers.js';
import { nowSeconds } from '../db/index.js';
import type { Database, User } from '../db/types.js';
import { hashPassword } from '../auth/password.js';
import { ROLE_USER, USER_ENABLED } from '../auth/roles.js';
import { publicSettingString } from './settings.js';
import { isUniqueViolation } from './db-errors.js';
import type { PublicUser as PublicUserSchema } from './schemas.js';

/** A user as the console sees it: never the password hash, the access token or the webhook secret. */
export type PublicUser = Omit<User, 'password' | 'access_token' | 'deleted_at'> & { DeletedAt: number | null };

// The answer schema must describe exactly the row type the repository produces.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const publicUserMatchesSchema: Same<PublicUser, PublicUserSchema> = true;
void publicUserMatchesSchema;

export function toPublicUser(user: User): PublicUser {
  const { password: _password, access_token: _token, deleted_at, setting, ...rest } = user;
  return { ...rest, setting: publicSettingString(setting), DeletedAt: deleted_at };
}

export function randomAffCode(): string {
  return randomBytes(3).toString('hex').slice(0, 4).toUpperCase() + randomBytes(2).toString('hex').toUpperCase();
}

export async function findUserById(db: Db, id: number): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findUserByUsername(db: Db, username: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
}

export interface CreateUserInput {
  username: string;
  password: string;
  display_name?: string;
  email?: string;
  role?: number;
  quota?: number;
  inviter_id?: number;
  group?: string;
}

/** Inserts a user with a hashed password and a fresh invitation code; returns the new id. */
export async function createUser(db: Db, kind: DbKind, input: CreateUserInput): Promise<number> {
  const now = nowSeconds();
  return insertWithId(db, kind, 'users', {
    username: input.username,
    password: await hashPassword(input.password),
    display_name: input.display_name || input.username,
    email: input.email ?? '',
    role: input.role ?? ROLE_USER,
    status: USER_ENABLED,
    quota: input.quota ?? 0,
    inviter_id: input.inviter_id ?? 0,
    group: input.group ?? 'default',
    aff_code: randomAffCode(),
    create_time: now,
    last_use_time: 0,
  });
}

// ---- Lists and search ----

export interface UserFilter {
  keyword: string;
  group: string;
}

/**
 * The admin search: a numeric keyword also matches the id exactly; username, display name and
 * e-mail match as substrings with `%` and `_` taken literally. The group matches exactly.
 */
function matches(filter: UserFilter) {
  return (eb: ExpressionBuilder<Database, 'users'>): Expression<SqlBool> => {
    const conditions: Expression<SqlBool>[] = [];
    const keyword = filter.keyword.trim();
    if (keyword) {
      const alternatives = [likeExpr('username', keyword), likeExpr('display_name', keyword), likeExpr('email', keyword)];
      if (/^\d{1,9}$/.test(keyword)) alternatives.unshift(eb('id', '=', Number(keyword)));
      conditions.push(eb.or(alternatives));
    }
    const group = filter.group.trim();
    if (group) conditions.push(eb('group', '=', group));
    return eb.and(conditions);
  };
}

export async function countUsers(db: Db, filter: UserFilter): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll().as('total'))
    .where(matches(filter))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** Users matching `filter`, newest first (deregistered ones included: the list shows them). */
export async function findUsers(db: Db, filter: UserFilter, limit: number, offset = 0): Promise<User[]> {
  return db.selectFrom('users').selectAll().where(matches(filter)).orderBy('id', 'desc').limit(limit).offset(offset).execute();
}

export async function isUsernameTaken(db: Db, username: string, exceptId?: number): Promise<boolean> {
  let query = db.selectFrom('users').select('id').where('username', '=', username);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

// ---- Self-service ----

/** Replaces the user's system access token with a fresh random one and returns it. */
export async function regenerateAccessToken(db: Db, userId: number): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    // Hex never starts with "sk-", so the guard can't mistake it for a relay key.
    const token = randomBytes(16).toString('hex');
    try {
      await db.updateTable('users').set({ access_token: token }).where('id', '=', userId).execute();
      return token;
    } catch (err) {
      if (attempt >= 3 || !isUniqueViolation(err)) throw err;
    }
  }
}

/** The user's invitation code, creating one when the account has none. */
export async function ensureAffCode(db: Db, user: Pick<User, 'id' | 'aff_code'>): Promise<string> {
  if (user.aff_code) return user.aff_code;
  for (let attempt = 0; ; attempt++) {
    const code = randomAffCode();
    try {
      await db.updateTable('users').set({ aff_code: code }).where('id', '=', user.id).where('aff_code', '=', '').execute();
      break;
    } catch (err) {
      if (attempt >= 3 || !isUniqueViolation(err)) throw err;
    }
  }
  // Re-read: a concurrent call may have set the code first.
  const row = await db.selectFrom('users').select('aff_code').where('id', '=', user.id).executeTakeFirstOrThrow();
  return row.aff_code;
}

/**
 * Moves `amount` from invitation earnings to the balance in one conditional UPDATE, so concurrent
 * transfers can never take more than there is. Returns false when the earnings fall short.
 */
export async function transferAffQuota(db: Db, userId: number, amount: number): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set((eb) => ({ aff_quota: eb('aff_quota', '-', amount), quota: eb('quota', '+', amount) }))
    .where('id', '=', userId)
    .where('aff_quota', '>=', amount)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deregisterUser(db: Db, userId: number): Promise<void> {
  await db.updateTable('users').set({ deleted_at: nowSeconds() }).where('id', '=', userId).execute();
}

/** Distinct models enabled for a group in the channel abilities, sorted. */
export async function modelsForGroup(db: Db, group: string): Promise<string[]> {
  const rows = await db
    .selectFrom('abilities')
    .select('model')
    .distinct()
    .where('group', '=', group)
    .where('enabled', '=', 1)
    .orderBy('model')
    .execute();
  return rows.map((r) => r.model);
}
