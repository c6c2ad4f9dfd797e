/** The `passkeys` table: a user's WebAuthn credentials, looked up by credential id at sign-in. */
import type { Db } from '../db/index.js';
import { nowSeconds } from '../db/index.js';
import type { Passkey } from '../db/types.js';

export interface NewPasskey {
  user_id: number;
  credential_id: string;
  public_key: string;
  sign_count: number;
  transports: string;
  backed_up: number;
  name: string;
}

export async function listPasskeys(db: Db, userId: number): Promise<Passkey[]> {
  return db.selectFrom('passkeys').selectAll().where('user_id', '=', userId).orderBy('id').execute();
}

export async function countPasskeys(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('passkeys')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function findPasskeyByCredentialId(db: Db, credentialId: string): Promise<Passkey | undefined> {
  return db.selectFrom('passkeys').selectAll().where('credential_id', '=', credentialId).executeTakeFirst();
}

/** Stores a new credential (a credential id registered before fails with the unique index's error). */
export async function insertPasskey(db: Db, passkey: NewPasskey): Promise<void> {
  await db
    .insertInto('passkeys')
    .values({ ...passkey, created_at: nowSeconds(), last_used_at: 0 })
    .execute();
}

/** Records a use: the authenticator's signature counter (checked against the stored one before) and the time. */
export async function recordPasskeyUse(db: Db, id: number, counter: number): Promise<void> {
  await db.updateTable('passkeys').set({ sign_count: counter, last_used_at: nowSeconds() }).where('id', '=', id).execute();
}

/** Removes one of the user's passkeys; false when the user has none of that id. */
export async function deletePasskey(db: Db, userId: number, id: number): Promise<boolean> {
  const result = await db.deleteFrom('passkeys').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Removes every passkey of the user; returns how many there were. */
export async function deleteUserPasskeys(db: Db, userId: number): Promise<number> {
  const result = await db.deleteFrom('passkeys').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
