import { randomBytes } from 'node:crypto';
import type { Db } from '../db/index.js';
import type { DbKind } from '../db/dsn.js';
import { insertWithId } from '../db/helpers.js';
import { nowSeconds } from '../db/index.js';
import type { User } from '../db/types.js';
import { hashPassword } from '../auth/password.js';
import { ROLE_USER, USER_ENABLED } from '../auth/roles.js';

/** A user as the console sees it: never the password hash or the access token. */
export type PublicUser = Omit<User, 'password' | 'access_token' | 'deleted_at'> & { DeletedAt: number | null };

export function toPublicUser(user: User): PublicUser {
  const { password: _password, access_token: _token, deleted_at, ...rest } = user;
  return { ...rest, DeletedAt: deleted_at };
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
