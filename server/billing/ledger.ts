/**
 * Atomic quota movements. Every debit is a conditional UPDATE (`… WHERE quota >= amount`), so
 * concurrent requests, on one process or many, can never drive a balance below zero. These run on
 * every relayed request: the statements are compiled once per database and reused.
 */
import { CompiledQuery, sql, type Kysely, type Transaction } from 'kysely';
import type { Db } from '../db/index.js';
import type { Database } from '../db/types.js';

export interface Payer {
  userId: number;
  tokenId: number;
  /** Unlimited tokens have no remain_quota to debit. */
  unlimitedToken: boolean;
}

class TokenShort extends Error {}

export type DebitResult = { ok: true } | { ok: false; reason: 'user_quota' | 'token_quota' };

type Executor = Kysely<Database> | Transaction<Database>;

/** The SQL text of each statement, compiled once per database from a Kysely builder. */
const statements = new WeakMap<object, Map<string, string>>();

function statement(db: Db, name: string, build: () => { compile(): CompiledQuery }): string {
  let byName = statements.get(db);
  if (!byName) statements.set(db, (byName = new Map()));
  let text = byName.get(name);
  if (text === undefined) byName.set(name, (text = build().compile().sql));
  return text;
}

// Parameters follow the order the builders place them in: the amount, the id, the amount again.
const SQL = {
  userDebit: (db: Db) =>
    statement(db, 'userDebit', () =>
      db
        .updateTable('users')
        .set({ quota: sql`quota - ${0}` })
        .where('id', '=', 0)
        .where('quota', '>=', 0),
    ),
  tokenDebit: (db: Db) =>
    statement(db, 'tokenDebit', () =>
      db
        .updateTable('tokens')
        .set({ remain_quota: sql`remain_quota - ${0}` })
        .where('id', '=', 0)
        .where('remain_quota', '>=', 0),
    ),
  userCredit: (db: Db) =>
    statement(db, 'userCredit', () =>
      db
        .updateTable('users')
        .set({ quota: sql`quota + ${0}` })
        .where('id', '=', 0),
    ),
  tokenCredit: (db: Db) =>
    statement(db, 'tokenCredit', () =>
      db
        .updateTable('tokens')
        .set({ remain_quota: sql`remain_quota + ${0}` })
        .where('id', '=', 0),
    ),
};

async function run(executor: Executor, text: string, parameters: number[]): Promise<number> {
  const result = await executor.executeQuery(CompiledQuery.raw(text, parameters));
  return Number(result.numAffectedRows ?? 0);
}

/** Takes exactly `amount` from the user and the token, or nothing at all. */
export async function debit(db: Db, payer: Payer, amount: number): Promise<DebitResult> {
  if (amount <= 0) return { ok: true };
  if (payer.unlimitedToken) {
    // One statement is atomic by itself: no transaction needed.
    const changed = await run(db, SQL.userDebit(db), [amount, payer.userId, amount]);
    return changed === 1 ? { ok: true } : { ok: false, reason: 'user_quota' };
  }
  return db
    .transaction()
    .execute(async (trx) => {
      if ((await run(trx, SQL.userDebit(db), [amount, payer.userId, amount])) !== 1) {
        return { ok: false, reason: 'user_quota' } as const;
      }
      if ((await run(trx, SQL.tokenDebit(db), [amount, payer.tokenId, amount])) !== 1) throw new TokenShort();
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
      if ((await run(trx, SQL.userDebit(db), [take, payer.userId, take])) !== 1) return 0;
      // Lost a race with another request: take nothing rather than overdraw.
      if (!payer.unlimitedToken && (await run(trx, SQL.tokenDebit(db), [take, payer.tokenId, take])) !== 1)
        throw new TokenShort();
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
  if (payer.unlimitedToken) {
    await run(db, SQL.userCredit(db), [amount, payer.userId]);
    return;
  }
  await db.transaction().execute(async (trx) => {
    await run(trx, SQL.userCredit(db), [amount, payer.userId]);
    await run(trx, SQL.tokenCredit(db), [amount, payer.tokenId]);
  });
}
