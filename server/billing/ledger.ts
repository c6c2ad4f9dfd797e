/**
 * Credits to a balance that are not calls (a paid top-up, a redemption code), made inside the
 * caller's transaction together with the record that explains them. Calls move quota through
 * holds and the journal (server/billing/holds.ts).
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/types.js';

export async function creditUser(
  executor: Kysely<Database> | Transaction<Database>,
  userId: number,
  amount: number,
): Promise<void> {
  if (amount <= 0) return;
  await executor
    .updateTable('users')
    .set({ quota: sql`quota + ${amount}` })
    .where('id', '=', userId)
    .execute();
}
