import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiLimit } from './limiter.js';
import { clientIp } from '../http/client-ip.js';

function limitHandler(name: ApiLimit) {
  return async function (request: FastifyRequest, reply: FastifyReply) {
    const { max, windowSeconds } = request.server.ctx.config.rateLimits[name];
    if (!(await request.server.ctx.limiter.hit(`${name}:${clientIp(request)}`, max, windowSeconds))) {
      return reply.status(429).send({ success: false, message: '请求过于频繁，请稍后再试' });
    }
  };
}

/** Login, register, password reset, verification and OAuth: 20 per 20 minutes per address. */
export const criticalLimit = limitHandler('critical');
/** Search endpoints: 10 per minute per address. */
export const searchLimit = limitHandler('search');
