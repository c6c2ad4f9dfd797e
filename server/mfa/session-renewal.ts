/**
 * A change of a user's sign-in factors (a passkey removed, two-factor sign-in turned on or off)
 * ends every session of the user, so whoever holds a session a removed factor opened loses it. The
 * browser that made the change goes on with a fresh cookie, its fresh verification carried over.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayContext } from '../context.js';
import { sessionClaim, startSession } from '../auth/session.js';
import type { Db } from '../db/index.js';
import { endSessions, findUserById } from '../users/repository.js';
import { carryVerification } from './fresh-verification.js';

/**
 * Runs `change` and ends the user's sessions in one transaction (both or neither); `change` answers
 * whether there was anything to change, and nothing ends when there was not.
 */
export async function changeFactors(
  ctx: Pick<GatewayContext, 'db'>,
  userId: number,
  change: (trx: Db) => Promise<boolean>,
): Promise<boolean> {
  return ctx.db.transaction().execute(async (trx) => {
    const changed = await change(trx);
    if (changed) await endSessions(trx, userId);
    return changed;
  });
}

/** After `changeFactors`: this browser's session goes on under the user's new epoch. */
export async function continueSession(
  ctx: Pick<GatewayContext, 'db' | 'kv'>,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: number,
): Promise<void> {
  const user = await findUserById(ctx.db, userId);
  if (!user || sessionClaim(request) === null) return;
  await carryVerification(ctx, request, startSession(request, reply, user));
}
