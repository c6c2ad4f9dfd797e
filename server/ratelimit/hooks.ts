import type { FastifyRequest } from 'fastify';
import type { ApiLimit } from './limiter.js';
import { clientIp } from '../http/client-ip.js';
import { refuse } from '../http/errors.js';

function limitHandler(name: ApiLimit) {
  return async function (request: FastifyRequest) {
    const { max, windowSeconds } = request.server.ctx.config.rateLimits[name];
    if (!(await request.server.ctx.limiter.hit(`${name}:${clientIp(request)}`, max, windowSeconds))) {
      throw refuse(429, 'request.rate_limited');
    }
  };
}

/** Login, register, password reset, verification and OAuth: 20 per 20 minutes per address. */
export const criticalLimit = limitHandler('critical');
/** Search endpoints: 10 per minute per address. */
export const searchLimit = limitHandler('search');
