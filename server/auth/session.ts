import type { FastifyReply, FastifyRequest } from 'fastify';

/** The console session: a signed, HttpOnly, SameSite=Strict cookie naming the user. */
export const SESSION_COOKIE = 'session';
const MAX_AGE_SECONDS = 30 * 24 * 3600;

export function startSession(request: FastifyRequest, reply: FastifyReply, userId: number): void {
  const issued = Math.floor(Date.now() / 1000);
  reply.setCookie(SESSION_COOKIE, `${userId}.${issued}`, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    signed: true,
    maxAge: MAX_AGE_SECONDS,
    // Over HTTPS (directly, or behind a trusted proxy that says so) the cookie never travels in clear.
    secure: request.protocol === 'https',
  });
}

export function endSession(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

/** The user id of a valid, unexpired session cookie, or null. */
export function sessionUserId(request: FastifyRequest): number | null {
  const raw = request.cookies[SESSION_COOKIE];
  if (!raw) return null;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || unsigned.value === null) return null;
  const [id, issued] = unsigned.value.split('.').map(Number);
  if (!id || !issued) return null;
  if (issued + MAX_AGE_SECONDS < Date.now() / 1000) return null;
  return id;
}
