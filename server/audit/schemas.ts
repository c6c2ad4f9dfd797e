/** The audit log API's shapes (GET /api/audit/), shared with the console's audit screen. */
import { Type, type Static } from '@sinclair/typebox';
import { Envelope, Int53, Page } from '../http/schemas.js';

/** One field of a change: only `after` for a created subject, only `before` for a deleted one. */
export const AuditField = Type.Object({
  field: Type.String(),
  before: Type.Optional(Type.Unknown()),
  after: Type.Optional(Type.Unknown()),
});
export type AuditField = Static<typeof AuditField>;

const AuditRowFields = {
  id: Type.Integer(),
  created_at: Type.Integer(),
  request_id: Type.String(),
  actor_id: Type.Integer(),
  actor_username: Type.String(),
  actor_role: Type.Integer(),
  ip: Type.String(),
  /** `METHOD /route` of the request. */
  route: Type.String(),
  subject: Type.String(),
  /** The subject's id (an option's key); "" for a change of no one subject (a log cleanup). */
  subject_id: Type.String(),
  action: Type.String(),
  /** `ok`, `refused` (refused, yet something changed), `error`, or `pending` (never completed). */
  outcome: Type.String(),
  /** Facts the subject's state does not show: counts, a cleanup's cut-off, the targets of a bulk change. */
  detail: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()])),
};

/** A row of the list: which fields an edit changed, without their values (none for a create or delete). */
export const AuditListItem = Type.Object({ ...AuditRowFields, fields: Type.Array(Type.String()) });
export type AuditListItem = Static<typeof AuditListItem>;

/** One row with its change: each field before and after, secrets masked. */
export const AuditItem = Type.Object({ ...AuditRowFields, changes: Type.Array(AuditField) });
export type AuditItem = Static<typeof AuditItem>;

export const AuditPage = Page(AuditListItem);
export type AuditPage = Static<typeof AuditPage>;

export const AuditQuery = Type.Object({
  p: Type.Optional(Type.Integer({ minimum: 1 })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  /** Part of the actor's username, or their user id. */
  actor: Type.Optional(Type.String({ maxLength: 64 })),
  subject: Type.Optional(Type.String({ maxLength: 32 })),
  subject_id: Type.Optional(Type.String({ maxLength: 128 })),
  action: Type.Optional(Type.String({ maxLength: 32 })),
  outcome: Type.Optional(Type.String({ maxLength: 16 })),
  request_id: Type.Optional(Type.String({ maxLength: 64 })),
  start_timestamp: Type.Optional(Int53({ minimum: 0 })),
  end_timestamp: Type.Optional(Int53({ minimum: 0 })),
});
export type AuditQuery = Static<typeof AuditQuery>;

export const AuditIdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });

export const AuditPageAnswer = Envelope(AuditPage);
export const AuditItemAnswer = Envelope(AuditItem);
