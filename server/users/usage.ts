import type { Db } from '../db/index.js';
import { nowSeconds } from '../db/index.js';
import { spendInWindows } from '../logs/quota-data.js';
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
  const spent = await spendInWindows(db, userIds, {
    day: [now - PERIODS.day, now + 1],
    prev_day: [now - 2 * PERIODS.day, now - PERIODS.day],
    week: [now - PERIODS.week, now + 1],
    prev_week: [now - 2 * PERIODS.week, now - PERIODS.week],
    month: [now - PERIODS.month, now + 1],
    prev_month: [now - 2 * PERIODS.month, now - PERIODS.month],
  });
  for (const [userId, s] of spent) {
    out.set(userId, {
      day: s.day,
      week: s.week,
      month: s.month,
      day_on_day: change(s.day, s.prev_day),
      week_on_week: change(s.week, s.prev_week),
      month_on_month: change(s.month, s.prev_month),
    });
  }
  return out;
}

export function usageOf(usage: Map<number, UserUsage>, userId: number): UserUsage {
  return usage.get(userId) ?? { ...EMPTY };
}
