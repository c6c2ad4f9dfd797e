/**
 * Quota held by a call while it is served. Every call that can be charged takes a hold first:
 *
 * - `take` reserves the call's estimate (debited with a durable reservation row in one transaction)
 *   or nothing on a large balance (no database work before the upstream is asked);
 * - `checkpoint` records, now and then, the cost of what a stream has delivered so far, so that a
 *   process that dies mid-stream is charged for that much when its holds are recovered;
 * - `settle` charges the actual cost in full and replaces the row with the call's log row;
 *   `release` gives the reservation back (nothing was served).
 *
 * Holds still open belong to this process (`live`); a row of this process that is not live, or of a
 * process that died, is resolved by server/billing/recovery.ts.
 */
import { randomBytes } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Database } from '../db/types.js';
import type { Journal } from './journal.js';
import type { HoldRow, LogRow, Payer, ReservationRow, ReserveOutcome } from './journal-ops.js';

/** The fixed fields of a call's log row, kept on its reservation row for whoever resolves it. */
export interface HoldRecord {
  username: string;
  token_name: string;
  model_name: string;
  group: string;
  ip: string;
  is_stream: number;
  /** What the log row's `other` should start from (prices, the channels tried). */
  other: Record<string, unknown>;
}

/** Milliseconds between two checkpoints of one stream. */
export const CHECKPOINT_MS = 1_000;

export class Holds {
  /** This process's id in the `nodes` table and on its reservation rows. */
  readonly node = randomBytes(6).toString('hex');
  /** Ids of the holds still open in this process. */
  readonly live = new Set<string>();
  private seq = 0;

  constructor(private readonly journal: Journal) {}

  /** A hold that reserves nothing (a large balance): no database work until it is settled. */
  open(payer: Payer, record: () => HoldRecord): Hold {
    const row: HoldRow = { id: `${this.node}-${++this.seq}`, payer, reserved: 0, state: 'none', landed: 0 };
    return new Hold(this, this.journal, row, record);
  }

  /**
   * Reserves `amount` for a call (0: nothing, no database work). Returns the hold, or why the
   * balance refused it.
   */
  async take(
    payer: Payer,
    amount: number,
    record: () => HoldRecord,
  ): Promise<{ ok: true; hold: Hold } | Exclude<ReserveOutcome, { ok: true }>> {
    if (amount <= 0) return { ok: true, hold: this.open(payer, record) };
    const row: HoldRow = { id: `${this.node}-${++this.seq}`, payer, reserved: amount, state: 'none', landed: 0 };
    const hold = new Hold(this, this.journal, row, record);
    this.live.add(row.id);
    row.state = 'queued';
    try {
      const outcome = await this.journal.reserve(row, hold.rowValues(amount));
      if (outcome.ok) return { ok: true, hold };
      this.live.delete(row.id);
      return outcome;
    } catch (err) {
      this.live.delete(row.id);
      throw err;
    }
  }
}

export class Hold {
  private lastCheckpoint = performance.now();
  private done = false;

  constructor(
    private readonly holds: Holds,
    private readonly journal: Journal,
    readonly row: HoldRow,
    private readonly record: () => HoldRecord,
  ) {}

  get reserved(): number {
    return this.row.reserved;
  }

  /** Whether a checkpoint is due (cheap: called for every chunk of a stream). */
  checkpointDue(): boolean {
    return !this.done && performance.now() - this.lastCheckpoint >= CHECKPOINT_MS;
  }

  /** Records what has been delivered so far (its cost and tokens) without waiting for the write. */
  checkpoint(delivered: number, promptTokens: number, completionTokens: number, channelId: number): void {
    if (this.done || this.row.state === 'taken') return;
    this.lastCheckpoint = performance.now();
    let insert: ReservationRow | null = null;
    if (this.row.state === 'none') {
      insert = { ...this.rowValues(0), channel_id: channelId };
      this.row.state = 'queued';
      this.holds.live.add(this.row.id);
    }
    this.journal.checkpoint({ kind: 'checkpoint', hold: this.row, insert, delivered, promptTokens, completionTokens, channelId });
  }

  /**
   * Charges `actual` in full and writes `log` (null: no log row) in the same transaction; undefined
   * when the hold was already ended.
   */
  settle(actual: number, channelId: number, log: LogRow | null): Promise<void> | undefined {
    return this.end(actual, channelId, log, true);
  }

  /** Settles like `settle`, writing `alongside` in the same transaction (both or neither). */
  async settleWith<T>(
    actual: number,
    channelId: number,
    log: LogRow | null,
    alongside: (trx: Transaction<Database>) => Promise<T>,
  ): Promise<T> {
    if (this.done) throw new Error('hold already settled');
    this.done = true;
    try {
      return await this.journal.settleWith(this.row, actual, channelId, log, alongside);
    } finally {
      this.holds.live.delete(this.row.id);
    }
  }

  /**
   * Gives the reservation back: nothing was served. Undefined when there is nothing to give back
   * (the hold was settled, or reserved nothing): every call releases its hold at the end.
   */
  release(): Promise<void> | undefined {
    return this.end(0, 0, null, false);
  }

  private end(actual: number, channelId: number, log: LogRow | null, counts: boolean): Promise<void> | undefined {
    if (this.done) return undefined;
    this.done = true;
    if (this.row.state === 'none' && actual === 0 && !log) return undefined;
    const ended = () => void this.holds.live.delete(this.row.id);
    return this.journal.settle(this.row, actual, channelId, log, counts).then(ended, (err: unknown) => {
      ended();
      throw err;
    });
  }

  /** The reservation row as first written. */
  rowValues(amount: number): ReservationRow {
    const now = Math.floor(Date.now() / 1000);
    const { payer } = this.row;
    return {
      id: this.row.id,
      node: this.holds.node,
      user_id: payer.userId,
      token_id: payer.tokenId,
      unlimited_token: payer.unlimitedToken ? 1 : 0,
      amount,
      delivered: 0,
      prompt_tokens: 0,
      completion_tokens: 0,
      channel_id: 0,
      record: JSON.stringify(this.record()),
      created_at: now,
      updated_at: now,
      subscription_id: payer.subscription?.id ?? 0,
      subscription_period: payer.subscription?.period ?? 0,
    };
  }
}
