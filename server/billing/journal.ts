/**
 * Group commit for every quota movement of calls and the log rows that record them. Concurrent calls
 * hand their operations to the journal and wait for the commit; one transaction carries whatever
 * arrived while the previous one ran (or within the current turn of the event loop), so the cost of a
 * transaction is shared by every call in it. Balances stay exact under any number of processes: the
 * statements are the conditional UPDATEs of server/billing/journal-batch.ts, not a cached balance.
 *
 * A batch that fails for a passing reason (lost connection, deadlock, busy file) is tried again,
 * without its reservations (their calls are refused: nothing was served yet). A batch that fails for
 * any other reason is retried one operation at a time, so one bad operation fails alone.
 */
import type { Transaction } from 'kysely';
import type { Db } from '../db/index.js';
import type { Database } from '../db/types.js';
import type { DbKind } from '../db/dsn.js';
import { isTransientDbError } from '../db/errors.js';
import { PreparedStatements } from '../db/prepared.js';
import { completeLog } from '../logs/repository.js';
import { commitBatch, type BatchOutcome } from './journal-batch.js';
import type {
  Balances,
  CheckpointOp,
  HoldRow,
  JournalOp,
  LogRow,
  ReservationRow,
  ReserveOutcome,
  SettleOp,
} from './journal-ops.js';

const MAX_BATCH = 500;

const MAX_BACKOFF_MS = 5_000;

export interface JournalHooks {
  /** Balances as a committed batch left them. */
  onBalances(balances: Balances): void;
  onError(err: unknown, what: string): void;
  /** A batch committed, in `seconds`. */
  onCommitted?(seconds: number): void;
}

export class JournalClosedError extends Error {
  constructor() {
    super('the journal is closed');
  }
}

export class Journal {
  private queue: JournalOp[] = [];
  private running: Promise<void> | null = null;
  private closed = false;
  private readonly statements = new PreparedStatements();

  constructor(
    private readonly db: Db,
    private readonly kind: DbKind,
    private readonly hooks: JournalHooks,
  ) {}

  /** Debits `row.amount` from the payer and stores the row, or neither. */
  reserve(hold: HoldRow, row: ReservationRow): Promise<ReserveOutcome> {
    if (this.closed) return Promise.reject(new JournalClosedError());
    return new Promise((resolve, reject) => this.push({ kind: 'reserve', hold, row, resolve, reject }));
  }

  checkpoint(op: CheckpointOp): void {
    this.push(op);
  }

  /** Charges `actual` on `hold` in full and replaces its reservation row with `log`. */
  settle(hold: HoldRow, actual: number, channelId: number, log: LogRow | null, counts: boolean): Promise<void> {
    return new Promise((resolve, reject) => {
      const op: SettleOp = { kind: 'settle', hold, actual, channelId, log: log && completeLog(log), counts, resolve, reject };
      this.push(op);
    });
  }

  /**
   * Settles one hold in a transaction of its own that also writes `alongside` (say, the task row the
   * charge is for): both are committed or neither.
   */
  async settleWith<T>(
    hold: HoldRow,
    actual: number,
    channelId: number,
    log: LogRow | null,
    alongside: (trx: Transaction<Database>) => Promise<T>,
  ): Promise<T> {
    const settle: SettleOp = {
      kind: 'settle',
      hold,
      actual,
      channelId,
      log: log && completeLog(log),
      counts: true,
      resolve: () => undefined,
      reject: () => undefined,
    };
    const now = Math.floor(Date.now() / 1000);
    const [out, result] = await this.db.transaction().execute(async (trx) => {
      const batch = await commitBatch(trx, this.kind, this.statements, [settle], now);
      return [batch, await alongside(trx)] as const;
    });
    this.apply([settle], out);
    return result;
  }

  log(row: LogRow): void {
    this.push({ kind: 'log', row: completeLog(row) });
  }

  /** Resolves once everything handed over so far is committed (or has failed). */
  async flush(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Refuses new reservations and waits for the rest. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }

  /** Operations waiting for a transaction. */
  get pending(): number {
    return this.queue.length;
  }

  private push(op: JournalOp): void {
    this.queue.push(op);
    this.running ??= this.drain();
  }

  private async drain(): Promise<void> {
    // Operations handed over in this turn of the event loop join the first transaction.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      await this.commit(batch);
    }
    this.running = null;
  }

  private async commit(ops: JournalOp[]): Promise<void> {
    let batch = ops;
    for (let attempt = 0; batch.length > 0; attempt++) {
      try {
        const now = Math.floor(Date.now() / 1000);
        const started = performance.now();
        const out = await this.db.transaction().execute((trx) => commitBatch(trx, this.kind, this.statements, batch, now));
        this.hooks.onCommitted?.((performance.now() - started) / 1000);
        this.apply(batch, out);
        return;
      } catch (err) {
        if (!isTransientDbError(err)) return this.isolate(batch, err);
        this.hooks.onError(err, 'journal batch (will retry)');
        for (const op of batch) if (op.kind === 'reserve') op.reject(err);
        batch = batch.filter((op) => op.kind !== 'reserve');
        await new Promise((r) => setTimeout(r, Math.min(MAX_BACKOFF_MS, 100 * 2 ** attempt)));
      }
    }
  }

  private async isolate(batch: JournalOp[], err: unknown): Promise<void> {
    if (batch.length > 1) {
      for (const op of batch) await this.commit([op]);
      return;
    }
    const op = batch[0]!;
    this.hooks.onError(err, `journal ${op.kind} failed`);
    if (op.kind === 'reserve' || op.kind === 'settle') op.reject(err);
    else if (op.kind === 'checkpoint' && op.insert && op.hold.state === 'queued') op.hold.state = 'none';
  }

  private apply(batch: readonly JournalOp[], out: BatchOutcome): void {
    for (const op of batch) {
      switch (op.kind) {
        case 'reserve': {
          const outcome = out.reserves.get(op) ?? { ok: false, reason: 'user_quota' };
          if (outcome.ok) op.hold.state = 'stored';
          op.resolve(outcome);
          break;
        }
        case 'checkpoint':
          if (out.landed.has(op)) {
            op.hold.state = 'stored';
            op.hold.landed = op.delivered;
          } else if (out.lost.has(op)) op.hold.state = 'taken';
          else if (out.moot.has(op) && op.hold.state === 'queued') op.hold.state = 'none';
          break;
        case 'settle':
          op.hold.state = 'settled';
          op.resolve();
          break;
        case 'log':
          break;
      }
    }
    this.hooks.onBalances(out.balances);
  }
}
