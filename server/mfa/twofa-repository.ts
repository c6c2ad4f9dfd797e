/**
 * The `two_fa` and `two_fa_backup_codes` tables: a user's TOTP enrolment (pending until its first
 * code confirms it) and its one-time backup codes, stored as digests. Spending a code or a TOTP
 * step is a conditional UPDATE, so two processes never accept the same one twice.
 */
import type { Db } from '../db/index.js';
import { nowSeconds } from '../db/index.js';
import type { TwoFa } from '../db/types.js';

export async function findTwoFa(db: Db, userId: number): Promise<TwoFa | undefined> {
  return db.selectFrom('two_fa').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** Whether the user signs in with a TOTP code. */
export async function hasEnabledTwoFa(db: Db, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('two_fa')
    .select('id')
    .where('user_id', '=', userId)
    .where('enabled', '=', 1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Replaces any unconfirmed enrolment of the user with a new secret and its backup codes (digests). */
export async function startEnrolment(db: Db, userId: number, secret: string, codeHashes: string[]): Promise<void> {
  const now = nowSeconds();
  await db.deleteFrom('two_fa').where('user_id', '=', userId).where('enabled', '=', 0).execute();
  await db.deleteFrom('two_fa_backup_codes').where('user_id', '=', userId).execute();
  await db.insertInto('two_fa').values({ user_id: userId, secret, enabled: 0, last_used_step: 0, created_at: now }).execute();
  await insertCodes(db, userId, codeHashes, now);
}

async function insertCodes(db: Db, userId: number, codeHashes: string[], now: number): Promise<void> {
  if (codeHashes.length === 0) return;
  await db
    .insertInto('two_fa_backup_codes')
    .values(codeHashes.map((code_hash) => ({ user_id: userId, code_hash, created_at: now })))
    .execute();
}

/** Confirms a pending enrolment with the step of its first code; false when there was none pending. */
export async function confirmEnrolment(db: Db, userId: number, step: number): Promise<boolean> {
  const result = await db
    .updateTable('two_fa')
    .set({ enabled: 1, last_used_step: step })
    .where('user_id', '=', userId)
    .where('enabled', '=', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Records a TOTP step as used; false when it (or a later one) was already accepted. */
export async function spendStep(db: Db, userId: number, step: number): Promise<boolean> {
  const result = await db
    .updateTable('two_fa')
    .set({ last_used_step: step })
    .where('user_id', '=', userId)
    .where('enabled', '=', 1)
    .where('last_used_step', '<', step)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Spends an unused backup code of the user by its digest; false when there is no such unused code. */
export async function spendBackupCode(db: Db, userId: number, codeHash: string): Promise<boolean> {
  const row = await db
    .selectFrom('two_fa_backup_codes')
    .select('id')
    .where('user_id', '=', userId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (!row) return false;
  const result = await db
    .updateTable('two_fa_backup_codes')
    .set({ used_at: nowSeconds() })
    .where('id', '=', row.id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function countUnusedBackupCodes(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('two_fa_backup_codes')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Replaces every backup code of the user (used or not) with new ones. */
export async function replaceBackupCodes(db: Db, userId: number, codeHashes: string[]): Promise<void> {
  await db.deleteFrom('two_fa_backup_codes').where('user_id', '=', userId).execute();
  await insertCodes(db, userId, codeHashes, nowSeconds());
}

/** Removes the user's enrolment, confirmed or not, with its codes; false when there was no enabled one. */
export async function removeTwoFa(db: Db, userId: number): Promise<boolean> {
  const enabled = await hasEnabledTwoFa(db, userId);
  await db.deleteFrom('two_fa').where('user_id', '=', userId).execute();
  await db.deleteFrom('two_fa_backup_codes').where('user_id', '=', userId).execute();
  return enabled;
}

/** How many users sign in with a TOTP code. */
export async function countEnabledTwoFa(db: Db): Promise<number> {
  const row = await db
    .selectFrom('two_fa')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('enabled', '=', 1)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
