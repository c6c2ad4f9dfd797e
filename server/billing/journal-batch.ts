/**
 * One batch of the journal in one transaction. Rows are locked in one order everywhere (reservations,
 * then users by id, tokens by id, channels by id) so that batches of several processes, and the
 * recovery of a dead process's holds, cannot deadlock each other.
 *
 * Reservations are conditional (`quota >= amount`: a balance at or below zero refuses every new
 * call); settlements are not (a served call is charged in full, and the balance goes below zero by
 * what the call used beyond its reservation). The reservations of one payer in one batch are taken
 * by one statement when the balance covers them all, else one by one.
 *
 * Nothing here changes a hold: the outcome is applied by the journal once the transaction commits.
 */
import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/types.js';
import type { DbKind } from '../db/dsn.js';
import type { PreparedStatements } from '../db/prepared.js';
import { insertLogRows } from '../logs/repository.js';
import { LOG_REFUND } from '../logs/types.js';
import type { Balances, CheckpointOp, JournalOp, LogRow, ReserveOp, ReserveOutcome, SettleOp } from './journal-ops.js';
import { returnReservation, SubscriptionAccounts, withSource } from './subscription-batch.js';

type Trx = Transaction<Database>;

/** The columns of every reservation row the journal inserts (all rows name all of them). */
export const RESERVATION_COLUMNS = [
  'id',
  'node',
  'user_id',
  'token_id',
  'unlimited_token',
  'amount',
  'delivered',
  'prompt_tokens',
  'completion_tokens',
  'channel_id',
  'record',
  'created_at',
  'updated_at',
  'subscription_id',
  'subscription_period',
] as const;

const INSERT_CHUNK = 200;

export interface BatchOutcome {
  reserves: Map<ReserveOp, ReserveOutcome>;
  /** Settlements whose row a recovery had taken. */
  taken: Set<SettleOp>;
  /** Checkpoints that reached their row (inserted or updated). */
  landed: Set<CheckpointOp>;
  /** Checkpoints that found their row taken by a recovery. */
  lost: Set<CheckpointOp>;
  /** Checkpoint inserts dropped because the hold settles in the same batch. */
  moot: Set<CheckpointOp>;
  balances: Balances;
}

interface Account {
  /** Unconditional change of the balance (settlements). */
  delta: number;
  used: number;
  requests: number;
  reserves: ReserveOp[];
}

const account = (map: Map<number, Account>, id: number): Account => {
  let a = map.get(id);
  if (!a) map.set(id, (a = { delta: 0, used: 0, requests: 0, reserves: [] }));
  return a;
};

const ascending = <T>(map: Map<number, T>): Array<[number, T]> => [...map].sort((a, b) => a[0] - b[0]);

export async function commitBatch(
  trx: Trx,
  kind: DbKind,
  st: PreparedStatements,
  ops: readonly JournalOp[],
  now: number,
): Promise<BatchOutcome> {
  const out: BatchOutcome = {
    reserves: new Map(),
    taken: new Set(),
    landed: new Set(),
    lost: new Set(),
    moot: new Set(),
    balances: { users: new Map(), tokens: new Map() },
  };
  const settles: SettleOp[] = [];
  const reserves: ReserveOp[] = [];
  const checkpoints: CheckpointOp[] = [];
  const logs: LogRow[] = [];
  for (const op of ops) {
    if (op.kind === 'settle') settles.push(op);
    else if (op.kind === 'reserve') reserves.push(op);
    else if (op.kind === 'checkpoint') checkpoints.push(op);
    else logs.push(op.row);
  }
  const settling = new Set(settles.map((s) => s.hold));
  const live = checkpoints.filter((c) => {
    if (!settling.has(c.hold)) return true;
    if (c.insert) out.moot.add(c);
    return false;
  });

  // 1. The rows settlements replace; a row already gone was taken by a recovery.
  const stored = settles.filter((s) => s.hold.state === 'stored').map((s) => s.hold.id);
  const present = await deleteReservations(trx, kind, st, stored);
  for (const s of settles) {
    if (s.hold.state === 'taken' || (s.hold.state === 'stored' && !present.has(s.hold.id))) out.taken.add(s);
  }

  // 2. What each settlement moves, by user and token.
  const users = new Map<number, Account>();
  const tokens = new Map<number, Account>();
  const channels = new Map<number, number>();
  const subs = new SubscriptionAccounts();
  for (const s of settles) {
    const { payer, reserved, landed } = s.hold;
    const taken = out.taken.has(s);
    // A taken row was resolved by charging `landed` and returning the reservation: the rest is charged now.
    const charge = taken ? s.actual - landed : s.actual;
    const delta = taken ? -charge : reserved - s.actual;
    const u = account(users, payer.userId);
    // A subscription's hold moves the subscription's balance, not the wallet.
    if (payer.subscription) subs.settle(payer.subscription, delta, charge);
    else u.delta += delta;
    u.used += charge;
    u.requests += s.counts && !(taken && landed > 0) ? 1 : 0;
    if (payer.tokenId > 0) {
      const t = account(tokens, payer.tokenId);
      if (!payer.unlimitedToken) t.delta += delta;
      t.used += charge;
    }
    if (s.channelId > 0) channels.set(s.channelId, (channels.get(s.channelId) ?? 0) + charge);
    if (s.log) logs.push(withSource(taken ? afterRecovery(s.log, charge, landed) : s.log, payer));
  }
  for (const r of reserves) {
    const sub = r.hold.payer.subscription;
    if (sub) subs.reserve(sub, r);
    else account(users, r.hold.payer.userId).reserves.push(r);
  }

  // 3. Users, subscriptions, then tokens (reservations refused by the token give the payer's part back).
  const userOk = new Set<ReserveOp>();
  for (const [id, a] of ascending(users)) {
    const ok = await applyAccount(trx, kind, st, USERS, id, a, now, out.balances.users);
    for (const r of a.reserves) {
      if (ok.has(r)) userOk.add(r);
      else out.reserves.set(r, { ok: false, reason: 'user_quota' });
    }
  }
  if (subs.size > 0) {
    const ok = await subs.apply(trx, st, now);
    for (const r of reserves) {
      if (!r.hold.payer.subscription) continue;
      if (ok.has(r)) userOk.add(r);
      else out.reserves.set(r, { ok: false, reason: 'subscription_quota' });
    }
  }
  for (const r of userOk) {
    const { payer } = r.hold;
    if (payer.tokenId > 0 && !payer.unlimitedToken) account(tokens, payer.tokenId).reserves.push(r);
    else out.reserves.set(r, { ok: true });
  }
  for (const [id, a] of ascending(tokens)) {
    const ok = await applyAccount(trx, kind, st, TOKENS, id, a, now, out.balances.tokens);
    for (const r of a.reserves) {
      if (ok.has(r)) {
        out.reserves.set(r, { ok: true });
        continue;
      }
      out.reserves.set(r, { ok: false, reason: 'token_quota' });
      const amount = r.row.amount ?? 0;
      const sub = r.hold.payer.subscription;
      if (sub) {
        await returnReservation(trx, sub, amount);
        continue;
      }
      await st.run(
        trx,
        'users.credit',
        (p) =>
          trx
            .updateTable('users')
            .set({ quota: sql`quota + ${p('amount')}` })
            .where('id', '=', p('id')),
        {
          amount,
          id: r.hold.payer.userId,
        },
      );
      out.balances.users.delete(r.hold.payer.userId);
    }
  }
  for (const [id, used] of ascending(channels)) {
    await st.run(
      trx,
      'channels.used',
      (p) =>
        trx
          .updateTable('channels')
          .set({ used_quota: sql`used_quota + ${p('used')}` })
          .where('id', '=', p('id')),
      { used, id },
    );
  }

  // 4. New rows, checkpoints, log rows.
  const inserts = reserves.filter((r) => out.reserves.get(r)?.ok).map((r) => r.row as Record<string, unknown>);
  for (const c of live) {
    if (!c.insert) continue;
    inserts.push({ ...c.insert, delivered: c.delivered, prompt_tokens: c.promptTokens, completion_tokens: c.completionTokens });
    out.landed.add(c);
  }
  await insertReservations(trx, st, inserts);
  for (const c of live) {
    if (c.insert) continue;
    const values = {
      delivered: c.delivered,
      prompt: c.promptTokens,
      completion: c.completionTokens,
      channel: c.channelId,
      now,
      id: c.hold.id,
    };
    const result = await st.run(
      trx,
      'reservations.checkpoint',
      (p) =>
        trx
          .updateTable('reservations')
          .set({
            delivered: p('delivered'),
            prompt_tokens: p('prompt'),
            completion_tokens: p('completion'),
            channel_id: p('channel'),
            updated_at: p('now'),
          })
          .where('id', '=', p('id')),
      values,
    );
    (Number(result.numAffectedRows ?? 0) === 1 ? out.landed : out.lost).add(c);
  }
  await insertLogRows(trx, kind, st, logs);

  if (kind === 'mysql') await readBalances(trx, out.balances, [...users.keys()], [...tokens.keys()]);
  return out;
}

async function insertReservations(trx: Trx, st: PreparedStatements, rows: ReadonlyArray<Record<string, unknown>>): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await st.insertRows(trx, 'reservations', RESERVATION_COLUMNS, rows.slice(i, i + INSERT_CHUNK));
  }
}

/** A list of ids as statement placeholders (`0`, `1`, …) and the value of each. */
const idList = (ids: string[]) => ({
  value: (name: string) => ids[Number(name)],
  marks: (p: (n: string) => never) => ids.map((_, j) => p(String(j))),
});

/** Deletes the reservation rows of `ids` (those still there). */
function deleteAll(trx: Trx, st: PreparedStatements, ids: string[]) {
  const { value, marks } = idList(ids);
  return st.run(
    trx,
    `reservations.delete:${ids.length}`,
    (p) => trx.deleteFrom('reservations').where('id', 'in', marks(p)),
    value,
  );
}

/** Deletes the rows with these ids; returns the ids that were there. */
async function deleteReservations(trx: Trx, kind: DbKind, st: PreparedStatements, ids: string[]): Promise<Set<string>> {
  const present = new Set<string>();
  for (let i = 0; i < ids.length; i += INSERT_CHUNK) {
    const chunk = ids.slice(i, i + INSERT_CHUNK);
    const { value, marks } = idList(chunk);
    if (kind === 'mysql') {
      const found = await st.run<{ id: string }>(
        trx,
        `reservations.lock:${chunk.length}`,
        (p) => trx.selectFrom('reservations').select('id').where('id', 'in', marks(p)).forUpdate(),
        value,
      );
      if (found.rows.length > 0) await deleteAll(trx, st, chunk);
      for (const r of found.rows) present.add(r.id);
      continue;
    }
    if (kind === 'sqlite') {
      await deleteOnSqlite(trx, st, chunk, present);
      continue;
    }
    const deleted = await st.run<{ id: string }>(
      trx,
      `reservations.delete-returning:${chunk.length}`,
      (p) => trx.deleteFrom('reservations').where('id', 'in', marks(p)).returning('id'),
      value,
    );
    for (const r of deleted.rows) present.add(r.id);
  }
  return present;
}

/**
 * SQLite's RETURNING reads every deleted row whole (a reservation's record too), which cost more
 * than the rest of a batch's deletes: the rows are deleted together, and only when some were already
 * gone (a recovery took them: rare) is that undone and redone row by row to learn which.
 */
async function deleteOnSqlite(trx: Trx, st: PreparedStatements, ids: string[], present: Set<string>): Promise<void> {
  await sql`savepoint settled_rows`.execute(trx);
  const all = await deleteAll(trx, st, ids);
  if (Number(all.numAffectedRows ?? 0) === ids.length) {
    await sql`release settled_rows`.execute(trx);
    for (const id of ids) present.add(id);
    return;
  }
  await sql`rollback to settled_rows`.execute(trx);
  await sql`release settled_rows`.execute(trx);
  for (const id of ids) {
    const one = await st.run(trx, 'reservations.delete-one', (p) => trx.deleteFrom('reservations').where('id', '=', p('id')), {
      id,
    });
    if (Number(one.numAffectedRows ?? 0) === 1) present.add(id);
  }
}

/** How one balance table is written: its balance column and the counters a settlement bumps. */
interface BalanceTable {
  name: 'users' | 'tokens';
  balance: 'quota' | 'remain_quota';
  /** The counters' SET clause, from placeholders `used`, `requests` and `now`. */
  counters: (p: (n: string) => never) => Record<string, unknown>;
}

const USERS: BalanceTable = {
  name: 'users',
  balance: 'quota',
  counters: (p) => ({
    used_quota: sql`used_quota + ${p('used')}`,
    request_count: sql`request_count + ${p('requests')}`,
    last_use_time: p('now'),
  }),
};
const TOKENS: BalanceTable = {
  name: 'tokens',
  balance: 'remain_quota',
  counters: (p) => ({ used_quota: sql`used_quota + ${p('used')}`, accessed_time: p('now') }),
};

/**
 * One user's or token's part of the batch: the settlements' change, counters, and the reservations,
 * in one conditional statement when the balance covers them all. Returns the reservations taken.
 */
async function applyAccount(
  trx: Trx,
  kind: DbKind,
  st: PreparedStatements,
  table: BalanceTable,
  id: number,
  a: Account,
  now: number,
  balances: Map<number, number>,
): Promise<Set<ReserveOp>> {
  const column = sql.ref(table.balance);
  const returning = kind !== 'mysql';
  const note = (rows: Array<{ balance: number }>): boolean => {
    if (rows[0]) balances.set(id, Number(rows[0].balance));
    return rows.length > 0;
  };
  const settle = async (): Promise<void> => {
    const result = await st.run<{ balance: number }>(
      trx,
      `${table.name}.settle`,
      (p) => {
        const q = trx
          .updateTable(table.name)
          .set({ [table.balance]: sql`${column} + ${p('delta')}`, ...table.counters(p) } as never)
          .where('id', '=', p('id'));
        return returning ? q.returning(column.as('balance') as never) : q;
      },
      { delta: a.delta, used: a.used, requests: a.requests, now, id },
    );
    note(result.rows);
  };
  const held = a.reserves.reduce((s, r) => s + (r.row.amount ?? 0), 0);
  if (held === 0) {
    await settle();
    return new Set();
  }
  const all = await st.run<{ balance: number }>(
    trx,
    `${table.name}.settle-reserve`,
    (p) => {
      const q = trx
        .updateTable(table.name)
        .set({ [table.balance]: sql`${column} + ${p('change')}`, ...table.counters(p) } as never)
        .where('id', '=', p('id'))
        .where(sql`${column} + ${p('delta')}`, '>=', p('held'));
      return returning ? q.returning(column.as('balance') as never) : q;
    },
    { change: a.delta - held, used: a.used, requests: a.requests, now, id, delta: a.delta, held },
  );
  if (returning ? note(all.rows) : Number(all.numAffectedRows ?? 0) === 1) return new Set(a.reserves);
  // Not enough for all of them: the settlements first, then each reservation while the balance lasts.
  if (a.delta !== 0 || a.used !== 0 || a.requests !== 0) await settle();
  const taken = new Set<ReserveOp>();
  for (const r of a.reserves) {
    const amount = r.row.amount ?? 0;
    const one = await st.run<{ balance: number }>(
      trx,
      `${table.name}.reserve`,
      (p) => {
        const q = trx
          .updateTable(table.name)
          .set({ [table.balance]: sql`${column} - ${p('amount')}` } as never)
          .where('id', '=', p('id'))
          .where(column, '>=', p('amount'));
        return returning ? q.returning(column.as('balance') as never) : q;
      },
      { amount, id },
    );
    if (returning ? note(one.rows) : Number(one.numAffectedRows ?? 0) === 1) taken.add(r);
  }
  return taken;
}

async function readBalances(trx: Trx, balances: Balances, users: number[], tokens: number[]): Promise<void> {
  if (users.length > 0) {
    for (const u of await trx.selectFrom('users').select(['id', 'quota']).where('id', 'in', users).execute()) {
      balances.users.set(u.id, Number(u.quota));
    }
  }
  if (tokens.length > 0) {
    for (const t of await trx.selectFrom('tokens').select(['id', 'remain_quota']).where('id', 'in', tokens).execute()) {
      balances.tokens.set(t.id, Number(t.remain_quota));
    }
  }
}

/**
 * The log row of a settlement whose reservation a recovery resolved first (charging `landed`): it
 * records the rest; a recovery that charged more than the call cost is given back as a refund row.
 */
function afterRecovery(log: LogRow, charge: number, landed: number): LogRow {
  let other: Record<string, unknown> = {};
  try {
    other = JSON.parse(log.other ?? '{}') as Record<string, unknown>;
  } catch {
    other = {};
  }
  other.after_recovery = { recovered_quota: landed };
  return charge >= 0
    ? { ...log, quota: charge, other: JSON.stringify(other) }
    : { ...log, type: LOG_REFUND, quota: -charge, other: JSON.stringify(other) };
}
