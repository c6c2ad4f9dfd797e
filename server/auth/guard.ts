import type { FastifyRequest } from 'fastify';
import type { User } from '../db/types.js';
import { fail, unauthorized } from '../http/errors.js';
import { findUserByAccessToken } from '../users/identity-repository.js';
import { findUserById } from '../users/repository.js';
import { ROLE_ADMIN, ROLE_ROOT, ROLE_USER, USER_ENABLED } from './roles.js';
import { sessionClaim } from './session.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated console user (set by the auth guards). */
    user: User | null;
  }
}

function accessTokenOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const token = header.replace(/^Bearer\s+/i, '').trim();
  // sk- keys are relay tokens, not console access tokens.
  return token && !token.startsWith('sk-') ? token : null;
}

/**
 * The user of the request's session cookie while that session is alive: the cookie's epoch is
 * still the user's (no logout, password change, ban or deregistration since it was issued). The
 * row is read on every request, so an ended session is refused by every gateway process at once.
 * A valid cookie of a banned user is returned: the guard refuses it with its own message.
 */
export async function sessionHolder(request: FastifyRequest): Promise<User | undefined> {
  const claim = sessionClaim(request);
  if (claim === null) return undefined;
  const user = await findUserById(request.server.ctx.db, claim.userId);
  if (!user || user.deleted_at !== null || user.session_epoch !== claim.epoch) return undefined;
  return user;
}

/**
 * Resolves the console user from the session cookie or the system access token. The
 * `New-Api-User` header must carry the same user id: it is the CSRF guard. An access token is an
 * API credential of its own: it outlives logouts and password changes (the user replaces it to
 * revoke it), and stops working when the user is banned or deregistered.
 */
async function authenticate(request: FastifyRequest): Promise<User> {
  const db = request.server.ctx.db;
  let user: User | undefined;
  if (sessionClaim(request) !== null) {
    user = await sessionHolder(request);
  } else {
    const token = accessTokenOf(request);
    if (!token) throw unauthorized();
    user = await findUserByAccessToken(db, token);
    if (!user) throw unauthorized('auth.invalid_access_token');
  }
  if (!user || user.deleted_at !== null) throw unauthorized('auth.session_expired');
  const headerId = request.headers['new-api-user'];
  if (typeof headerId !== 'string' || !/^\d+$/.test(headerId)) {
    throw unauthorized('auth.missing_user_header');
  }
  if (Number(headerId) !== user.id) throw unauthorized('auth.user_header_mismatch');
  if (user.status !== USER_ENABLED) throw fail('auth.user_banned');
  return user;
}

/** The role each guard asks for, so the route table can tell which routes are admin routes. */
const GUARD_ROLES = new WeakMap<object, number>();

/** A guard runs as an onRequest hook: a caller without rights is refused before the body is read. */
function guard(minRole: number): (request: FastifyRequest) => Promise<void> {
  const check = async function (request: FastifyRequest): Promise<void> {
    const user = await authenticate(request);
    if (user.role < minRole) throw fail('auth.forbidden');
    request.user = user;
  };
  GUARD_ROLES.set(check, minRole);
  return check;
}

/** The highest role the route's onRequest guards ask for; 0 for a route no guard protects. */
export function guardedRole(onRequest: unknown): number {
  const hooks: unknown[] = Array.isArray(onRequest) ? onRequest : [onRequest];
  return Math.max(0, ...hooks.map((hook) => (typeof hook === 'function' ? (GUARD_ROLES.get(hook) ?? 0) : 0)));
}

export const requireUser = guard(ROLE_USER);
export const requireAdmin = guard(ROLE_ADMIN);
export const requireRoot = guard(ROLE_ROOT);

/** The guarded user; only call inside a route protected by one of the guards. */
export function currentUser(request: FastifyRequest): User {
  if (!request.user) throw unauthorized();
  return request.user;
}
