/** GET /v1/realtime websocket relay — placeholder registered ahead of its implementation. */
import type { FastifyInstance } from 'fastify';

export default async function routes(_app: FastifyInstance): Promise<void> {}
