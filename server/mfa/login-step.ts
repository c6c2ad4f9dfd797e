/**
 * The second step of signing in. A person whose account has two-factor sign-in, having given the
 * right password (or come back from a third-party login), gets no session yet: the answer says
 * `require_2fa`, and a pending sign-in is kept for five minutes in the short-lived-value store
 * (any gateway process can finish it) under a random id held in a signed, HttpOnly, SameSite=Strict
 * cookie — so only this browser can finish it. POST /api/user/login/2fa with a TOTP or backup code
 * then starts the session. A pending sign-in dies with the user's session epoch (a password change,
 * a ban, deregistration) and with its five minutes.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayContext } from '../context.js';
import type { User } from '../db/types.js';
import { startSession } from '../auth/session.js';
import { USER_ENABLED } from '../auth/roles.js';
import { ok, type Envelope } from '../http/envelope.js';
import { fail } from '../http/errors.js';
import { findUserById, recordSignIn, toPublicUser, type PublicUser } from '../users/repository.js';
import { hasEnabledTwoFa } from './twofa-repository.js';

export const PENDING_LOGIN_COOKIE = 'twofa_login';
const PENDING_SECONDS = 300;
const COOKIE_PATH = '/api/user/login';

/** What a sign-in answers: the user, or the request for their second factor. */
export type LoginAnswer = Envelope<PublicUser | { require_2fa: true }>;

const pendingKey = (id: string) => `twofa-login:${id}`;

function cookieOptions(request: FastifyRequest) {
  return { path: COOKIE_PATH, httpOnly: true, sameSite: 'strict', signed: true, secure: request.protocol === 'https' } as const;
}

/** Signs `user` in, or, when they have two-factor sign-in, asks for their code first. */
export async function logInOrAskSecondFactor(
  ctx: Pick<GatewayContext, 'db' | 'kv'>,
  request: FastifyRequest,
  reply: FastifyReply,
  user: User,
): Promise<LoginAnswer> {
  if (!(await hasEnabledTwoFa(ctx.db, user.id))) {
    await recordSignIn(ctx.db, user);
    startSession(request, reply, user);
    return ok(toPublicUser(user), '');
  }
  const id = randomBytes(24).toString('base64url');
  await ctx.kv.set(pendingKey(id), JSON.stringify({ user_id: user.id, epoch: user.session_epoch }), PENDING_SECONDS);
  reply.setCookie(PENDING_LOGIN_COOKIE, id, { ...cookieOptions(request), maxAge: PENDING_SECONDS });
  return ok({ require_2fa: true as const }, '请输入两步验证码');
}

/** The user whose sign-in this browser has pending, or the refusal to sign in again. */
export async function pendingLoginUser(ctx: Pick<GatewayContext, 'db' | 'kv'>, request: FastifyRequest): Promise<User> {
  const raw = request.cookies[PENDING_LOGIN_COOKIE];
  const unsigned = raw ? request.unsignCookie(raw) : null;
  if (!unsigned?.valid || !unsigned.value) throw fail('twofa.login_expired');
  const stored = await ctx.kv.get(pendingKey(unsigned.value));
  if (stored === null) throw fail('twofa.login_expired');
  let pending: { user_id?: unknown; epoch?: unknown };
  try {
    pending = JSON.parse(stored) as typeof pending;
  } catch {
    throw fail('twofa.login_expired');
  }
  const user = typeof pending.user_id === 'number' ? await findUserById(ctx.db, pending.user_id) : undefined;
  if (!user || user.deleted_at !== null || user.session_epoch !== pending.epoch) throw fail('twofa.login_expired');
  if (user.status !== USER_ENABLED) throw fail('account.wrong_credentials');
  return user;
}

/** Ends this browser's pending sign-in and starts the session. */
export async function completePendingLogin(
  ctx: Pick<GatewayContext, 'db' | 'kv'>,
  request: FastifyRequest,
  reply: FastifyReply,
  user: User,
): Promise<LoginAnswer> {
  const raw = request.cookies[PENDING_LOGIN_COOKIE];
  const unsigned = raw ? request.unsignCookie(raw) : null;
  if (unsigned?.valid && unsigned.value) await ctx.kv.delete(pendingKey(unsigned.value));
  reply.clearCookie(PENDING_LOGIN_COOKIE, { path: COOKIE_PATH });
  await recordSignIn(ctx.db, user);
  startSession(request, reply, user);
  return ok(toPublicUser(user), '');
}
