/**
 * Redemption codes in the database. Deleted codes keep their row (`deleted_at` set) so a code
 * handed out once can never come back; every query here skips them.
 *
 * Redeeming is one transaction around a conditional UPDATE (`… WHERE status = unused`): however
 * many requests race for one code, on one process or many, exactly one claims it and credits its
 * quota; the others find it used.
 */
import { randomUUID } from 'node:crypto';
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import { creditUser } from '../billing/ledger.js';
import type { Db } from '../db/index.js';
import type { DbKind } from '../db/dsn.js';
import { likeExpr } from '../db/helpers.js';
import type { Database, Redemption } from '../db/types.js';
import { withText, type LogText } from '../logs/messages.js';
import { recordLog } from '../logs/repository.js';
import { LOG_TOPUP } from '../logs/types.js';
import { REDEMPTION_DISABLED, REDEMPTION_UNUSED, REDEMPTION_USED, type RedemptionView } from './schemas.js';
import { isExpired } from './validation.js';

export function toRedemptionView(row: Redemption): RedemptionView {
  return {
    id: row.id,
    user_id: row.user_id,
    key: row.key,
    status: row.status,
    name: row.name,
    quota: Number(row.quota),
    group: row.group,
    created_time: Number(row.created_time),
    redeemed_time: Number(row.redeemed_time),
    used_user_id: row.used_user_id,
    expired_time: Number(row.expired_time),
  };
}

/** A fresh code: 32 hexadecimal characters (122 random bits). */
export function generateCode(): string {
  return randomUUID().replace(/-/g, '');
}

/** What a search keyword matches: the id, the whole code, or part of the name. */
function matches(keyword: string) {
  return (eb: ExpressionBuilder<Database, 'redemptions'>): Expression<SqlBool> => {
    const alternatives: Expression<SqlBool>[] = [likeExpr('name', keyword), eb('key', '=', keyword)];
    if (/^\d{1,9}$/.test(keyword)) alternatives.push(eb('id', '=', Number(keyword)));
    return eb.or(alternatives);
  };
}

function live(db: Db, keyword: string) {
  let query = db.selectFrom('redemptions').where('deleted_at', 'is', null);
  if (keyword !== '') query = query.where(matches(keyword));
  return query;
}

export async function countRedemptions(db: Db, keyword: string): Promise<number> {
  const row = await live(db, keyword)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listRedemptions(db: Db, keyword: string, limit: number, offset: number): Promise<Redemption[]> {
  return live(db, keyword).selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute();
}

export async function findRedemption(db: Db, id: number): Promise<Redemption | undefined> {
  return live(db, '').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The ids of these codes (the audit names the codes a batch made by id, not by their secret keys). */
export async function findRedemptionIds(db: Db, keys: readonly string[]): Promise<number[]> {
  if (keys.length === 0) return [];
  const rows = await db
    .selectFrom('redemptions')
    .select('id')
    .where('key', 'in', [...keys])
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

export interface NewCodes {
  creatorId: number;
  name: string;
  quota: number;
  group: string;
  expiredTime: number;
  count: number;
  now: number;
}

/** Inserts `count` unused codes in one statement and returns them. */
export async function insertRedemptions(db: Db, input: NewCodes): Promise<string[]> {
  const keys = Array.from({ length: input.count }, generateCode);
  await db
    .insertInto('redemptions')
    .values(
      keys.map((key) => ({
        user_id: input.creatorId,
        key,
        status: REDEMPTION_UNUSED,
        name: input.name,
        quota: input.quota,
        group: input.group,
        expired_time: input.expiredTime,
        created_time: input.now,
      })),
    )
    .execute();
  return keys;
}

/** Changes name, quota, group and expiry of a code that is still unused; false when it no longer is. */
export async function updateUnusedRedemption(
  db: Db,
  id: number,
  fields: { name: string; quota: number; group: string; expired_time: number },
): Promise<boolean> {
  const result = await db
    .updateTable('redemptions')
    .set(fields)
    .where('id', '=', id)
    .where('status', '=', REDEMPTION_UNUSED)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Enables or disables a code that is not used; false when it has been used meanwhile. */
export async function setRedemptionStatus(db: Db, id: number, status: number): Promise<boolean> {
  const result = await db
    .updateTable('redemptions')
    .set({ status })
    .where('id', '=', id)
    .where('status', 'in', [REDEMPTION_UNUSED, REDEMPTION_DISABLED])
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteRedemption(db: Db, id: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('redemptions')
    .set({ deleted_at: now })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Deletes (as `deleteRedemption` does) every code that can no longer be redeemed: used, disabled,
 * or unused past its expiry. Answers how many.
 */
export async function deleteInvalidRedemptions(db: Db, now: number): Promise<number> {
  const result = await db
    .updateTable('redemptions')
    .set({ deleted_at: now })
    .where('deleted_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb('status', 'in', [REDEMPTION_USED, REDEMPTION_DISABLED]),
        eb.and([eb('status', '=', REDEMPTION_UNUSED), eb('expired_time', '!=', 0), eb('expired_time', '<', now)]),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export interface Redeemer {
  id: number;
  username: string;
  group: string;
}

export type RedeemOutcome =
  | { ok: true; id: number; quota: number }
  | { ok: false; reason: 'invalid' | 'used' | 'expired' }
  | { ok: false; reason: 'group'; group: string };

/**
 * Claims the code for the user, credits its quota and writes the top-up log row, all or nothing.
 * `describe` words the log line from the code's id and quota.
 */
export async function redeem(
  db: Db,
  kind: DbKind,
  key: string,
  user: Redeemer,
  now: number,
  describe: (id: number, quota: number) => LogText,
): Promise<RedeemOutcome> {
  return db.transaction().execute(async (trx) => {
    const code = await trx
      .selectFrom('redemptions')
      .select(['id', 'status', 'quota', 'group', 'expired_time'])
      .where('key', '=', key)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!code || code.status === REDEMPTION_DISABLED) return { ok: false, reason: 'invalid' } as const;
    if (code.status !== REDEMPTION_UNUSED) return { ok: false, reason: 'used' } as const;
    if (isExpired(Number(code.expired_time), now)) return { ok: false, reason: 'expired' } as const;
    if (code.group !== '' && code.group !== user.group) return { ok: false, reason: 'group', group: code.group } as const;
    const claimed = await trx
      .updateTable('redemptions')
      .set({ status: REDEMPTION_USED, used_user_id: user.id, redeemed_time: now })
      .where('id', '=', code.id)
      .where('status', '=', REDEMPTION_UNUSED)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    // Another request claimed it between the read and the write.
    if (Number(claimed.numUpdatedRows) !== 1) return { ok: false, reason: 'used' } as const;
    const quota = Number(code.quota);
    await creditUser(trx, user.id, quota);
    await recordLog(trx, kind, {
      user_id: user.id,
      username: user.username,
      created_at: now,
      type: LOG_TOPUP,
      quota,
      ...withText(describe(code.id, quota)),
    });
    return { ok: true, id: code.id, quota } as const;
  });
}
