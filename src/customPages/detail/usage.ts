/**
 * The dashboard's data as plain functions: the query of GET /api/data (admin) or /api/data/self,
 * and the hourly rows grouped by hour, day or week (local time) into one series per model.
 */
import type { QuotaDataRow } from '../../../server/logs/schemas';
import { formatDollars } from '../../status/status';

export type { QuotaDataRow };

export type Granularity = 'hour' | 'day' | 'week';
export const GRANULARITIES: Granularity[] = ['hour', 'day', 'week'];

export type Metric = 'quota' | 'count' | 'token_used';
export const METRICS: Metric[] = ['quota', 'count', 'token_used'];

export function isGranularity(value: unknown): value is Granularity {
  return value === 'hour' || value === 'day' || value === 'week';
}

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

/** The start (Unix seconds) of the hour, day or week (from Monday) holding `seconds`, in local time. */
export function bucketStart(seconds: number, granularity: Granularity): number {
  const date = new Date(seconds * 1000);
  if (granularity === 'hour') {
    date.setMinutes(0, 0, 0);
  } else {
    date.setHours(0, 0, 0, 0);
    if (granularity === 'week') date.setDate(date.getDate() - ((date.getDay() + 6) % 7));
  }
  return Math.floor(date.getTime() / 1000);
}

/** The default range for a granularity: the last day, week or four weeks, to one hour after now. */
export function defaultRange(granularity: Granularity, now = Date.now()): { start: number; end: number } {
  const span = granularity === 'hour' ? DAY_MS : granularity === 'day' ? 7 * DAY_MS : 28 * DAY_MS;
  return { start: Math.floor((now - span) / 1000), end: Math.floor((now + HOUR_MS) / 1000) };
}

export interface DataFilter {
  start: number;
  end: number;
  granularity: Granularity;
  /** Admins only; blank means every user. */
  username: string;
}

/** The call's query: admins may name one user (blank means all); others always read their own. */
export function dataQuery(filter: DataFilter, admin: boolean): string {
  const query = new URLSearchParams({
    start_timestamp: String(filter.start),
    end_timestamp: String(filter.end),
    default_time: filter.granularity,
  });
  const username = filter.username.trim();
  if (admin && username) query.set('username', username);
  return query.toString();
}

export interface Series {
  model: string;
  /** One value per bucket, in bucket order. */
  values: number[];
}

export interface Usage {
  /** Bucket starts (Unix seconds), oldest first. */
  buckets: number[];
  /** Per metric, one series per model, the largest total first. */
  series: Record<Metric, Series[]>;
  totals: Record<Metric, number>;
}

/** Groups the hourly rows into buckets of `granularity`, one series per model and metric. */
export function aggregate(rows: readonly QuotaDataRow[], granularity: Granularity): Usage {
  const buckets = [...new Set(rows.map((r) => bucketStart(r.created_at, granularity)))].sort((a, b) => a - b);
  const index = new Map(buckets.map((b, i) => [b, i]));
  const models = [...new Set(rows.map((r) => r.model_name))];
  const totals: Record<Metric, number> = { quota: 0, count: 0, token_used: 0 };
  const series = {} as Record<Metric, Series[]>;
  for (const metric of METRICS) {
    const byModel = new Map(models.map((m) => [m, new Array<number>(buckets.length).fill(0)]));
    for (const row of rows) {
      const values = byModel.get(row.model_name);
      const at = index.get(bucketStart(row.created_at, granularity));
      if (values && at !== undefined) values[at] = (values[at] ?? 0) + row[metric];
      totals[metric] += row[metric];
    }
    const sum = (values: number[]) => values.reduce((s, v) => s + v, 0);
    series[metric] = [...byModel]
      .map(([model, values]) => ({ model, values }))
      .sort((a, b) => sum(b.values) - sum(a.values) || a.model.localeCompare(b.model));
  }
  return { buckets, series, totals };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A bucket's label: "MM-DD HH:00" for hours, "MM-DD" for days and weeks (the week's Monday). */
export function bucketLabel(seconds: number, granularity: Granularity): string {
  const d = new Date(seconds * 1000);
  const day = `${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  return granularity === 'hour' ? `${day} ${pad(d.getHours())}:00` : day;
}

/** Large numbers abbreviated for narrow cells: from 10 thousand as k, millions M, billions B. */
export function abbreviate(n: number): string {
  const trim = (v: number) => String(Number(v.toFixed(2)));
  if (Math.abs(n) >= 1e9) return `${trim(n / 1e9)}B`;
  if (Math.abs(n) >= 1e6) return `${trim(n / 1e6)}M`;
  if (Math.abs(n) >= 1e4) return `${trim(n / 1e3)}k`;
  return trim(n);
}

/** Spend as dollars (quota ÷ quota_per_unit, never a tiny amount as $0.00) when the site shows currency, else as quota. */
export function formatSpend(quota: number, quotaPerUnit: number, inCurrency: boolean): string {
  return inCurrency ? formatDollars(quota / quotaPerUnit) : abbreviate(quota);
}

/** Dollars on a chart: small amounts keep two significant digits ($0.000021), others up to 4 decimals. */
export function chartDollars(quota: number, quotaPerUnit: number): string {
  const dollars = quota / quotaPerUnit;
  if (dollars !== 0 && Math.abs(dollars) < 0.01) return `$${Number(dollars.toPrecision(2))}`;
  return `$${Number(dollars.toFixed(4))}`;
}

/** `datetime-local` value of Unix seconds, and back. */
export function toLocalInput(seconds: number): string {
  const d = new Date(seconds * 1000);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function fromLocalInput(value: string): number | null {
  const ms = new Date(value).getTime();
  return value && Number.isFinite(ms) ? Math.floor(ms / 1000) : null;
}
