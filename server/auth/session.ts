import { randomInt } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The console session: a signed, HttpOnly, SameSite=Strict cookie `id.issued.epoch.nonce` naming
 * the user and the session epoch the user had at login; the random nonce tells apart two sessions
 * begun in the same second (state kept per session, such as a fresh verification, is keyed by the
 * cookie). A session is valid while the user's row still holds that epoch: raising it
 * (users/repository.ts `endSessions`) ends every session of the user.
 */
export const SESSION_COOKIE = 'session';
const MAX_AGE_SECONDS = 30 * 24 * 3600;

export interface SessionClaim {
  userId: number;
  epoch: number;
}

/** Starts a session for `user`; returns the cookie's signed value (what later requests carry). */
export function startSession(request: FastifyRequest, reply: FastifyReply, user: { id: number; session_epoch: number }): string {
  const issued = Math.floor(Date.now() / 1000);
  const nonce = randomInt(1, 2 ** 47);
  const value = `${user.id}.${issued}.${user.session_epoch}.${nonce}`;
  reply.setCookie(SESSION_COOKIE, value, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    signed: true,
    maxAge: MAX_AGE_SECONDS,
    // Over HTTPS (directly, or behind a trusted proxy that says so) the cookie never travels in clear.
    secure: request.protocol === 'https',
  });
  return reply.signCookie(value);
}

export function endSession(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

/**
 * What a signed, unexpired session cookie claims, or null. The claim still has to be checked
 * against the user's current epoch (auth/guard.ts). Cookies issued before epochs existed carry
 * none and count as epoch 0; those issued before nonces carry none either.
 */
export function sessionClaim(request: FastifyRequest): SessionClaim | null {
  const raw = request.cookies[SESSION_COOKIE];
  if (!raw) return null;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || unsigned.value === null) return null;
  const parts = unsigned.value.split('.');
  if (parts.length < 2 || parts.length > 4 || !parts.every((p) => /^\d{1,15}$/.test(p))) return null;
  const [id, issued, epoch = 0] = parts.map(Number) as [number, number, number?];
  if (!id || !issued) return null;
  if (issued + MAX_AGE_SECONDS < Date.now() / 1000) return null;
  return { userId: id, epoch };
}
