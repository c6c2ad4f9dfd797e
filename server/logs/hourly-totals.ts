/**
 * The hourly totals per user, model and channel (`quota_data`, behind the dashboard and the channel
 * statistics) and their roll-ups over users, over users and channels and over models (migrations
 * 0014 and 0015), added up in memory
 * and written every DataExportInterval minutes. Quota, the usage
 * counters and the log rows that account for them are not here: they are written with each call
 * (server/billing/journal.ts).
 */
import { sql, type Insertable, type Transaction } from 'kysely';
import type { Db } from '../db/index.js';
import type { DbKind } from '../db/dsn.js';
import type { Database } from '../db/types.js';
import type { OptionStore } from '../options/store.js';

interface HourlyTotal {
  user_id: number;
  username: string;
  model_name: string;
  channel_id: number;
  created_at: number;
  token_used: number;
  count: number;
  quota: number;
  prompt_tokens: number;
  cached_tokens: number;
}

export interface UsageRecord {
  userId: number;
  username: string;
  channelId: number;
  model: string;
  quota: number;
  tokens: number;
  /** Input tokens, and the part of them read from the provider's prompt cache (channel statistics' hit rate). Default 0. */
  promptTokens?: number;
  cachedTokens?: number;
  /** Calls this record adds (0 for a refund). Default 1. */
  count?: number;
  /** When the usage happened (Unix seconds): its hour takes it. Default now. */
  at?: number;
}

/**
 * The options behind the totals: DataExportEnabled (off: none are kept) and DataExportInterval
 * (minutes between writes; checked every half second).
 */
type TotalsOptions = Pick<OptionStore, 'bool' | 'number'>;

const CHECK_MS = 500;

export class HourlyTotals {
  private hourly = new Map<string, HourlyTotal>();
  private timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();
  private writtenAt = Date.now();

  constructor(
    private readonly db: Db,
    private readonly kind: DbKind,
    private readonly onError: (err: unknown) => void,
    private readonly options?: TotalsOptions,
  ) {
    this.timer = setInterval(() => {
      if (this.due()) void this.flush();
    }, CHECK_MS);
    this.timer.unref();
  }

  /** Adds one call's usage (or a refund's negative quota) to its hour. */
  add(u: UsageRecord): void {
    if (this.options && !this.options.bool('DataExportEnabled')) return;
    const hour = Math.floor((u.at ?? Date.now() / 1000) / 3600) * 3600;
    const count = u.count ?? 1;
    const key = `${u.userId}\u0000${u.model}\u0000${u.channelId}\u0000${hour}`;
    const total = this.hourly.get(key);
    if (total) {
      total.count += count;
      total.quota += u.quota;
      total.token_used += u.tokens;
      total.prompt_tokens += u.promptTokens ?? 0;
      total.cached_tokens += u.cachedTokens ?? 0;
      return;
    }
    this.hourly.set(key, {
      user_id: u.userId,
      username: u.username,
      model_name: u.model,
      channel_id: u.channelId,
      created_at: hour,
      token_used: u.tokens,
      count,
      quota: u.quota,
      prompt_tokens: u.promptTokens ?? 0,
      cached_tokens: u.cachedTokens ?? 0,
    });
  }

  /** Writes what is pending now; concurrent calls queue behind each other. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write()).catch(this.onError);
    return this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private due(): boolean {
    const minutes = this.options ? this.options.number('DataExportInterval') : 0;
    return this.hourly.size > 0 && Date.now() - this.writtenAt >= Math.max(0, minutes) * 60_000;
  }

  private async write(): Promise<void> {
    const totals = [...this.hourly.values()];
    this.hourly = new Map();
    this.writtenAt = Date.now();
    if (totals.length === 0) return;
    const byModel = new Map<string, ModelTotal>();
    const byModelHour = new Map<string, ModelHourTotal>();
    const byUser = new Map<string, UserTotal>();
    for (const t of totals) {
      const sums = { token_used: t.token_used, count: t.count, quota: t.quota };
      addTo(byModel, `${t.created_at}\u0000${t.model_name}\u0000${t.channel_id}`, {
        created_at: t.created_at,
        model_name: t.model_name,
        channel_id: t.channel_id,
        ...sums,
        prompt_tokens: t.prompt_tokens,
        cached_tokens: t.cached_tokens,
      });
      addTo(byModelHour, `${t.created_at}\u0000${t.model_name}`, {
        created_at: t.created_at,
        model_name: t.model_name,
        ...sums,
      });
      addTo(byUser, `${t.created_at}\u0000${t.username}`, { created_at: t.created_at, username: t.username, ...sums });
    }
    // The totals and their roll-ups together: each roll-up stays the sum of what it stands for.
    await this.db.transaction().execute(async (trx) => {
      for (const t of totals) await this.upsert(trx, 'quota_data', t, ['user_id', 'model_name', 'channel_id', 'created_at']);
      for (const t of byModel.values())
        await this.upsert(trx, 'quota_data_models', t, ['created_at', 'model_name', 'channel_id']);
      for (const t of byModelHour.values()) await this.upsert(trx, 'quota_data_model_hours', t, ['created_at', 'model_name']);
      for (const t of byUser.values()) await this.upsert(trx, 'quota_data_users', t, ['created_at', 'username']);
    });
  }

  private async upsert<T extends 'quota_data' | 'quota_data_models' | 'quota_data_model_hours' | 'quota_data_users'>(
    trx: Transaction<Database>,
    table: T,
    t: Insertable<Database[T]> & Sums & Partial<InputSums>,
    key: ReadonlyArray<keyof Database[T] & string>,
  ): Promise<void> {
    const insert = trx.insertInto(table).values(t as never);
    if (this.kind === 'mysql') {
      await insert
        .onDuplicateKeyUpdate({
          token_used: sql<number>`token_used + ${t.token_used}`,
          count: sql<number>`count + ${t.count}`,
          quota: sql<number>`quota + ${t.quota}`,
          ...(t.prompt_tokens === undefined
            ? {}
            : {
                prompt_tokens: sql<number>`prompt_tokens + ${t.prompt_tokens}`,
                cached_tokens: sql<number>`cached_tokens + ${t.cached_tokens ?? 0}`,
              }),
        } as never)
        .execute();
      return;
    }
    await insert
      .onConflict((oc) =>
        oc.columns(key as never).doUpdateSet({
          token_used: sql<number>`${sql.ref(`${table}.token_used`)} + ${t.token_used}`,
          count: sql<number>`${sql.ref(`${table}.count`)} + ${t.count}`,
          quota: sql<number>`${sql.ref(`${table}.quota`)} + ${t.quota}`,
          ...(t.prompt_tokens === undefined
            ? {}
            : {
                prompt_tokens: sql<number>`${sql.ref(`${table}.prompt_tokens`)} + ${t.prompt_tokens}`,
                cached_tokens: sql<number>`${sql.ref(`${table}.cached_tokens`)} + ${t.cached_tokens ?? 0}`,
              }),
        } as never),
      )
      .execute();
  }
}

interface Sums {
  token_used: number;
  count: number;
  quota: number;
}

/** Kept in quota_data and quota_data_models only (the channel statistics' cache-hit rate). */
interface InputSums {
  prompt_tokens: number;
  cached_tokens: number;
}

type ModelTotal = Pick<HourlyTotal, 'created_at' | 'model_name' | 'channel_id'> & Sums & InputSums;
type ModelHourTotal = Pick<HourlyTotal, 'created_at' | 'model_name'> & Sums;
type UserTotal = Pick<HourlyTotal, 'created_at' | 'username'> & Sums;

function addTo<T extends Sums & Partial<InputSums>>(map: Map<string, T>, key: string, total: T): void {
  const seen = map.get(key);
  if (!seen) {
    map.set(key, total);
    return;
  }
  seen.token_used += total.token_used;
  seen.count += total.count;
  seen.quota += total.quota;
  if (seen.prompt_tokens !== undefined) seen.prompt_tokens += total.prompt_tokens ?? 0;
  if (seen.cached_tokens !== undefined) seen.cached_tokens += total.cached_tokens ?? 0;
}
