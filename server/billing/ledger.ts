/**
 * Atomic quota movements. Every debit is a conditional UPDATE (`… WHERE quota >= amount`), so
 * concurrent requests, on one process or many, can never drive a balance below zero.
 */
import { sql } from 'kysely';
import type { Db } from '../db/index.js';

export interface Payer {
  userId: number;
  tokenId: number;
  /** Unlimited tokens have no remain_quota to debit. */
  unlimitedToken: boolean;
}

class TokenShort extends Error {}

export type DebitResult = { ok: true } | { ok: false; reason: 'user_quota' | 'token_quota' };

/** Takes exactly `amount` from the user and the token, or nothing at all. */
export async function debit(db: Db, payer: Payer, amount: number): Promise<DebitResult> {
  if (amount <= 0) return { ok: true };
  return db
    .transaction()
    .execute(async (trx) => {
      const user = await trx
        .updateTable('users')
        .set({ quota: sql`quota - ${amount}` })
        .where('id', '=', payer.userId)
        .where('quota', '>=', amount)
        .executeTakeFirst();
      if (Number(user.numUpdatedRows) !== 1) return { ok: false, reason: 'user_quota' } as const;
      if (!payer.unlimitedToken) {
        const token = await trx
          .updateTable('tokens')
          .set({ remain_quota: sql`remain_quota - ${amount}` })
          .where('id', '=', payer.tokenId)
          .where('remain_quota', '>=', amount)
          .executeTakeFirst();
        if (Number(token.numUpdatedRows) !== 1) throw new TokenShort();
      }
      return { ok: true } as const;
    })
    .catch((err: unknown) => {
      if (err instanceof TokenShort) return { ok: false, reason: 'token_quota' } as const;
      throw err;
    });
}

/**
 * Takes up to `amount`: all of it when the balances allow, else as much as both still hold.
 * Returns what was taken, which is what the log records.
 */
export async function debitUpTo(db: Db, payer: Payer, amount: number): Promise<number> {
  if (amount <= 0) return 0;
  const full = await debit(db, payer, amount);
  if (full.ok) return amount;
  return db
    .transaction()
    .execute(async (trx) => {
      const user = await trx.selectFrom('users').select('quota').where('id', '=', payer.userId).executeTakeFirst();
      let take = Math.min(amount, Math.max(0, user?.quota ?? 0));
      if (!payer.unlimitedToken) {
        const token = await trx.selectFrom('tokens').select('remain_quota').where('id', '=', payer.tokenId).executeTakeFirst();
        take = Math.min(take, Math.max(0, token?.remain_quota ?? 0));
      }
      if (take <= 0) return 0;
      const u = await trx
        .updateTable('users')
        .set({ quota: sql`quota - ${take}` })
        .where('id', '=', payer.userId)
        .where('quota', '>=', take)
        .executeTakeFirst();
      if (Number(u.numUpdatedRows) !== 1) return 0;
      if (!payer.unlimitedToken) {
        const t = await trx
          .updateTable('tokens')
          .set({ remain_quota: sql`remain_quota - ${take}` })
          .where('id', '=', payer.tokenId)
          .where('remain_quota', '>=', take)
          .executeTakeFirst();
        // Lost a race with another request: take nothing rather than overdraw.
        if (Number(t.numUpdatedRows) !== 1) throw new TokenShort();
      }
      return take;
    })
    .catch((err: unknown) => {
      if (err instanceof TokenShort) return 0;
      throw err;
    });
}

/** Gives `amount` back to the user and the token (a refund or an over-estimate returned). */
export async function credit(db: Db, payer: Payer, amount: number): Promise<void> {
  if (amount <= 0) return;
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set({ quota: sql`quota + ${amount}` })
      .where('id', '=', payer.userId)
      .execute();
    if (!payer.unlimitedToken) {
      await trx
        .updateTable('tokens')
        .set({ remain_quota: sql`remain_quota + ${amount}` })
        .where('id', '=', payer.tokenId)
        .execute();
    }
  });
}
