/**
 * Fresh verification ("secure verification"): before a sensitive action (removing a passkey, adding
 * one to an account that has a second factor, disabling two-factor sign-in without a code, deleting
 * the account) the person proves again, with a TOTP or backup code or a passkey, that they are at
 * the keyboard. The proof lasts five minutes and belongs to the browser session it was given in:
 * it is kept in the short-lived-value store under a digest of the session cookie, so every gateway
 * process honours it and no other session (nor an access-token client) can use it.
 */
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { GatewayContext } from '../context.js';
import { SESSION_COOKIE, sessionClaim } from '../auth/session.js';
import { fail } from '../http/errors.js';
import { nowSeconds } from '../db/index.js';
import { hasSecondFactor } from './second-factor.js';

/** How long a verification stays fresh. */
export const FRESH_SECONDS = 300;
/** How long a finished passkey assertion waits for POST /api/verify to turn it into a verification. */
const READY_SECONDS = 60;

export type VerifyMethod = '2fa' | 'passkey';

type Ctx = Pick<GatewayContext, 'kv' | 'db'>;

const digest = (signedCookie: string) => createHash('sha256').update(signedCookie).digest('hex').slice(0, 40);

/** The browser session of the request, as a store key; null for access-token callers. */
function sessionKey(request: FastifyRequest): string | null {
  const raw = request.cookies[SESSION_COOKIE];
  if (!raw || sessionClaim(request) === null) return null;
  return digest(raw);
}

/**
 * Hands this session's fresh verification to the cookie (`signedCookie`) that replaces it when the
 * user's sessions are renewed: the same browser, whose person proved themselves moments ago.
 */
export async function carryVerification(ctx: Ctx, request: FastifyRequest, signedCookie: string): Promise<void> {
  const from = sessionKey(request);
  const value = from === null ? null : await ctx.kv.get(`fresh-verify:${from}`);
  if (value === null) return;
  await ctx.kv.set(`fresh-verify:${digest(signedCookie)}`, value, FRESH_SECONDS);
  await ctx.kv.delete(`fresh-verify:${from}`);
}

/** The session key, or a refusal: fresh verification needs a browser session. */
export function requireSessionKey(request: FastifyRequest): string {
  const key = sessionKey(request);
  if (key === null) throw fail('verify.session_required');
  return key;
}

/** Records a verification of `userId` in this session; returns when it stops being fresh (seconds). */
export async function markVerified(ctx: Ctx, request: FastifyRequest, userId: number, method: VerifyMethod): Promise<number> {
  const at = nowSeconds();
  const value = JSON.stringify({ user_id: userId, at, method });
  await ctx.kv.set(`fresh-verify:${requireSessionKey(request)}`, value, FRESH_SECONDS);
  return at + FRESH_SECONDS;
}

/** Whether `userId` verified in this session within the last five minutes. */
export async function isFreshlyVerified(ctx: Ctx, request: FastifyRequest, userId: number): Promise<boolean> {
  const key = sessionKey(request);
  if (key === null) return false;
  const raw = await ctx.kv.get(`fresh-verify:${key}`);
  if (raw === null) return false;
  try {
    const value = JSON.parse(raw) as { user_id?: unknown; at?: unknown };
    return value.user_id === userId && typeof value.at === 'number' && nowSeconds() - value.at < FRESH_SECONDS;
  } catch {
    return false;
  }
}

/** Refuses unless `userId` verified in this session within the last five minutes. */
export async function requireFreshVerification(ctx: Ctx, request: FastifyRequest, userId: number): Promise<void> {
  if (!(await isFreshlyVerified(ctx, request, userId))) throw fail('verify.required');
}

/**
 * The same, for actions an account without any second factor may take on its session alone: there
 * is nothing stronger to ask such a person for.
 */
export async function requireFreshVerificationIfEnrolled(ctx: Ctx, request: FastifyRequest, userId: number): Promise<void> {
  if (await hasSecondFactor(ctx, userId)) await requireFreshVerification(ctx, request, userId);
}

/** A passkey assertion finished in this session: POST /api/verify {method: 'passkey'} may now complete. */
export async function markPasskeyReady(ctx: Ctx, request: FastifyRequest, userId: number): Promise<void> {
  await ctx.kv.set(`passkey-ready:${requireSessionKey(request)}`, String(userId), READY_SECONDS);
}

/** Spends the session's finished passkey assertion; false when there is none for `userId`. */
export async function takePasskeyReady(ctx: Ctx, request: FastifyRequest, userId: number): Promise<boolean> {
  const key = `passkey-ready:${requireSessionKey(request)}`;
  const owner = await ctx.kv.get(key);
  if (owner === null) return false;
  await ctx.kv.delete(key);
  return owner === String(userId);
}
