/**
 * What a key may read about itself with nothing but the key, as balance-checker pages and clients
 * ask the family: `GET /api/usage/token/` (its balance) and `GET /api/log/token` (its latest log
 * rows, as their owner sees them). Open to any origin, since those pages run elsewhere; limited
 * like the login routes per address. A disabled key or a banned owner reads nothing; an expired or
 * exhausted key still reads its own balance and history.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayContext } from '../context.js';
import { refuse } from '../http/errors.js';
import { criticalLimit } from '../ratelimit/hooks.js';
import { USER_ENABLED } from '../auth/roles.js';
import { listLogs } from '../logs/list-repository.js';
import { toLogItem } from '../logs/view.js';
import type { CachedToken } from './check.js';
import { findTokenUsedQuota } from './repository.js';
import { storedKey } from './keys.js';
import { NEVER_EXPIRES, TOKEN_DISABLED } from './status.js';

/** The family's cap on the rows of /api/log/token. */
const RECENT_ROWS = 100;

declare module 'fastify' {
  interface FastifyRequest {
    /** The token of `Authorization: Bearer sk-…` on the key's own routes. */
    keyToken?: CachedToken;
  }
}

function openCors(reply: FastifyReply): void {
  reply.header('access-control-allow-origin', '*');
  reply.header('access-control-allow-methods', 'GET, OPTIONS');
  reply.header('access-control-allow-headers', 'Authorization, Content-Type');
  reply.header('access-control-max-age', '86400');
}

/** The token of the Authorization header, read-only: expired and exhausted keys still pass. */
async function keyToken(ctx: GatewayContext, request: FastifyRequest): Promise<CachedToken> {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || header.trim() === '') throw refuse(401, 'missing_api_key');
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  if (!match) throw refuse(401, 'invalid_api_key');
  // `sk-KEY-<channel>` (an admin's pinned channel) names the same token.
  const key = storedKey(match[1]!).split('-')[0] ?? '';
  const token = key ? await ctx.tokens.get(key) : null;
  if (!token) throw refuse(401, 'invalid_api_key');
  if (token.status === TOKEN_DISABLED) throw refuse(401, 'token_unavailable');
  const user = await ctx.users.get(token.user_id);
  if (!user || user.deleted || user.status !== USER_ENABLED) throw refuse(403, 'user_banned');
  return token;
}

export default async function keyRoutes(app: FastifyInstance): Promise<void> {
  const ctx = app.ctx;
  const authenticate = async (request: FastifyRequest, reply: FastifyReply) => {
    openCors(reply);
    await criticalLimit(request);
    request.keyToken = await keyToken(ctx, request);
  };
  const tokenOf = (request: FastifyRequest): CachedToken => {
    if (!request.keyToken) throw new Error('key route without its authentication');
    return request.keyToken;
  };

  const usage = async (request: FastifyRequest) => {
    const token = tokenOf(request);
    const used = (await findTokenUsedQuota(ctx.db, token.id)) ?? 0;
    return {
      code: true,
      message: 'ok',
      data: {
        object: 'token_usage',
        name: token.name,
        total_granted: token.remain_quota + used,
        total_used: used,
        total_available: token.remain_quota,
        unlimited_quota: token.unlimited_quota,
        model_limits: Object.fromEntries([...token.model_limits].map((m) => [m, true])),
        model_limits_enabled: token.model_limits_enabled,
        expires_at: token.expired_time === NEVER_EXPIRES ? 0 : token.expired_time,
      },
    };
  };

  const logs = async (request: FastifyRequest) => {
    const token = tokenOf(request);
    const slice = await listLogs(ctx.logDb, ctx.logDbKind, { userId: token.user_id, tokenId: token.id }, RECENT_ROWS, 0, 0);
    // As their owner sees them, numbered from 1 like the family's: the rows' own ids stay inside.
    const data = slice.rows.map((row, i) => ({ ...toLogItem(row, false, () => undefined), id: i + 1 }));
    return { success: true, message: '', data };
  };

  const routes: Array<[string[], (request: FastifyRequest) => Promise<unknown>]> = [
    [['/api/usage/token/', '/api/usage/token'], usage],
    [['/api/log/token', '/api/log/token/'], logs],
  ];
  for (const [urls, handler] of routes) {
    for (const url of urls) {
      app.get(url, { onRequest: authenticate }, handler);
      app.options(url, async (_request, reply) => {
        openCors(reply);
        return reply.code(204).send();
      });
    }
  }
}
