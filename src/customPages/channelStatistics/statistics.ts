/**
 * Channel statistics as plain functions: the query of GET /api/data/channelUseData, totals,
 * sorting and the CSV export (UTF-8 with a BOM so spreadsheet programs read it as such, quota ÷ quota_per_unit with 6 decimals,
 * the cache-hit rate as a percentage with 2 decimals, blank without input).
 */
import type { ChannelUseRow } from '../../../server/logs/schemas';

export type { ChannelUseRow };

export interface StatisticsFilter {
  /** `datetime-local` values (local time, minutes). */
  start: string;
  end: string;
  model_name: string;
  channel_id: string;
  merge: boolean;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A date as a `datetime-local` input value. */
export function toLocalInput(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The default range: the start of today to one hour after now. */
export function defaultFilter(now = new Date()): StatisticsFilter {
  const start = new Date(now);
  start.setHours(0, 0, 0, 0);
  return {
    start: toLocalInput(start),
    end: toLocalInput(new Date(now.getTime() + 3600_000)),
    model_name: '',
    channel_id: '',
    merge: false,
  };
}

function seconds(local: string): number | undefined {
  if (!local) return undefined;
  const ms = new Date(local).getTime();
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : undefined;
}

/** The query string of GET /api/data/channelUseData; blank filters are left out. */
export function statisticsQuery(filter: StatisticsFilter): string {
  const query = new URLSearchParams();
  const model = filter.model_name.trim();
  if (model) query.set('model_name', model);
  const start = seconds(filter.start);
  if (start !== undefined) query.set('start_timestamp', String(start));
  const end = seconds(filter.end);
  if (end !== undefined) query.set('end_timestamp', String(end));
  const channel = filter.channel_id.trim();
  if (/^\d+$/.test(channel)) query.set('channel_id', channel);
  query.set('merge', String(filter.merge));
  return query.toString();
}

export interface Totals {
  count: number;
  token_used: number;
  quota: number;
  /** Cached input ÷ input over all rows; null without input. */
  cache_hit_rate: number | null;
}

export function totals(rows: readonly ChannelUseRow[]): Totals {
  let count = 0;
  let tokenUsed = 0;
  let quota = 0;
  let prompt = 0;
  let cached = 0;
  for (const row of rows) {
    count += row.count;
    tokenUsed += row.token_used;
    quota += row.quota;
    prompt += row.prompt_tokens;
    cached += row.cached_tokens;
  }
  return { count, token_used: tokenUsed, quota, cache_hit_rate: prompt > 0 ? cached / prompt : null };
}

/** A cache-hit rate as a percentage with `digits` decimals; '' when there was no input. */
export function ratePercent(rate: number | null, digits = 1): string {
  return rate === null ? '' : `${(rate * 100).toFixed(digits)}%`;
}

export type SortField = keyof ChannelUseRow;
export type SortOrder = 'asc' | 'desc';

export function sortRows(rows: readonly ChannelUseRow[], field: SortField, order: SortOrder): ChannelUseRow[] {
  const sign = order === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = a[field];
    const y = b[field];
    // A rate without input (null) sorts below every rate.
    if (x === null || y === null) return (x === y ? 0 : x === null ? -1 : 1) * sign;
    const diff = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return diff * sign;
  });
}

/** Quota as dollars with the 6 decimals of the quota unit. */
export function quotaDollars(quota: number, quotaPerUnit: number): string {
  return (quota / quotaPerUnit).toFixed(6);
}

function csvCell(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const CSV_BOM = '\uFEFF';

/**
 * The export file's text: a byte-order mark (so spreadsheet programs read it as UTF-8), the
 * translated header, then one line per row in the order given.
 */
export function statisticsCsv(
  rows: readonly ChannelUseRow[],
  quotaPerUnit: number,
  header: readonly [string, string, string, string, string, string],
): string {
  const lines = [header.map(csvCell).join(',')];
  for (const row of rows) {
    const cells = [
      row.channel_id,
      row.model_name,
      row.token_used,
      row.count,
      quotaDollars(row.quota, quotaPerUnit),
      ratePercent(row.cache_hit_rate, 2),
    ];
    lines.push(cells.map(csvCell).join(','));
  }
  return CSV_BOM + lines.join('\r\n') + '\r\n';
}

export function csvFileName(nowMs = Date.now()): string {
  return `channel_statistics_${Math.floor(nowMs / 1000)}.csv`;
}
