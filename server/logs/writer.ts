/**
 * Writes what the relay produces in batches, off the request path: log rows, hourly usage totals,
 * and the usage counters of users, tokens and channels. Quota itself is never batched: balances
 * move at once and atomically (server/billing/ledger.ts); these are records and statistics.
 */
import { sql, type Insertable } from 'kysely';
import type { Db } from '../db/index.js';
import type { DbKind } from '../db/dsn.js';
import type { LogsTable } from '../db/types.js';
import type { OptionStore } from '../options/store.js';

export type LogRow = Insertable<LogsTable>;

interface HourlyTotal {
  user_id: number;
  username: string;
  model_name: string;
  channel_id: number;
  created_at: number;
  token_used: number;
  count: number;
  quota: number;
}

interface Counter {
  quota: number;
  requests: number;
}

export interface UsageRecord {
  userId: number;
  username: string;
  tokenId: number;
  channelId: number;
  model: string;
  quota: number;
  tokens: number;
}

const LOG_DEFAULTS = {
  content: '',
  username: '',
  token_name: '',
  token_id: 0,
  model_name: '',
  quota: 0,
  prompt_tokens: 0,
  completion_tokens: 0,
  use_time: 0,
  is_stream: 0,
  channel_id: 0,
  group: '',
  ip: '',
  other: '',
} satisfies Partial<LogRow>;

const FLUSH_MS = 500;
const MAX_BATCH = 500;

/**
 * The options behind the hourly totals: DataExportEnabled (off: none are kept) and
 * DataExportInterval (minutes between writes of the totals; logs and counters still go every 500 ms).
 */
type TotalsOptions = Pick<OptionStore, 'bool' | 'number'>;

export class UsageWriter {
  private logs: LogRow[] = [];
  private hourly = new Map<string, HourlyTotal>();
  private users = new Map<number, Counter>();
  private tokens = new Map<number, Counter>();
  private channels = new Map<number, Counter>();
  private timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();
  private totalsWrittenAt = Date.now();

  constructor(
    private readonly db: Db,
    private readonly kind: DbKind,
    private readonly onError: (err: unknown) => void,
    private readonly options?: TotalsOptions,
  ) {
    this.timer = setInterval(() => void this.flush(false), FLUSH_MS);
    this.timer.unref();
  }

  log(row: LogRow): void {
    // Rows of one batch are inserted together: every row names every column.
    this.logs.push({ ...LOG_DEFAULTS, ...row });
    if (this.logs.length >= MAX_BATCH) void this.flush();
  }

  /** Adds one request's usage to the counters and the hourly totals. */
  usage(u: UsageRecord): void {
    bump(this.users, u.userId, u.quota);
    bump(this.tokens, u.tokenId, u.quota);
    bump(this.channels, u.channelId, u.quota);
    if (this.options && !this.options.bool('DataExportEnabled')) return;
    const hour = Math.floor(Date.now() / 3_600_000) * 3600;
    const key = `${u.userId}\u0000${u.model}\u0000${u.channelId}\u0000${hour}`;
    const total = this.hourly.get(key);
    if (total) {
      total.count += 1;
      total.quota += u.quota;
      total.token_used += u.tokens;
    } else {
      this.hourly.set(key, {
        user_id: u.userId,
        username: u.username,
        model_name: u.model,
        channel_id: u.channelId,
        created_at: hour,
        token_used: u.tokens,
        count: 1,
        quota: u.quota,
      });
    }
  }

  /**
   * Writes what is pending; concurrent calls queue behind each other. `all` (the default) includes
   * the hourly totals; the timer's flushes leave them until DataExportInterval has passed.
   */
  flush(all = true): Promise<void> {
    this.flushing = this.flushing.then(() => this.writePending(all || this.totalsDue())).catch(this.onError);
    return this.flushing;
  }

  private totalsDue(): boolean {
    const minutes = this.options ? this.options.number('DataExportInterval') : 0;
    return Date.now() - this.totalsWrittenAt >= Math.max(0, minutes) * 60_000;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  /** Inserts log rows 100 at a time; a failing batch is retried row by row so one bad row loses only itself. */
  private async writeLogs(logs: LogRow[]): Promise<void> {
    for (let i = 0; i < logs.length; i += 100) {
      const batch = logs.slice(i, i + 100);
      try {
        await this.db.insertInto('logs').values(batch).execute();
      } catch {
        for (const row of batch) {
          try {
            await this.db.insertInto('logs').values(row).execute();
          } catch (err) {
            this.onError(err);
          }
        }
      }
    }
  }

  private async writePending(withTotals: boolean): Promise<void> {
    const logs = this.logs;
    const hourly = withTotals ? [...this.hourly.values()] : [];
    const users = this.users;
    const tokens = this.tokens;
    const channels = this.channels;
    if (logs.length === 0 && hourly.length === 0 && users.size === 0 && tokens.size === 0 && channels.size === 0) return;
    this.logs = [];
    if (withTotals) {
      this.hourly = new Map();
      this.totalsWrittenAt = Date.now();
    }
    this.users = new Map();
    this.tokens = new Map();
    this.channels = new Map();
    const now = Math.floor(Date.now() / 1000);
    await this.writeLogs(logs);
    await this.db.transaction().execute(async (trx) => {
      for (const [id, c] of users) {
        await trx
          .updateTable('users')
          .set({
            used_quota: sql`used_quota + ${c.quota}`,
            request_count: sql`request_count + ${c.requests}`,
            last_use_time: now,
          })
          .where('id', '=', id)
          .execute();
      }
      for (const [id, c] of tokens) {
        await trx
          .updateTable('tokens')
          .set({ used_quota: sql`used_quota + ${c.quota}`, accessed_time: now })
          .where('id', '=', id)
          .execute();
      }
      for (const [id, c] of channels) {
        await trx
          .updateTable('channels')
          .set({ used_quota: sql`used_quota + ${c.quota}` })
          .where('id', '=', id)
          .execute();
      }
      for (const t of hourly) {
        const insert = trx.insertInto('quota_data').values(t);
        const increments = {
          token_used: sql<number>`quota_data.token_used + ${t.token_used}`,
          count: sql<number>`quota_data.count + ${t.count}`,
          quota: sql<number>`quota_data.quota + ${t.quota}`,
        };
        if (this.kind === 'mysql') {
          await insert
            .onDuplicateKeyUpdate({
              token_used: sql<number>`token_used + ${t.token_used}`,
              count: sql<number>`count + ${t.count}`,
              quota: sql<number>`quota + ${t.quota}`,
            })
            .execute();
        } else {
          await insert
            .onConflict((oc) => oc.columns(['user_id', 'model_name', 'channel_id', 'created_at']).doUpdateSet(increments))
            .execute();
        }
      }
    });
  }
}

function bump(map: Map<number, Counter>, id: number, quota: number): void {
  if (!id) return;
  const c = map.get(id);
  if (c) {
    c.quota += quota;
    c.requests += 1;
  } else {
    map.set(id, { quota, requests: 1 });
  }
}
