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
import { LOG_REFUND } from '../logs/types.js';
import type { Balances, CheckpointOp, JournalOp, LogRow, ReserveOp, ReserveOutcome, SettleOp } from './journal-ops.js';

type Trx = Transaction<Database>;

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

export async function commitBatch(trx: Trx, kind: DbKind, ops: readonly JournalOp[], now: number): Promise<BatchOutcome> {
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
  const present = await deleteReservations(trx, kind, stored);
  for (const s of settles) {
    if (s.hold.state === 'taken' || (s.hold.state === 'stored' && !present.has(s.hold.id))) out.taken.add(s);
  }

  // 2. What each settlement moves, by user and token.
  const users = new Map<number, Account>();
  const tokens = new Map<number, Account>();
  const channels = new Map<number, number>();
  for (const s of settles) {
    const { payer, reserved, landed } = s.hold;
    const taken = out.taken.has(s);
    // A taken row was resolved by charging `landed` and returning the reservation: the rest is charged now.
    const charge = taken ? s.actual - landed : s.actual;
    const delta = taken ? -charge : reserved - s.actual;
    const requests = s.counts && !(taken && landed > 0) ? 1 : 0;
    const u = account(users, payer.userId);
    u.delta += delta;
    u.used += charge;
    u.requests += requests;
    if (payer.tokenId > 0) {
      const t = account(tokens, payer.tokenId);
      if (!payer.unlimitedToken) t.delta += delta;
      t.used += charge;
    }
    if (s.channelId > 0) channels.set(s.channelId, (channels.get(s.channelId) ?? 0) + charge);
    if (s.log) logs.push(taken ? afterRecovery(s.log, charge, landed) : s.log);
  }
  for (const r of reserves) account(users, r.hold.payer.userId).reserves.push(r);

  // 3. Users, then tokens (reservations refused by the token give the user's part back).
  const userOk = new Set<ReserveOp>();
  for (const [id, a] of ascending(users)) {
    const ok = await applyAccount(trx, kind, 'users', id, a, now, out.balances.users);
    for (const r of a.reserves) {
      if (ok.has(r)) userOk.add(r);
      else out.reserves.set(r, { ok: false, reason: 'user_quota' });
    }
  }
  for (const r of userOk) {
    const { payer } = r.hold;
    if (payer.tokenId > 0 && !payer.unlimitedToken) account(tokens, payer.tokenId).reserves.push(r);
    else out.reserves.set(r, { ok: true });
  }
  for (const [id, a] of ascending(tokens)) {
    const ok = await applyAccount(trx, kind, 'tokens', id, a, now, out.balances.tokens);
    for (const r of a.reserves) {
      if (ok.has(r)) {
        out.reserves.set(r, { ok: true });
        continue;
      }
      out.reserves.set(r, { ok: false, reason: 'token_quota' });
      await trx
        .updateTable('users')
        .set({ quota: sql`quota + ${r.row.amount ?? 0}` })
        .where('id', '=', r.hold.payer.userId)
        .execute();
      out.balances.users.delete(r.hold.payer.userId);
    }
  }
  for (const [id, used] of ascending(channels)) {
    await trx
      .updateTable('channels')
      .set({ used_quota: sql`used_quota + ${used}` })
      .where('id', '=', id)
      .execute();
  }

  // 4. New rows, checkpoints, log rows.
  const inserts = reserves.filter((r) => out.reserves.get(r)?.ok).map((r) => r.row);
  for (const c of live) {
    if (!c.insert) continue;
    inserts.push({ ...c.insert, delivered: c.delivered, prompt_tokens: c.promptTokens, completion_tokens: c.completionTokens });
    out.landed.add(c);
  }
  if (inserts.length > 0) await trx.insertInto('reservations').values(inserts).execute();
  for (const c of live) {
    if (c.insert) continue;
    const result = await trx
      .updateTable('reservations')
      .set({
        delivered: c.delivered,
        prompt_tokens: c.promptTokens,
        completion_tokens: c.completionTokens,
        channel_id: c.channelId,
        updated_at: now,
      })
      .where('id', '=', c.hold.id)
      .executeTakeFirst();
    (Number(result.numUpdatedRows) === 1 ? out.landed : out.lost).add(c);
  }
  for (let i = 0; i < logs.length; i += 200)
    await trx
      .insertInto('logs')
      .values(logs.slice(i, i + 200))
      .execute();

  if (kind === 'mysql') await readBalances(trx, out.balances, [...users.keys()], [...tokens.keys()]);
  return out;
}

/** Deletes the rows with these ids; returns the ids that were there. */
async function deleteReservations(trx: Trx, kind: DbKind, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  if (kind === 'mysql') {
    const rows = await trx.selectFrom('reservations').select('id').where('id', 'in', ids).forUpdate().execute();
    if (rows.length > 0) await trx.deleteFrom('reservations').where('id', 'in', ids).execute();
    return new Set(rows.map((r) => r.id));
  }
  const rows = await trx.deleteFrom('reservations').where('id', 'in', ids).returning('id').execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * One user's or token's part of the batch: the settlements' change, counters, and the reservations,
 * in one conditional statement when the balance covers them all. Returns the reservations taken.
 */
async function applyAccount(
  trx: Trx,
  kind: DbKind,
  table: 'users' | 'tokens',
  id: number,
  a: Account,
  now: number,
  balances: Map<number, number>,
): Promise<Set<ReserveOp>> {
  const column = table === 'users' ? 'quota' : 'remain_quota';
  const counters =
    table === 'users'
      ? {
          used_quota: sql<number>`used_quota + ${a.used}`,
          request_count: sql<number>`request_count + ${a.requests}`,
          last_use_time: now,
        }
      : { used_quota: sql<number>`used_quota + ${a.used}`, accessed_time: now };
  const held = a.reserves.reduce((s, r) => s + (r.row.amount ?? 0), 0);
  const run = async (change: number, condition: number | null): Promise<boolean> => {
    let q = trx
      .updateTable(table)
      .set({ [column]: sql<number>`${sql.ref(column)} + ${change}`, ...counters } as never)
      .where('id', '=', id);
    if (condition !== null) q = q.where(sql<number>`${sql.ref(column)} + ${a.delta}`, '>=', condition);
    if (kind === 'mysql') return Number((await q.executeTakeFirst()).numUpdatedRows) === 1;
    const row = (await q.returning(sql<number>`${sql.ref(column)}`.as('balance')).executeTakeFirst()) as
      { balance: number } | undefined;
    if (row) balances.set(id, Number(row.balance));
    return row !== undefined;
  };
  if (held === 0) {
    await run(a.delta, null);
    return new Set();
  }
  if (await run(a.delta - held, held)) return new Set(a.reserves);
  // Not enough for all of them: the settlements first, then each reservation while the balance lasts.
  if (a.delta !== 0 || a.used !== 0 || a.requests !== 0) await run(a.delta, null);
  const taken = new Set<ReserveOp>();
  for (const r of a.reserves) {
    const amount = r.row.amount ?? 0;
    let q = trx
      .updateTable(table)
      .set({ [column]: sql<number>`${sql.ref(column)} - ${amount}` } as never)
      .where('id', '=', id)
      .where(sql.ref(column), '>=', amount);
    if (kind === 'mysql') {
      if (Number((await q.executeTakeFirst()).numUpdatedRows) === 1) taken.add(r);
      continue;
    }
    const row = (await q.returning(sql<number>`${sql.ref(column)}`.as('balance')).executeTakeFirst()) as
      { balance: number } | undefined;
    if (row) {
      balances.set(id, Number(row.balance));
      taken.add(r);
    }
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
