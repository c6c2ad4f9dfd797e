/**
 * LOG_SQL_DSN: the log rows live in a database of their own. Every writer still inserts its row
 * into the main database's `logs` table, in the transaction that moves the quota (and with its
 * totals in `log_totals`), so a served call is never billed without its row nor logged without
 * its charge. That table is then an outbox: the shipper copies its oldest rows to the log database
 * under the same ids and deletes them from the main one.
 *
 * Exactly once: the copy skips ids the log database already holds, so a crash between the copy's
 * commit and the outbox delete ships nothing twice; the main database's ids are never reused
 * (serial, AUTOINCREMENT), so an id names one row for good. A log database records which gateway
 * database it serves (see claimLogDatabase): rows of two installations would collide on their ids.
 *
 * The jobs leader ships every second; every process ships what is left (for 2 s at most) when it shuts down.
 */
import { randomUUID } from 'node:crypto';
import { ConfigError } from '../config.js';
import type { Db } from '../db/index.js';
import type { DbKind } from '../db/dsn.js';
import { claimOption, type OptionStore } from '../options/store.js';
import { deleteLogsById, insertLogCopies, oldestLogs } from './repository.js';

/** Rows moved per round: one short transaction on each side. */
export const SHIP_BATCH = 1000;
const SHIP_EVERY_MS = 1000;
/** A backlog (the history of an installation that turns LOG_SQL_DSN on) ships this long per tick at most. */
const TICK_BUDGET_MS = 500;
/** A shutdown ships for this long at most, so a large backlog does not hold the exit. */
const CLOSE_BUDGET_MS = 2000;

/** The option naming, in the log database, the gateway database whose rows it holds. */
const SOURCE_KEY = 'LogSourceId';

/**
 * Ties the log database to this gateway database (by the main database's InstanceId), or throws a
 * ConfigError when it already holds another one's rows.
 */
export async function claimLogDatabase(options: OptionStore, logDb: Db): Promise<void> {
  const source = await options.internalOnce('InstanceId', randomUUID);
  if ((await claimOption(logDb, SOURCE_KEY, source)) !== source) {
    throw new ConfigError('LOG_SQL_DSN', 'holds the log rows of another gateway database; give this one its own');
  }
}

export class LogShipper {
  private timer: NodeJS.Timeout | null = null;
  /** The tick in progress: a slow one (a backlog) is not joined by the next. */
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly main: Db,
    private readonly logDb: Db,
    private readonly logKind: DbKind,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Moves up to SHIP_BATCH of the oldest outbox rows; returns how many it moved. */
  async shipBatch(): Promise<number> {
    const batch = await oldestLogs(this.main, SHIP_BATCH);
    if (batch.rows.length === 0) return 0;
    await insertLogCopies(this.logDb, this.logKind, batch);
    await deleteLogsById(
      this.main,
      batch.rows.map((r) => r.id),
    );
    return batch.rows.length;
  }

  /** Ships until the outbox is empty or `budgetMs` has passed; returns how many rows moved. */
  async ship(budgetMs = Infinity): Promise<number> {
    const started = performance.now();
    let moved = 0;
    for (;;) {
      const n = await this.shipBatch();
      moved += n;
      if (n < SHIP_BATCH || performance.now() - started > budgetMs) return moved;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  /** Ships every second while `leads()` says this process runs the jobs. */
  start(leads: () => boolean): void {
    this.timer = setInterval(() => {
      if (this.running || !leads()) return;
      this.running = this.ship(TICK_BUDGET_MS)
        .catch(this.onError)
        .finally(() => (this.running = null));
    }, SHIP_EVERY_MS);
    this.timer.unref();
  }

  /**
   * Stops the timer and ships what the outbox holds, for CLOSE_BUDGET_MS at most (call after the last
   * log rows are written): a backlog left over waits safely in the outbox for the next process.
   */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
    await this.ship(CLOSE_BUDGET_MS).catch(this.onError);
  }
}
