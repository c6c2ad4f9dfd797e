/** Wallet and online top-up (/api/user/amount, /api/user/pay, payment callback) — placeholder registered ahead of its implementation. */
import type { FastifyInstance } from 'fastify';

export default async function routes(_app: FastifyInstance): Promise<void> {}
