/**
 * The OAuth `state` (CSRF protection of the redirect-based logins): GET /api/oauth/state issues a
 * random value, kept ten minutes in ctx.kv with the invitation code, and sets it in a signed,
 * HttpOnly cookie of this browser. The callback must bring the same value back in its query and
 * in the cookie; the first check uses it up, across gateway processes too.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayContext } from '../context.js';
import { fail } from '../http/errors.js';

export const STATE_COOKIE = 'oauth_state';
/** Sent to the OAuth callbacks and to the family's external logins (/api/auth/external/…). */
const COOKIE_PATH = '/api';
const TTL_SECONDS = 600;

const entryKey = (state: string) => `oauth:state:${state}`;
const usedKey = (state: string) => `oauth:state-used:${state}`;

interface StateEntry {
  aff: string;
}

export async function issueState(ctx: GatewayContext, reply: FastifyReply, aff: string): Promise<string> {
  const state = randomBytes(24).toString('base64url');
  const entry: StateEntry = { aff: aff.trim() };
  await ctx.kv.set(entryKey(state), JSON.stringify(entry), TTL_SECONDS);
  reply.setCookie(STATE_COOKIE, state, {
    path: COOKIE_PATH,
    httpOnly: true,
    sameSite: 'lax',
    signed: true,
    maxAge: TTL_SECONDS,
  });
  return state;
}

/** Checks `state` against this browser's cookie and the store, uses it up, and returns its invitation code. */
export async function consumeState(
  ctx: GatewayContext,
  request: FastifyRequest,
  reply: FastifyReply,
  state: string,
): Promise<StateEntry> {
  // Whatever the outcome, this browser's state is spent.
  reply.clearCookie(STATE_COOKIE, { path: COOKIE_PATH });
  const raw = request.cookies[STATE_COOKIE];
  if (!state || !raw) throw fail('oauth.state_invalid');
  const cookie = request.unsignCookie(raw);
  if (!cookie.valid || cookie.value !== state) throw fail('oauth.state_invalid');
  const stored = await ctx.kv.get(entryKey(state));
  if (stored === null) throw fail('oauth.state_invalid');
  // One winner when the same callback arrives twice at once (or at two processes).
  if (!(await ctx.kv.setIfAbsent(usedKey(state), '1', TTL_SECONDS))) throw fail('oauth.state_invalid');
  await ctx.kv.delete(entryKey(state));
  try {
    const entry = JSON.parse(stored) as Partial<StateEntry>;
    return { aff: typeof entry.aff === 'string' ? entry.aff : '' };
  } catch {
    return { aff: '' };
  }
}
