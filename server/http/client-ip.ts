import type { FastifyRequest } from 'fastify';

/** The caller's address (Fastify honours X-Forwarded-For only when TRUST_PROXY is set). */
export function clientIp(request: FastifyRequest): string {
  return request.ip || 'unknown';
}
