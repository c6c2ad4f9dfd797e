/** Task logs for the console (/api/mj/*, /api/task/*) — placeholder registered ahead of its implementation. */
import type { FastifyInstance } from 'fastify';

export default async function routes(_app: FastifyInstance): Promise<void> {}
