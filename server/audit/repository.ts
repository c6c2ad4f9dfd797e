/**
 * The `audit_logs` table. A row is written before the admin's change runs (`pending`), completed
 * once it has (one row per subject it touched, sharing the request id), or removed when the
 * request was refused without changing anything.
 */
import type { Expression, ExpressionBuilder, Insertable, SqlBool } from 'kysely';
import type { Db } from '../db/index.js';
import type { DbKind } from '../db/dsn.js';
import { insertWithId, likeExpr } from '../db/helpers.js';
import type { AuditLog, AuditLogsTable, Database } from '../db/types.js';

export type NewAuditRow = Insertable<AuditLogsTable>;

export async function insertPendingAudit(db: Db, kind: DbKind, row: NewAuditRow): Promise<number> {
  return insertWithId(db, kind, 'audit_logs', row);
}

/** One subject's part of a completed change. */
export interface AuditEntry {
  subject_id: string;
  changes: string;
}

/**
 * Completes the pending row `id` with the first entry and adds one row per further entry (same
 * request, actor and time), in one transaction.
 */
export async function completeAudit(
  db: Db,
  id: number,
  base: NewAuditRow,
  outcome: string,
  entries: readonly AuditEntry[],
): Promise<void> {
  const [first, ...rest] = entries;
  if (!first) return;
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('audit_logs')
      .set({ ...first, outcome })
      .where('id', '=', id)
      .execute();
    if (rest.length > 0) {
      await trx
        .insertInto('audit_logs')
        .values(rest.map((entry) => ({ ...base, ...entry, outcome })))
        .execute();
    }
  });
}

export async function deleteAudit(db: Db, id: number): Promise<void> {
  await db.deleteFrom('audit_logs').where('id', '=', id).execute();
}

/** What the screen narrows the list by; absent or empty means "any". */
export interface AuditFilter {
  /** Part of the actor's username, or their id. */
  actor?: string;
  subject?: string;
  subjectId?: string;
  action?: string;
  outcome?: string;
  requestId?: string;
  /** Inclusive bounds on created_at (Unix seconds). */
  start?: number;
  end?: number;
}

function matches(filter: AuditFilter) {
  return (eb: ExpressionBuilder<Database, 'audit_logs'>): Expression<SqlBool> => {
    const conditions: Expression<SqlBool>[] = [];
    const actor = filter.actor?.trim();
    if (actor) {
      const byName = likeExpr('actor_username', actor);
      conditions.push(/^\d{1,9}$/.test(actor) ? eb.or([eb('actor_id', '=', Number(actor)), byName]) : byName);
    }
    if (filter.subject) conditions.push(eb('subject', '=', filter.subject));
    if (filter.subjectId) conditions.push(eb('subject_id', '=', filter.subjectId));
    if (filter.action) conditions.push(eb('action', '=', filter.action));
    if (filter.outcome) conditions.push(eb('outcome', '=', filter.outcome));
    if (filter.requestId) conditions.push(eb('request_id', '=', filter.requestId));
    if (filter.start) conditions.push(eb('created_at', '>=', filter.start));
    if (filter.end) conditions.push(eb('created_at', '<=', filter.end));
    return eb.and(conditions);
  };
}

export async function listAudit(db: Db, filter: AuditFilter, limit: number, offset: number): Promise<AuditLog[]> {
  return db
    .selectFrom('audit_logs')
    .selectAll()
    .where(matches(filter))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function countAudit(db: Db, filter: AuditFilter): Promise<number> {
  const row = await db
    .selectFrom('audit_logs')
    .select((eb) => eb.fn.countAll().as('n'))
    .where(matches(filter))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findAudit(db: Db, id: number): Promise<AuditLog | undefined> {
  return db.selectFrom('audit_logs').selectAll().where('id', '=', id).executeTakeFirst();
}
