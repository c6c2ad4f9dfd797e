/**
 * The `users` table: rows, lists and profile writes. Lookups that identify a person (login name,
 * access token, e-mail, third-party id, invitation code) are in identity-repository.ts; balances
 * (quota, used_quota, request_count, invitation earnings) move only through server/billing/ledger.ts.
 */
import { randomBytes } from 'node:crypto';
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Db } from '../db/index.js';
import type { DbKind } from '../db/dsn.js';
import { insertWithId, likeExpr } from '../db/helpers.js';
import { nowSeconds } from '../db/index.js';
import type { Database, User, UserUpdate } from '../db/types.js';
import { hashPassword } from '../auth/password.js';
import { ROLE_USER, USER_ENABLED } from '../auth/roles.js';
import { publicSettingString } from './settings.js';
import { isUniqueViolation } from '../db/errors.js';
import type { PublicUser as PublicUserSchema } from './schemas.js';
import type { Answered } from '../http/schemas.js';

/**
 * A user as the console sees it: never the password hash, the access token, the session epoch or the
 * webhook secret. Text is never null; times the user has not got (deregistration, a sign-in, an
 * unknown sign-up) are null, as the family's console tests them (`DeletedAt !== null`).
 */
export type PublicUser = Answered<Omit<User, 'password' | 'access_token' | 'deleted_at' | 'session_epoch' | 'last_login_at'>> & {
  created_at: number | null;
  last_login_at: number | null;
  DeletedAt: string | null;
};

// The answer schema must describe exactly the row type the repository produces.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const publicUserMatchesSchema: Same<PublicUser, PublicUserSchema> = true;
void publicUserMatchesSchema;

export function toPublicUser(user: User): PublicUser {
  const { password: _password, access_token: _token, session_epoch: _epoch, deleted_at, last_login_at, setting, ...rest } = user;
  return {
    ...rest,
    setting: publicSettingString(setting) ?? '',
    remark: rest.remark ?? '',
    created_at: rest.create_time > 0 ? rest.create_time : null,
    last_login_at: last_login_at ?? null,
    DeletedAt: deleted_at === null ? null : new Date(deleted_at * 1000).toISOString(),
  };
}

export function randomAffCode(): string {
  return randomBytes(3).toString('hex').slice(0, 4).toUpperCase() + randomBytes(2).toString('hex').toUpperCase();
}

export async function findUserById(db: Db, id: number): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The user's name, for the log rows written about them. */
export async function findUsername(db: Db, id: number): Promise<string | undefined> {
  return (await db.selectFrom('users').select('username').where('id', '=', id).executeTakeFirst())?.username;
}

/** The names of these users, by id (ids of users that are gone are left out). */
export async function findUsernames(db: Db, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'username'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, r.username]));
}

/** The id of the user named exactly `username`, if any. */
export async function findUserIdByUsername(db: Db, username: string): Promise<number | undefined> {
  const row = await db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst();
  return row?.id;
}

/** Usernames of `ids` (for the admin's user column). */
export async function usernamesOf(db: Db, ids: number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'username']).where('id', 'in', unique).execute();
  return new Map(rows.map((r) => [Number(r.id), r.username]));
}

export async function findUserByUsername(db: Db, username: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
}

/** Some columns of one user (for readers that need a few, such as the relay's caches). */
export async function findUserColumns<K extends keyof User & string>(
  db: Db,
  id: number,
  columns: readonly K[],
): Promise<Pick<User, K> | undefined> {
  const row = await db.selectFrom('users').select(columns).where('id', '=', id).executeTakeFirst();
  return row as Pick<User, K> | undefined;
}

/** What a user has spent so far, for the OpenAI-style usage answer. */
export async function findUserUsedQuota(db: Db, id: number): Promise<number | undefined> {
  return (await db.selectFrom('users').select('used_quota').where('id', '=', id).executeTakeFirst())?.used_quota;
}

export interface CreateUserInput {
  username: string;
  password: string;
  display_name?: string;
  email?: string;
  role?: number;
  inviter_id?: number;
  group?: string;
  remark?: string | null;
}

/**
 * Inserts a user with a hashed password, a fresh invitation code and a zero balance (any opening
 * credit goes through the ledger); returns the new id.
 */
export async function createUser(db: Db, kind: DbKind, input: CreateUserInput): Promise<number> {
  const now = nowSeconds();
  return insertWithId(db, kind, 'users', {
    username: input.username,
    password: await hashPassword(input.password),
    display_name: input.display_name || input.username,
    email: input.email ?? '',
    role: input.role ?? ROLE_USER,
    status: USER_ENABLED,
    inviter_id: input.inviter_id ?? 0,
    group: input.group ?? 'default',
    remark: input.remark ?? null,
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

/** Deregistered users keep their name: it still identifies their old logs. */
export async function isUsernameTaken(db: Db, username: string, exceptId?: number): Promise<boolean> {
  let query = db.selectFrom('users').select('id').where('username', '=', username);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

// ---- Writes ----

/** Columns only the ledger writes (server/billing/ledger.ts). */
type LedgerColumn = 'quota' | 'used_quota' | 'request_count' | 'aff_count' | 'aff_quota' | 'aff_history_quota';
/** What may change on a user here: anything but the id, the balances and the session epoch. */
export type UserFields = Omit<UserUpdate, 'id' | 'session_epoch' | LedgerColumn>;

/**
 * Ends every console session of the user (on every gateway process: the guards compare the
 * cookie's epoch with this column on each request). Returns the new epoch.
 */
export async function endSessions(db: Db, id: number): Promise<number> {
  await db
    .updateTable('users')
    .set((eb) => ({ session_epoch: eb('session_epoch', '+', 1) }))
    .where('id', '=', id)
    .execute();
  const row = await db.selectFrom('users').select('session_epoch').where('id', '=', id).executeTakeFirst();
  return row?.session_epoch ?? 0;
}

/** Changes columns of one user (a taken name fails with the unique index's error). */
export async function updateUser(db: Db, id: number, fields: UserFields): Promise<void> {
  await db.updateTable('users').set(fields).where('id', '=', id).execute();
}

/** Changes columns of one user who has not deregistered. */
export async function updateLiveUser(db: Db, id: number, fields: UserFields): Promise<void> {
  await db.updateTable('users').set(fields).where('id', '=', id).where('deleted_at', 'is', null).execute();
}

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

/** Notes a sign-in (the family's `last_login_at`) on the row and on the object about to be answered. */
export async function recordSignIn(db: Db, user: User): Promise<void> {
  const now = nowSeconds();
  await db.updateTable('users').set({ last_login_at: now }).where('id', '=', user.id).execute();
  user.last_login_at = now;
}

export async function deregisterUser(db: Db, userId: number): Promise<void> {
  await db.updateTable('users').set({ deleted_at: nowSeconds() }).where('id', '=', userId).execute();
}

/** How many of `ids` are live (not deregistered) users. */
export async function countLiveUsers(db: Db, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('id', 'in', [...ids])
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}
