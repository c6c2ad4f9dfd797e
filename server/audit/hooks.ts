/**
 * The audit of admin changes, attached only to the routes that declare `config.audit` (the relay's
 * routes get no hook at all):
 *
 * - preHandler, after the guard and the body's validation, before the handler: reads the targets'
 *   state and writes a `pending` row. A database that cannot take that row refuses the request
 *   before anything changes, so no admin change happens without a row.
 * - preSerialization, once the handler has answered (a refusal included) and before the answer is
 *   sent: reads the state again and completes the row — one row per subject, each with the fields
 *   that changed. A refusal that changed nothing removes the row. Should completing fail, the row
 *   stays `pending` with the state before, the failure is logged and counted, and the admin still
 *   gets the answer of the change that did happen.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { nowSeconds } from '../db/index.js';
import { clientIp } from '../http/client-ip.js';
import type { Envelope } from '../http/envelope.js';
import { fieldChanges, type FieldChange, type Snapshot } from './changes.js';
import { completeAudit, deleteAudit, insertPendingAudit, type AuditEntry, type NewAuditRow } from './repository.js';
import { SUBJECTS, type SubjectLoader } from './subjects.js';
import { isAuditSpec, type AuditId, type AuditSpec } from './types.js';

interface AuditState {
  spec: AuditSpec;
  rowId: number;
  base: NewAuditRow;
  targets: string[];
  before: Map<string, Snapshot>;
}

declare module 'fastify' {
  interface FastifyRequest {
    auditState?: AuditState;
  }
}

/** What a row's `changes` column holds (and GET /api/audit/ answers). */
export interface StoredChanges {
  fields: FieldChange[];
  detail: Record<string, string | number | boolean>;
}

/** A request changes a handful of subjects; a bulk one (a tag of hundreds) is listed up to this many. */
const TARGETS_IN_DETAIL = 100;

const unique = (ids: readonly AuditId[]): string[] => [...new Set(ids.map(String))];

async function load(spec: AuditSpec, request: FastifyRequest, ids: readonly string[]): Promise<Map<string, Snapshot>> {
  const loader: SubjectLoader = SUBJECTS[spec.subject];
  if (ids.length === 0 || !loader.load) return new Map();
  return loader.load(request.server.ctx, ids);
}

function begin(spec: AuditSpec): preHandlerAsyncHookHandler {
  return async function auditBegin(request) {
    const actor = request.user;
    // Audited routes are guarded (tests/server/audit-coverage.test.ts): no user here is a wiring mistake.
    if (!actor) throw new Error(`audited route ${request.routeOptions.url ?? ''} ran without a signed-in user`);
    const { ctx } = request.server;
    const targets = unique(spec.target ? await spec.target(request, ctx) : []);
    const before = await load(spec, request, targets);
    const first = targets[0];
    const pending: StoredChanges = {
      fields: first === undefined ? [] : fieldChanges(before.get(first), undefined),
      detail: targets.length > 1 ? { targets: targets.slice(0, TARGETS_IN_DETAIL).join(',') } : {},
    };
    const base: NewAuditRow = {
      created_at: nowSeconds(),
      request_id: request.id,
      actor_id: actor.id,
      actor_username: actor.username,
      actor_role: actor.role,
      ip: clientIp(request),
      route: `${request.method} ${request.routeOptions.url ?? request.url}`,
      subject: spec.subject,
      subject_id: targets.length === 1 ? (first ?? '') : '',
      action: typeof spec.action === 'function' ? spec.action(request) : spec.action,
      outcome: 'pending',
      changes: JSON.stringify(pending),
    };
    const rowId = await insertPendingAudit(ctx.db, ctx.dbKind, base);
    request.auditState = { spec, rowId, base, targets, before };
  };
}

async function complete(request: FastifyRequest, reply: FastifyReply, state: AuditState, payload: unknown): Promise<void> {
  const { spec, before } = state;
  const { ctx } = request.server;
  const answer = payload as Partial<Envelope<unknown>> | null;
  const succeeded = answer?.success === true;
  const outcome = succeeded ? 'ok' : reply.statusCode >= 500 ? 'error' : 'refused';
  const created = succeeded ? (request.auditCreated ?? (spec.created ? await spec.created(answer?.data, ctx) : [])) : [];
  const ids = unique([...state.targets, ...created]);
  const after = await load(spec, request, ids);
  const detail = succeeded && spec.detail ? spec.detail(request, answer?.data) : {};
  let entries = ids.map((id) => ({ id, fields: fieldChanges(before.get(id), after.get(id)) }));
  if (outcome === 'refused') {
    // A refusal is recorded only for what it changed all the same.
    entries = entries.filter((entry) => entry.fields.length > 0);
    if (entries.length === 0) return deleteAudit(ctx.db, state.rowId);
  }
  const rows: AuditEntry[] = (entries.length > 0 ? entries : [{ id: '', fields: [] }]).map(({ id, fields }) => ({
    subject_id: id,
    changes: JSON.stringify({ fields, detail } satisfies StoredChanges),
  }));
  await completeAudit(ctx.db, state.rowId, state.base, outcome, rows);
}

async function auditFinish(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  const state = request.auditState;
  if (!state) return payload;
  // Once: an error thrown below comes back through the error handler and this hook again.
  request.auditState = undefined;
  try {
    await complete(request, reply, state, payload);
  } catch (err) {
    request.server.ctx.metrics.storeErrors.inc({ store: 'db' });
    request.log.error({ err, audit_row: state.rowId }, 'audit row left pending: completing it failed');
  }
  return payload;
}

const listOf = <T>(hooks: T | T[] | undefined): T[] => (hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]);

/** Attaches the audit to every route registered after this call that declares one. */
export function installAudit(app: FastifyInstance): void {
  app.decorateRequest('auditState', undefined);
  app.decorateRequest('auditCreated', undefined);
  app.addHook('onRoute', (route) => {
    const spec = route.config?.audit;
    if (!isAuditSpec(spec)) return;
    route.preHandler = [...listOf(route.preHandler), begin(spec)];
    route.preSerialization = [...listOf(route.preSerialization), auditFinish];
  });
}
