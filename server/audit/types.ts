/**
 * What a route declares to be audited: `config: { audit: { subject, action, target | created } }`.
 * The hooks in hooks.ts do the rest for every route that declares one; a mutating admin route
 * without a declaration fails tests/server/audit-coverage.test.ts.
 */
import type { FastifyRequest } from 'fastify';
import type { GatewayContext } from '../context.js';

/** What an admin changes; each has its loader in subjects.ts. */
export const AUDIT_SUBJECTS = [
  'user',
  'channel',
  'option',
  'redemption',
  'log',
  'vendor',
  'model',
  'prefill_group',
  'oauth_provider',
  'subscription_plan',
  'user_subscription',
] as const;
export type AuditSubject = (typeof AUDIT_SUBJECTS)[number];

/** A subject's id: a row id, or an option's key. */
export type AuditId = number | string;

export interface AuditSpec {
  subject: AuditSubject;
  /** `create`, `update`, `delete` … or read from the request (a user's manage action). */
  action: string | ((request: FastifyRequest) => string);
  /** The subjects the request changes, known before it runs (an edit, a delete, a tag's channels). */
  target?: (request: FastifyRequest, ctx: GatewayContext) => AuditId[] | Promise<AuditId[]>;
  /** The subjects it made, from its answer's `data` (a create). */
  created?: (data: unknown, ctx: GatewayContext) => AuditId[] | Promise<AuditId[]>;
  /** Facts no subject's state shows (a count, a cleanup's cut-off). Never secrets. */
  detail?: (request: FastifyRequest, data: unknown) => Record<string, string | number | boolean>;
}

/** A mutating admin route that changes nothing worth auditing (it only reads or fetches), and why. */
export interface AuditExemption {
  exempt: string;
}

export type AuditConfig = AuditSpec | AuditExemption;

export const isAuditSpec = (config: AuditConfig | undefined): config is AuditSpec => config !== undefined && 'subject' in config;

declare module 'fastify' {
  interface FastifyContextConfig {
    audit?: AuditConfig;
  }
  interface FastifyRequest {
    /** Subjects a handler made that its answer does not name (a batch create answers the first). */
    auditCreated?: AuditId[];
  }
}

/** Tells the audit which subjects this request made, when its answer does not say. */
export function noteCreated(request: FastifyRequest, ids: AuditId[]): void {
  request.auditCreated = ids;
}
