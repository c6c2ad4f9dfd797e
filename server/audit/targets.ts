/** Reading a route's subject ids from its validated request, for `target` in an audit declaration. */
import type { FastifyRequest } from 'fastify';
import type { AuditId } from './types.js';

function fieldOf(value: unknown, field: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[field] : undefined;
}

function asIds(value: unknown): AuditId[] {
  const list = Array.isArray(value) ? value : [value];
  return list.filter((v): v is AuditId => (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && v !== ''));
}

/** The id (or list of ids) in a body field. */
export const fromBody =
  (field = 'id') =>
  (request: FastifyRequest): AuditId[] =>
    asIds(fieldOf(request.body, field));

/** The `:id` of the path. */
export const fromParams = (request: FastifyRequest): AuditId[] => asIds(fieldOf(request.params, 'id'));

/** A field of the body or query as text (a coerced flag is `true`), '' when absent. */
export const textOf = (source: unknown, field: string): string => {
  const value = fieldOf(source, field);
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
};

/** The `id` of an answer's `data` (a created record). */
export const idOfData = (data: unknown): AuditId[] => asIds(fieldOf(data, 'id'));
