/**
 * Balance movements that are not calls: credits (a paid top-up, a redemption code, a new user's
 * rewards), the invitation rewards, the transfer of invitation earnings, an admin's edit of a balance
 * and the refund of a failed task. Each runs inside the caller's transaction together with the
 * record that explains it. Calls move quota through holds and the journal (server/billing/holds.ts).
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/types.js';
import type { Payer } from './journal-ops.js';
import { moveSubscription } from './subscription-batch.js';

type Executor = Kysely<Database> | Transaction<Database>;

export async function creditUser(executor: Executor, userId: number, amount: number): Promise<void> {
  if (amount <= 0) return;
  await executor
    .updateTable('users')
    .set({ quota: sql`quota + ${amount}` })
    .where('id', '=', userId)
    .execute();
}

/**
 * Takes back a credit whose payment was reversed (refunded, disputed). Unlike an admin's change it
 * may take the balance below zero: the money is gone, so the shortfall stays as a visible debt.
 */
export async function takeBackCredit(executor: Executor, userId: number, amount: number): Promise<void> {
  if (amount <= 0) return;
  await executor
    .updateTable('users')
    .set({ quota: sql`quota - ${amount}` })
    .where('id', '=', userId)
    .execute();
}

/**
 * An admin's edit of a balance: sets it to `next` only while it still is `expected`, so a charge
 * landing between the admin's read and this write is never overwritten. Returns whether it was set.
 */
export async function setUserQuota(executor: Executor, userId: number, expected: number, next: number): Promise<boolean> {
  const result = await executor
    .updateTable('users')
    .set({ quota: next })
    .where('id', '=', userId)
    .where('quota', '=', expected)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * An admin's change of a balance by `delta` (more or less quota), in one conditional UPDATE that
 * never takes it below zero, whatever charges land meanwhile. Returns whether it was made.
 */
export async function changeUserQuota(executor: Executor, userId: number, delta: number): Promise<boolean> {
  const result = await executor
    .updateTable('users')
    .set({ quota: sql`quota + ${delta}` })
    .where('id', '=', userId)
    .where(sql<boolean>`quota + ${delta} >= 0`)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Counts an invitation and adds `reward` to the inviter's earnings. Returns false when the inviter is gone. */
export async function rewardInviter(executor: Executor, inviterId: number, reward: number): Promise<boolean> {
  const result = await executor
    .updateTable('users')
    .set({
      aff_count: sql`aff_count + 1`,
      aff_quota: sql`aff_quota + ${reward}`,
      aff_history_quota: sql`aff_history_quota + ${reward}`,
    })
    .where('id', '=', inviterId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Moves `amount` from invitation earnings to the balance in one conditional UPDATE, so concurrent
 * transfers can never take more than there is. Returns false when the earnings fall short.
 */
export async function transferAffQuota(executor: Executor, userId: number, amount: number): Promise<boolean> {
  const result = await executor
    .updateTable('users')
    .set((eb) => ({ aff_quota: eb('aff_quota', '-', amount), quota: eb('quota', '+', amount) }))
    .where('id', '=', userId)
    .where('aff_quota', '>=', amount)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A charge as it was made: who paid, through which token and channel, and how much. */
export interface Charge {
  userId: number;
  /** 0: no token. */
  tokenId: number;
  /** Unlimited tokens have no remain_quota to give back. */
  unlimitedToken: boolean;
  /** 0: no channel. */
  channelId: number;
  quota: number;
  /** Set when a subscription paid: the refund goes back to it (its period, if still current). */
  subscription?: Payer['subscription'];
}

/** Undoes a charge in full: the balances credited, the used_quota of user, token and channel taken back. */
export async function refundCharge(executor: Executor, charge: Charge): Promise<void> {
  const q = charge.quota;
  const wallet = charge.subscription ? 0 : q;
  await executor
    .updateTable('users')
    .set({ quota: sql`quota + ${wallet}`, used_quota: sql`used_quota - ${q}` })
    .where('id', '=', charge.userId)
    .execute();
  if (charge.subscription) await moveSubscription(executor, charge.subscription, 0, -q);
  if (charge.tokenId > 0) {
    await executor
      .updateTable('tokens')
      .set(
        charge.unlimitedToken
          ? { used_quota: sql`used_quota - ${q}` }
          : { remain_quota: sql`remain_quota + ${q}`, used_quota: sql`used_quota - ${q}` },
      )
      .where('id', '=', charge.tokenId)
      .execute();
  }
  if (charge.channelId > 0) {
    await executor
      .updateTable('channels')
      .set({ used_quota: sql`used_quota - ${q}` })
      .where('id', '=', charge.channelId)
      .execute();
  }
}
