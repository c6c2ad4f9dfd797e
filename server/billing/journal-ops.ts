/**
 * What the journal (server/billing/journal.ts) writes: the operations calls hand it, and the
 * state of each hold's reservation row, which only the journal changes, after a commit.
 */
import type { Insertable } from 'kysely';
import type { NewLog, ReservationsTable } from '../db/types.js';

export type LogRow = NewLog;
export type ReservationRow = Insertable<ReservationsTable>;

export interface Payer {
  userId: number;
  /** 0: no token (the playground's console session). */
  tokenId: number;
  /** Unlimited tokens have no remain_quota to debit. */
  unlimitedToken: boolean;
  /**
   * Set when a subscription pays instead of the wallet: its id and the period (its
   * `last_reset_time`) the reservation is drawn from.
   */
  subscription?: { id: number; period: number };
}

/**
 * Where a hold's reservation row stands. `none`: there is no row (nothing reserved and no checkpoint
 * yet); `queued`: its insert waits in the journal; `stored`: committed; `taken`: a recovery resolved
 * it (the process holding it looked dead); `settled`: replaced by the settlement's log row.
 */
export type RowState = 'none' | 'queued' | 'stored' | 'taken' | 'settled';

export interface HoldRow {
  readonly id: string;
  readonly payer: Payer;
  /** Quota debited with the row (0: none, the large-balance shortcut). */
  readonly reserved: number;
  state: RowState;
  /** The delivered cost held by the row as last committed: what a recovery of it charged or would charge. */
  landed: number;
}

export type ReserveOutcome = { ok: true } | { ok: false; reason: 'user_quota' | 'token_quota' | 'subscription_quota' };

interface Pending<T> {
  resolve(value: T): void;
  reject(err: unknown): void;
}

export interface ReserveOp extends Pending<ReserveOutcome> {
  kind: 'reserve';
  hold: HoldRow;
  row: ReservationRow;
}

/** Progress of a call that delivers as it goes: the row's `delivered` (its first checkpoint may insert the row). */
export interface CheckpointOp {
  kind: 'checkpoint';
  hold: HoldRow;
  /** Set when the hold has no row yet: the row to insert. */
  insert: ReservationRow | null;
  delivered: number;
  promptTokens: number;
  completionTokens: number;
  channelId: number;
}

/**
 * The end of a hold: `actual` charged in full (the balance may go below zero by what it exceeds
 * the reservation), the reservation row replaced by `log` (null when consume logs are off).
 */
export interface SettleOp extends Pending<void> {
  kind: 'settle';
  hold: HoldRow;
  actual: number;
  channelId: number;
  log: LogRow | null;
  /** Counts as a request in the user's request_count (a released hold does not). */
  counts: boolean;
}

/** A log row that moves no quota (an error, a manage note). */
export interface LogOp {
  kind: 'log';
  row: LogRow;
}

export type JournalOp = ReserveOp | CheckpointOp | SettleOp | LogOp;

/** Balances as a batch left them, for the caches' hints. */
export interface Balances {
  users: Map<number, number>;
  tokens: Map<number, number>;
}
