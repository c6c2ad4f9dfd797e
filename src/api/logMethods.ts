/**
 * The usage log's calls besides its list, as custom dataProvider methods (spread into
 * customMethods): the figures over a filter, a row's kept prompt and completion, and the usage
 * per channel and model or per hour and model (the dashboard), and the cleanup of old rows.
 */
import type { ChannelUseRow, LogBody, LogExtend, LogStat, QuotaDataRow } from '../../server/logs/schemas';
import { api } from './client';

/** Whose rows: everyone's (admins) or one's own. */
export type LogScope = 'all' | 'self';

export const logMethods = {
  /** Quota used, requests and tokens per minute over the list's filters (`query`, URL-encoded). */
  getLogStat(scope: LogScope, query: string): Promise<LogStat> {
    const base = scope === 'all' ? '/api/log/stat' : '/api/log/self/stat';
    return api.get<LogStat>(query ? `${base}?${query}` : base);
  },
  /** Usage per channel and model over a range (`query`, URL-encoded). */
  async getChannelUse(query: string): Promise<ChannelUseRow[]> {
    return (await api.get<ChannelUseRow[] | null>(`/api/data/channelUseData?${query}`)) ?? [];
  },
  /** Hourly usage per model over a range (`query`, URL-encoded): everyone's (or one user's) or one's own. */
  async getQuotaData(scope: LogScope, query: string): Promise<QuotaDataRow[]> {
    const base = scope === 'all' ? '/api/data/' : '/api/data/self';
    return (await api.get<QuotaDataRow[] | null>(`${base}?${query}`)) ?? [];
  },
  /** Deletes the rows older than `before` (Unix seconds); answers how many went. */
  async cleanLogs(before: number): Promise<number> {
    return (await api.delete<number | null>(`/api/log/?target_timestamp=${before}`)) ?? 0;
  },
  /** The prompt and completion kept with one log row. */
  getLogExtend(id: string): Promise<LogExtend> {
    return api.get<LogExtend>(`/api/log/extend/${encodeURIComponent(id)}`);
  },
  /** The request and answer bodies kept for one log row's call (opt-in body logs); null when none were. */
  async getLogBody(id: string): Promise<LogBody | null> {
    return (await api.get<LogBody | null>(`/api/log/body/${encodeURIComponent(id)}`)) ?? null;
  },
};
