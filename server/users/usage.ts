import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/index.js';
import { nowSeconds } from '../db/index.js';
import type { UserUsage } from './schemas.js';

const DAY = 86_400;
const PERIODS = { day: DAY, week: 7 * DAY, month: 30 * DAY } as const;

const EMPTY: UserUsage = { day: 0, week: 0, month: 0, day_on_day: null, week_on_week: null, month_on_month: null };

function change(current: number, previous: number): number | null {
  return previous > 0 ? (current - previous) / previous : null;
}

/**
 * Quota spent by each of `userIds` over the last day, week and month (from the hourly quota_data
 * totals), with the change against the period before. One grouped query for a whole page.
 */
export async function usageByUser(db: Db, userIds: number[]): Promise<Map<number, UserUsage>> {
  const out = new Map<number, UserUsage>();
  if (userIds.length === 0) return out;
  const now = nowSeconds();
  const between = (from: number, to: number): RawBuilder<number> =>
    sql<number>`sum(case when ${sql.ref('created_at')} >= ${from} and ${sql.ref('created_at')} < ${to} then ${sql.ref('quota')} else 0 end)`;
  const rows = await db
    .selectFrom('quota_data')
    .select([
      'user_id',
      between(now - PERIODS.day, now + 1).as('day'),
      between(now - 2 * PERIODS.day, now - PERIODS.day).as('prev_day'),
      between(now - PERIODS.week, now + 1).as('week'),
      between(now - 2 * PERIODS.week, now - PERIODS.week).as('prev_week'),
      between(now - PERIODS.month, now + 1).as('month'),
      between(now - 2 * PERIODS.month, now - PERIODS.month).as('prev_month'),
    ])
    .where('user_id', 'in', userIds)
    .where('created_at', '>=', now - 2 * PERIODS.month)
    .groupBy('user_id')
    .execute();
  for (const row of rows) {
    const n = (v: unknown) => Number(v) || 0;
    out.set(row.user_id, {
      day: n(row.day),
      week: n(row.week),
      month: n(row.month),
      day_on_day: change(n(row.day), n(row.prev_day)),
      week_on_week: change(n(row.week), n(row.prev_week)),
      month_on_month: change(n(row.month), n(row.prev_month)),
    });
  }
  return out;
}

export function usageOf(usage: Map<number, UserUsage>, userId: number): UserUsage {
  return usage.get(userId) ?? { ...EMPTY };
}
