/**
 * Resolving holds nobody will settle: those of a process that died (or of this process, when their
 * settlement failed). Each row is charged what its last checkpoint recorded as delivered and the rest
 * of its reservation is given back, with a log row saying so, in one transaction per row: whoever
 * deletes the row resolves it, so two processes recovering at once resolve each row once.
 */
import { sql, type Transaction } from 'kysely';
import type { Db } from '../db/index.js';
import type { DbKind } from '../db/dsn.js';
import type { Database, Reservation } from '../db/types.js';
import { logText } from '../logs/messages.js';
import { recordLog } from '../logs/repository.js';
import { LOG_CONSUME, LOG_ERROR } from '../logs/types.js';
import type { HoldRecord } from './holds.js';
import type { LogRow } from './journal-ops.js';
import { moveSubscription, withSource } from './subscription-batch.js';

type Trx = Transaction<Database>;

export interface Recovered {
  row: Reservation;
  /** What the row was charged (its last checkpoint's delivered cost). */
  charged: number;
  /** The fixed fields of the call's log row, as the hold recorded them. */
  record: Partial<HoldRecord>;
}

/** Resolves the rows of `node` (only those `keep` says no to, when given). */
export async function recoverNode(
  db: Db,
  kind: DbKind,
  node: string,
  keep: (id: string) => boolean = () => false,
): Promise<Recovered[]> {
  const rows = await db.selectFrom('reservations').select('id').where('node', '=', node).execute();
  const done: Recovered[] = [];
  for (const { id } of rows) {
    if (keep(id)) continue;
    const resolved = await db.transaction().execute((trx) => resolveRow(trx, kind, id));
    if (resolved) done.push(resolved);
  }
  return done;
}

/** The nodes that hold reservation rows. */
export async function holdingNodes(db: Db): Promise<string[]> {
  return (await db.selectFrom('reservations').select('node').distinct().execute()).map((r) => r.node);
}

/** Whether `node` holds any reservation row. */
export async function holdsAny(db: Db, node: string): Promise<boolean> {
  return (await db.selectFrom('reservations').select('id').where('node', '=', node).limit(1).execute()).length > 0;
}

async function takeRow(trx: Trx, kind: DbKind, id: string): Promise<Reservation | undefined> {
  if (kind !== 'mysql') return trx.deleteFrom('reservations').where('id', '=', id).returningAll().executeTakeFirst();
  const row = await trx.selectFrom('reservations').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  if (row) await trx.deleteFrom('reservations').where('id', '=', id).execute();
  return row;
}

async function resolveRow(trx: Trx, kind: DbKind, id: string): Promise<Recovered | null> {
  const row = await takeRow(trx, kind, id);
  if (!row) return null;
  const amount = Number(row.amount);
  const charged = Number(row.delivered);
  const delta = amount - charged;
  const now = Math.floor(Date.now() / 1000);
  // A subscription's hold goes back to the subscription and the period it was drawn from.
  const sub = row.subscription_id > 0 ? { id: row.subscription_id, period: Number(row.subscription_period) } : undefined;
  const walletDelta = sub ? 0 : delta;
  await trx
    .updateTable('users')
    .set({
      quota: sql`quota + ${walletDelta}`,
      used_quota: sql`used_quota + ${charged}`,
      request_count: sql`request_count + ${charged > 0 ? 1 : 0}`,
    })
    .where('id', '=', row.user_id)
    .execute();
  if (sub) await moveSubscription(trx, sub, amount, charged);
  if (row.token_id > 0) {
    await trx
      .updateTable('tokens')
      .set(
        row.unlimited_token === 1
          ? { used_quota: sql`used_quota + ${charged}` }
          : { remain_quota: sql`remain_quota + ${delta}`, used_quota: sql`used_quota + ${charged}` },
      )
      .where('id', '=', row.token_id)
      .execute();
  }
  if (row.channel_id > 0 && charged > 0) {
    await trx
      .updateTable('channels')
      .set({ used_quota: sql`used_quota + ${charged}` })
      .where('id', '=', row.channel_id)
      .execute();
  }
  const record = parseRecord(row.record);
  const payer = { userId: row.user_id, tokenId: row.token_id, unlimitedToken: row.unlimited_token === 1, subscription: sub };
  await recordLog(trx, kind, withSource(recoveryLog(row, record, charged, now), payer));
  return { row, charged, record };
}

function parseRecord(text: string | null): Partial<HoldRecord> {
  try {
    return JSON.parse(text ?? '{}') as Partial<HoldRecord>;
  } catch {
    return {};
  }
}

/** The row's log: a consume row for what was delivered, or an error row when nothing was. */
function recoveryLog(row: Reservation, record: Partial<HoldRecord>, charged: number, now: number): LogRow {
  const amount = Number(row.amount);
  const text =
    charged > 0
      ? logText(null, 'process_lost_charged', { quota: charged })
      : logText(null, 'process_lost_refunded', { reserved_quota: amount });
  const other = {
    ...record.other,
    interrupted: 'process_lost',
    reserved_quota: amount,
    local_count: true,
    message: text.message,
  };
  return {
    user_id: row.user_id,
    created_at: now,
    type: charged > 0 ? LOG_CONSUME : LOG_ERROR,
    content: text.content,
    username: record.username ?? '',
    token_name: record.token_name ?? '',
    token_id: row.token_id,
    model_name: record.model_name ?? '',
    quota: charged,
    prompt_tokens: charged > 0 ? row.prompt_tokens : 0,
    completion_tokens: charged > 0 ? row.completion_tokens : 0,
    use_time: Math.max(0, now - Number(row.created_at)),
    is_stream: record.is_stream ?? 0,
    channel_id: row.channel_id,
    group: record.group ?? '',
    ip: record.ip ?? '',
    other: JSON.stringify(other),
  };
}
