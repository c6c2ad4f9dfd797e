/**
 * Checking a client's body at the edge against the shape the relay reads. Schemas are open-ended
 * (fields the relay does not read pass through untouched), compiled once, and a body that fails is
 * refused with a 400 naming the first field at fault — in the client's own error shape, rendered by
 * the route's wire format — before any quota is held or any converter runs.
 */
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { relayErrors } from '../errors.js';

export interface EdgeCheck {
  /** Returns the body when it fits; throws the relay's 400 otherwise. */
  (body: unknown): Record<string, unknown>;
}

export function edgeCheck(schema: TSchema): EdgeCheck {
  const check: TypeCheck<TSchema> = TypeCompiler.Compile(schema);
  return (body) => {
    if (check.Check(body)) return body as Record<string, unknown>;
    const first = check.Errors(body).First();
    const where = first?.path ? `${first.path.slice(1).replace(/\//g, '.')}: ` : '';
    throw relayErrors.badBody(`${where}${first?.message ?? 'invalid request body'}`);
  };
}
