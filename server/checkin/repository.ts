/**
 * Daily check-in rows: one per user and day, written in the transaction that credits the award
 * and records its log row, so a day's second check-in (on any process) fails on the unique key and
 * credits nothing.
 */
import type { Db } from '../db/index.js';
import type { DbKind } from '../db/dsn.js';
import { creditUser } from '../billing/ledger.js';
import { isUniqueViolation } from '../db/errors.js';
import { recordLog } from '../logs/repository.js';
import { LOG_TOPUP } from '../logs/types.js';
import type { LogText } from '../logs/messages.js';
import { withText } from '../logs/messages.js';

export interface CheckinRecord {
  checkin_date: string;
  quota_awarded: number;
}

export interface CheckinStats {
  total_quota: number;
  total_checkins: number;
  checkin_count: number;
  checked_in_today: boolean;
  records: CheckinRecord[];
}

/** The user's check-ins of `month` (YYYY-MM), newest first, and their totals over all time. */
export async function checkinStats(db: Db, userId: number, month: string, today: string): Promise<CheckinStats> {
  const records = await db
    .selectFrom('checkins')
    .select(['checkin_date', 'quota_awarded'])
    .where('user_id', '=', userId)
    .where('checkin_date', '>=', `${month}-01`)
    .where('checkin_date', '<=', `${month}-31`)
    .orderBy('checkin_date', 'desc')
    .execute();
  const totals = await db
    .selectFrom('checkins')
    .select((eb) => [eb.fn.countAll().as('count'), eb.fn.coalesce(eb.fn.sum('quota_awarded'), eb.lit(0)).as('quota')])
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  const todayRow = await db
    .selectFrom('checkins')
    .select('id')
    .where('user_id', '=', userId)
    .where('checkin_date', '=', today)
    .executeTakeFirst();
  return {
    total_quota: Number(totals.quota),
    total_checkins: Number(totals.count),
    checkin_count: records.length,
    checked_in_today: todayRow !== undefined,
    records: records.map((r) => ({ checkin_date: r.checkin_date, quota_awarded: Number(r.quota_awarded) })),
  };
}

export interface NewCheckin {
  userId: number;
  username: string;
  date: string;
  quota: number;
  now: number;
  text: LogText;
  ip: string;
}

/** Records today's check-in, credits it and logs it; false when the user already checked in today. */
export async function checkIn(db: Db, kind: DbKind, c: NewCheckin): Promise<boolean> {
  try {
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('checkins')
        .values({ user_id: c.userId, checkin_date: c.date, quota_awarded: c.quota, created_at: c.now })
        .execute();
      await creditUser(trx, c.userId, c.quota);
      await recordLog(trx, kind, {
        user_id: c.userId,
        username: c.username,
        created_at: c.now,
        type: LOG_TOPUP,
        quota: c.quota,
        ip: c.ip,
        ...withText(c.text, { checkin_date: c.date }),
      });
    });
    return true;
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}
