/**
 * Who is calling the relay: the token (from any of the headers clients use), its owner and the
 * group the request is billed in. Reads caches only; a token that must be marked expired or
 * exhausted is written back without waiting.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayContext } from '../../context.js';
import { checkToken, publishTokenChange, type CachedToken } from '../../tokens/cache.js';
import { markTokenStatus } from '../../tokens/repository.js';
import type { CachedUser } from '../../users/user-cache.js';
import { USER_ENABLED, ROLE_ADMIN } from '../../auth/roles.js';
import { relayErrors } from '../errors.js';

export interface Caller {
  token: CachedToken;
  user: CachedUser;
  group: string;
  /** An admin's `sk-KEY-<channelId>` pins the request to that channel. */
  pinnedChannelId: number | null;
}

function rawKey(request: FastifyRequest): string | null {
  const h = request.headers;
  const auth = h.authorization;
  if (typeof auth === 'string' && auth.trim() !== '') return auth.replace(/^Bearer\s+/i, '').trim();
  for (const name of ['x-api-key', 'x-goog-api-key', 'mj-api-secret'] as const) {
    const v = h[name];
    if (typeof v === 'string' && v.trim() !== '') return v.trim();
  }
  const q = (request.query as Record<string, unknown> | undefined)?.key;
  return typeof q === 'string' && q !== '' ? q : null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The relay's caller, set from the headers before the body is read (see `authenticateCaller`). */
    caller?: Caller;
  }
}

/** Bodies above this are cut off (the connection closed) rather than drained when the key is refused. */
const DRAIN_LIMIT = 64 * 1024;

/**
 * An onRequest hook: the key is checked from the headers before a byte of the body is read, so an
 * anonymous or refused caller costs no parsing and no memory, however large the body it announces.
 * A callback hook, not an async one: a cached caller (nearly every call) is known at once.
 */
export function authenticateCaller(ctx: GatewayContext) {
  return (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void => {
    const refused = (error: Error) => {
      const length = Number(request.headers['content-length'] ?? 0);
      if (length > DRAIN_LIMIT || request.headers['transfer-encoding']) reply.header('connection', 'close');
      done(error);
    };
    let found: Caller | Promise<Caller>;
    try {
      found = resolveCaller(ctx, request);
    } catch (error) {
      return refused(error as Error);
    }
    if (found instanceof Promise) {
      found.then((caller) => {
        request.caller = caller;
        done();
      }, refused);
      return;
    }
    request.caller = found;
    done();
  };
}

/** The caller `authenticateCaller` found; a route that reads it without the hook is a bug. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error('relay route without authenticateCaller');
  return request.caller;
}

/** The caller, at once when its token and user are cached (nearly always), else once they are read. */
export function resolveCaller(ctx: GatewayContext, request: FastifyRequest): Caller | Promise<Caller> {
  const raw = rawKey(request);
  if (!raw) throw relayErrors.noToken();
  const parts = raw.replace(/^sk-/, '').split('-');
  const key = parts[0] ?? '';
  const token = ctx.tokens.peek(key);
  if (token === undefined) return ctx.tokens.get(key).then((read) => callerWithToken(ctx, request, parts, read));
  return callerWithToken(ctx, request, parts, token);
}

function callerWithToken(
  ctx: GatewayContext,
  request: FastifyRequest,
  parts: string[],
  token: CachedToken | null,
): Caller | Promise<Caller> {
  if (!token) throw relayErrors.invalidToken();
  const check = checkToken(token, Math.floor(Date.now() / 1000), request.ip);
  if (!check.ok) {
    if (check.mark) markToken(ctx, token, check.mark);
    throw relayErrors.token(check.status, check.code);
  }
  const user = ctx.users.peek(token.user_id);
  if (user === undefined) return ctx.users.get(token.user_id).then((read) => callerFor(ctx, parts, token, read));
  return callerFor(ctx, parts, token, user);
}

function callerFor(ctx: GatewayContext, parts: string[], token: CachedToken, user: CachedUser | null): Caller {
  if (!user || user.deleted || user.status !== USER_ENABLED) throw relayErrors.userBanned();
  let group = user.group;
  if (token.group) {
    const usable = ctx.options.json<Record<string, string>>('UserUsableGroups');
    if (token.group !== user.group && !Object.hasOwn(usable, token.group)) throw relayErrors.groupDenied(token.group);
    group = token.group;
  }
  let pinnedChannelId: number | null = null;
  if (parts.length > 1 && user.role >= ROLE_ADMIN) {
    const id = Number(parts[1]);
    if (Number.isInteger(id) && id > 0) pinnedChannelId = id;
  }
  return { token, user, group, pinnedChannelId };
}

function markToken(ctx: GatewayContext, token: CachedToken, status: 3 | 4): void {
  markTokenStatus(ctx.db, token.id, status)
    .then(() => publishTokenChange(ctx.bus, token.key))
    .catch(() => undefined);
}
