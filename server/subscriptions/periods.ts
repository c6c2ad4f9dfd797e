/**
 * Period arithmetic for subscription resets and spend caps, in the site's local time (the process's
 * time zone, as the daily check-in): days start at midnight, weeks on Monday, months on the 1st.
 * Everything is unix seconds.
 */

export const RESET_PERIODS = ['never', 'daily', 'weekly', 'monthly', 'custom'] as const;
export type ResetPeriod = (typeof RESET_PERIODS)[number];

export const DURATION_UNITS = ['year', 'month', 'week', 'day', 'hour', 'custom', 'permanent'] as const;
export type DurationUnit = (typeof DURATION_UNITS)[number];

/** The end of a permanent subscription: 9999-12-31. */
export const FOREVER = 253_402_300_799;

const seconds = (d: Date): number => Math.floor(d.getTime() / 1000);

/** Start of the calendar period (daily, weekly, monthly) that contains `at`. */
function calendarStart(period: 'daily' | 'weekly' | 'monthly', at: number): Date {
  const d = new Date(at * 1000);
  d.setHours(0, 0, 0, 0);
  if (period === 'weekly') d.setDate(d.getDate() - ((d.getDay() + 6) % 7));
  if (period === 'monthly') d.setDate(1);
  return d;
}

function calendarNext(period: 'daily' | 'weekly' | 'monthly', start: Date): Date {
  const d = new Date(start);
  if (period === 'daily') d.setDate(d.getDate() + 1);
  else if (period === 'weekly') d.setDate(d.getDate() + 7);
  else d.setMonth(d.getMonth() + 1);
  return d;
}

export interface Period {
  start: number;
  /** When the next period starts; 0: never. */
  next: number;
}

/**
 * The period containing `at`. Custom periods are counted from `anchor` (the subscription's start)
 * in steps of `customSeconds`; `never` is one period from `anchor` on.
 */
export function periodAt(period: ResetPeriod, customSeconds: number, anchor: number, at: number): Period {
  if (period === 'never' || (period === 'custom' && customSeconds <= 0)) return { start: anchor, next: 0 };
  if (period === 'custom') {
    const steps = Math.max(0, Math.floor((at - anchor) / customSeconds));
    const start = anchor + steps * customSeconds;
    return { start, next: start + customSeconds };
  }
  const start = calendarStart(period, at);
  return { start: seconds(start), next: seconds(calendarNext(period, start)) };
}

/** When a subscription of `value` × `unit` (or `customSeconds`) started at `start` ends. */
export function endOf(unit: DurationUnit, value: number, customSeconds: number, start: number): number {
  const d = new Date(start * 1000);
  switch (unit) {
    case 'permanent':
      return FOREVER;
    case 'custom':
      return start + customSeconds;
    case 'hour':
      return start + value * 3600;
    case 'day':
      return start + value * 86_400;
    case 'week':
      return start + value * 7 * 86_400;
    case 'month':
      d.setMonth(d.getMonth() + value);
      return seconds(d);
    case 'year':
      d.setFullYear(d.getFullYear() + value);
      return seconds(d);
  }
}
