/**
 * Admins and second factors (new-api's endpoints): how many users sign in with two factors, and
 * resetting a user's two-factor sign-in or passkeys when they lost their device. The rule is the
 * one of every admin action on users, without the exception for oneself: only users of a lower role
 * (an admin cannot strip their own second factor here without its code).
 */
import { fromParams } from '../audit/targets.js';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { currentUser, requireAdmin } from '../auth/guard.js';
import { nowSeconds } from '../db/index.js';
import type { User } from '../db/types.js';
import { ok } from '../http/envelope.js';
import { fail } from '../http/errors.js';
import { Envelope } from '../http/schemas.js';
import { logText, withText, type LogMessageKey } from '../logs/messages.js';
import { recordLog } from '../logs/repository.js';
import { LOG_MANAGE } from '../logs/types.js';
import { countUsers, endSessions, findUserById } from '../users/repository.js';
import { UserIdParams } from '../users/schemas.js';
import { deleteUserPasskeys } from './passkey-repository.js';
import { changeFactors } from './session-renewal.js';
import { TwoFaStats } from './schemas.js';
import { countEnabledTwoFa, removeTwoFa } from './twofa-repository.js';

export default async function mfaAdminRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { db, dbKind } = app.ctx;

  async function target(me: User, id: number): Promise<User> {
    const user = await findUserById(db, id);
    if (!user) throw fail('user.not_found');
    if (user.role >= me.role) throw fail('user.update_denied');
    if (user.deleted_at !== null) throw fail('user.deleted');
    return user;
  }

  async function note(me: User, user: User, key: LogMessageKey): Promise<void> {
    await recordLog(db, dbKind, {
      user_id: user.id,
      username: user.username,
      created_at: nowSeconds(),
      type: LOG_MANAGE,
      ...withText(logText(null, key), { admin_info: { admin_id: me.id, admin_username: me.username } }),
    });
  }

  app.get('/api/user/2fa/stats', { onRequest: requireAdmin, schema: { response: { 200: Envelope(TwoFaStats) } } }, async () => {
    const [total, enabled] = await Promise.all([countUsers(db, { keyword: '', group: '' }), countEnabledTwoFa(db)]);
    const rate = total > 0 ? (enabled / total) * 100 : 0;
    return ok({ total_users: total, enabled_users: enabled, enabled_rate: `${rate.toFixed(1)}%` });
  });

  // Ends the user's sessions too: whoever took over the lost device loses the account with it.
  const auditReset = (action: string) => ({ audit: { subject: 'user' as const, action, target: fromParams } });

  app.delete(
    '/api/user/:id/2fa',
    { onRequest: requireAdmin, schema: { params: UserIdParams }, config: auditReset('reset_2fa') },
    async (request) => {
      const me = currentUser(request);
      const user = await target(me, request.params.id);
      const removed = await db.transaction().execute(async (trx) => {
        const had = await removeTwoFa(trx, user.id);
        if (had) await endSessions(trx, user.id);
        return had;
      });
      if (!removed) throw fail('twofa.not_enabled');
      await note(me, user, 'twofa_reset');
      return ok(undefined, '已重置该用户的两步验证');
    },
  );

  app.delete(
    '/api/user/:id/reset_passkey',
    { onRequest: requireAdmin, schema: { params: UserIdParams }, config: auditReset('reset_passkey') },
    async (request) => {
      const me = currentUser(request);
      const user = await target(me, request.params.id);
      const removed = await changeFactors(app.ctx, user.id, async (trx) => (await deleteUserPasskeys(trx, user.id)) > 0);
      if (!removed) throw fail('passkey.not_bound');
      await note(me, user, 'passkey_reset');
      return ok(undefined, '已重置该用户的通行密钥');
    },
  );
}
