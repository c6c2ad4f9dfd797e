/**
 * Reads of `quota_data`, the hourly totals per user, model and channel that HourlyTotals keeps, and
 * of its roll-ups over users (quota_data_models), over users and channels (quota_data_model_hours)
 * and over models and channels (quota_data_users):
 * channel statistics, the dashboard and the admin's user list read these instead of summing
 * millions of log rows. A question about every user reads a roll-up: at 10M log rows a month,
 * quota_data holds millions of rows too.
 */
import { sql, type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from '../db/index.js';
import type { Database } from '../db/types.js';
import type { ChannelUseRow, QuotaDataRow, UserUsageRow } from './schemas.js';

const HOUR = 3600;

type QuotaEb = ExpressionBuilder<Database, 'quota_data'>;
type ModelsEb = ExpressionBuilder<Database, 'quota_data_models'>;

/**
 * Hour buckets overlapping [start, end]: a bucket is stamped with the start of its hour, so the one
 * holding `start` begins before it and still counts.
 */
function inRange(start: number | undefined, end: number | undefined): Expression<SqlBool>[] {
  const out: Expression<SqlBool>[] = [];
  if (start) out.push(sql<SqlBool>`${sql.ref('created_at')} >= ${Math.floor(start / HOUR) * HOUR}`);
  if (end) out.push(sql<SqlBool>`${sql.ref('created_at')} <= ${end}`);
  return out;
}

export interface ChannelUseFilter {
  modelName?: string;
  start?: number;
  end?: number;
  channelId?: number;
  /** One row per channel, models summed (model_name ''). */
  merge?: boolean;
}

/** Usage per channel and model (or per channel), highest spend first. */
export async function channelUse(db: Db, f: ChannelUseFilter): Promise<ChannelUseRow[]> {
  const sums = (eb: ModelsEb) => [
    eb.fn.sum<number | string>('token_used').as('token_used'),
    eb.fn.sum<number | string>('count').as('count'),
    eb.fn.sum<number | string>('quota').as('quota'),
    eb.fn.sum<number | string>('prompt_tokens').as('prompt_tokens'),
    eb.fn.sum<number | string>('cached_tokens').as('cached_tokens'),
  ];
  const where = (eb: ModelsEb) => {
    const c = inRange(f.start, f.end);
    if (f.modelName) c.push(eb('model_name', '=', f.modelName));
    if (f.channelId) c.push(eb('channel_id', '=', f.channelId));
    return eb.and(c);
  };
  const base = db.selectFrom('quota_data_models').where(where);
  const rows = f.merge
    ? (
        await base
          .select((eb) => ['channel_id', ...sums(eb)])
          .groupBy('channel_id')
          .orderBy((eb) => eb.fn.sum('quota'), 'desc')
          .orderBy('channel_id')
          .execute()
      ).map((r) => ({ ...r, model_name: '' }))
    : await base
        .select((eb) => ['channel_id', 'model_name', ...sums(eb)])
        .groupBy(['channel_id', 'model_name'])
        .orderBy((eb) => eb.fn.sum('quota'), 'desc')
        .orderBy('channel_id')
        .orderBy('model_name')
        .execute();
  return rows.map((r) => {
    const promptTokens = Number(r.prompt_tokens ?? 0);
    const cachedTokens = Number(r.cached_tokens ?? 0);
    return {
      channel_id: r.channel_id,
      model_name: r.model_name,
      token_used: Number(r.token_used ?? 0),
      count: Number(r.count ?? 0),
      quota: Number(r.quota ?? 0),
      prompt_tokens: promptTokens,
      cached_tokens: cachedTokens,
      cache_hit_rate: cacheHitRate(cachedTokens, promptTokens),
    };
  });
}

/** The share of input read from the prompt cache; null when there was no input to share. */
export function cacheHitRate(cachedTokens: number, promptTokens: number): number | null {
  return promptTokens > 0 ? cachedTokens / promptTokens : null;
}

export interface QuotaDataFilter {
  /** One user's rows (by id: totals follow a renamed user). */
  userId?: number;
  /** A name no current user has: matched against the name stored with the totals. */
  username?: string;
  start: number;
  end: number;
}

/** Hourly usage per model between start and end (inclusive), oldest first. */
export async function hourlyUsage(db: Db, f: QuotaDataFilter): Promise<QuotaDataRow[]> {
  const one = f.userId !== undefined || f.username !== undefined;
  const rows = one
    ? await db
        .selectFrom('quota_data')
        .select((eb) => [
          'model_name',
          'created_at',
          eb.fn.sum<number | string>('token_used').as('token_used'),
          eb.fn.sum<number | string>('count').as('count'),
          eb.fn.sum<number | string>('quota').as('quota'),
        ])
        .where((eb: QuotaEb) => {
          const c = inRange(f.start, f.end);
          if (f.userId !== undefined) c.push(eb('user_id', '=', f.userId));
          else if (f.username !== undefined) c.push(eb('username', '=', f.username));
          return eb.and(c);
        })
        .groupBy(['created_at', 'model_name'])
        .orderBy('created_at')
        .orderBy('model_name')
        .execute()
    : // Already one row per hour and model: read in key order, nothing to sum.
      await db
        .selectFrom('quota_data_model_hours')
        .select(['model_name', 'created_at', 'token_used', 'count', 'quota'])
        .where((eb) => eb.and(inRange(f.start, f.end)))
        .orderBy('created_at')
        .orderBy('model_name')
        .execute();
  return rows.map((r) => ({
    model_name: r.model_name,
    created_at: Number(r.created_at),
    token_used: Number(r.token_used ?? 0),
    count: Number(r.count ?? 0),
    quota: Number(r.quota ?? 0),
  }));
}

/**
 * Hourly usage per user (by the name stored with the totals) between start and end (inclusive),
 * oldest first: what the dashboard ranks users by.
 */
export async function hourlyUsageByUser(db: Db, f: { start: number; end: number }): Promise<UserUsageRow[]> {
  const rows = await db
    .selectFrom('quota_data_users')
    .select(['username', 'created_at', 'token_used', 'count', 'quota'])
    .where((eb) => eb.and(inRange(f.start, f.end)))
    .orderBy('created_at')
    .orderBy('username')
    .execute();
  return rows.map((r) => ({
    username: r.username,
    created_at: Number(r.created_at),
    token_used: Number(r.token_used),
    count: Number(r.count),
    quota: Number(r.quota),
  }));
}

/**
 * Quota spent by each of `userIds` in each named window ([from, to) in seconds), from one grouped
 * query over the rows since the earliest window began. Users without rows are left out.
 */
export async function spendInWindows<W extends string>(
  db: Db,
  userIds: number[],
  windows: Record<W, [from: number, to: number]>,
): Promise<Map<number, Record<W, number>>> {
  const names = Object.keys(windows) as W[];
  const between = ([from, to]: [number, number]): RawBuilder<number> =>
    sql<number>`sum(case when ${sql.ref('created_at')} >= ${from} and ${sql.ref('created_at')} < ${to} then ${sql.ref('quota')} else 0 end)`;
  const rows = await db
    .selectFrom('quota_data')
    .select(['user_id', ...names.map((name) => between(windows[name]).as(name))])
    .where('user_id', 'in', userIds)
    .where('created_at', '>=', Math.min(...names.map((name) => windows[name][0])))
    .groupBy('user_id')
    .execute();
  const out = new Map<number, Record<W, number>>();
  // The row type Kysely derives from computed aliases is not one TypeScript can index.
  for (const row of rows as unknown as Array<Record<string, unknown>>) {
    out.set(Number(row.user_id), Object.fromEntries(names.map((name) => [name, Number(row[name]) || 0])) as Record<W, number>);
  }
  return out;
}
