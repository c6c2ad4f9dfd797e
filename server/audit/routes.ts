/** GET /api/audit/: the admin audit log, for root only (it shows every admin's changes). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { requireRoot } from '../auth/guard.js';
import type { AuditLog } from '../db/types.js';
import { ok, pageParams } from '../http/envelope.js';
import { fail } from '../http/errors.js';
import type { StoredChanges } from './hooks.js';
import { countAudit, findAudit, listAudit, type AuditFilter } from './repository.js';
import { AuditIdParams, AuditItemAnswer, AuditPageAnswer, AuditQuery, type AuditItem, type AuditListItem } from './schemas.js';

function parsed(row: AuditLog): StoredChanges {
  try {
    const value = JSON.parse(row.changes) as Partial<StoredChanges>;
    return { fields: Array.isArray(value.fields) ? value.fields : [], detail: value.detail ?? {} };
  } catch {
    return { fields: [], detail: {} };
  }
}

function view(row: AuditLog): Omit<AuditListItem, 'fields'> {
  const { changes: _changes, ...rest } = row;
  return { ...rest, ip: row.ip, subject_id: row.subject_id, detail: parsed(row).detail };
}

/** A create or delete lists no fields: every field of the subject is in it, the detail shows them. */
const edited = (fields: StoredChanges['fields']): string[] =>
  fields.filter((f) => 'before' in f && 'after' in f).map((f) => f.field);

const listItem = (row: AuditLog): AuditListItem => ({ ...view(row), fields: edited(parsed(row).fields) });
const item = (row: AuditLog): AuditItem => ({ ...view(row), changes: parsed(row).fields });

function filterOf(query: AuditQuery): AuditFilter {
  return {
    actor: query.actor?.trim(),
    subject: query.subject?.trim(),
    subjectId: query.subject_id?.trim(),
    action: query.action?.trim(),
    outcome: query.outcome?.trim(),
    requestId: query.request_id?.trim(),
    start: query.start_timestamp,
    end: query.end_timestamp,
  };
}

export default async function auditRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.ctx;

  app.get(
    '/api/audit/',
    { onRequest: requireRoot, schema: { querystring: AuditQuery, response: { 200: AuditPageAnswer } } },
    async (request) => {
      const { page, pageSize, offset } = pageParams(request.query);
      const filter = filterOf(request.query);
      const [rows, total] = await Promise.all([listAudit(db, filter, pageSize, offset), countAudit(db, filter)]);
      return ok({ items: rows.map(listItem), total, page, page_size: pageSize });
    },
  );

  app.get(
    '/api/audit/:id',
    { onRequest: requireRoot, schema: { params: AuditIdParams, response: { 200: AuditItemAnswer } } },
    async (request) => {
      const row = await findAudit(db, request.params.id);
      if (!row) throw fail('audit.not_found');
      return ok(item(row));
    },
  );
}
