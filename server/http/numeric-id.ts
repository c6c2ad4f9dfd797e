/**
 * Routes like GET /api/user/:id stand for numeric ids only: any other segment there (a path the
 * gateway does not serve, such as /api/user/checkin) answers 404 exactly as an unknown path does,
 * before any check of who is asking, rather than a validation error about `id`.
 */
import type { FastifyRequest } from 'fastify';
import { notFound } from './error-handler.js';
import { wireOf } from './wire.js';

export async function numericIdOnly(request: FastifyRequest): Promise<void> {
  const id = (request.params as { id?: unknown }).id;
  if (typeof id !== 'string' || !/^\d+$/.test(id)) throw notFound(request.method, request.url, wireOf(request));
}
