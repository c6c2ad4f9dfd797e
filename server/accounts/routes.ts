import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { endSession } from '../auth/session.js';
import { dummyHash, verifyPassword } from '../auth/password.js';
import { accountKey, assertNotLocked, noteFailure } from './lockout.js';
import { USER_ENABLED } from '../auth/roles.js';
import { ok } from '../http/envelope.js';
import { fail } from '../http/errors.js';
import { findLiveUserByLogin } from '../users/identity-repository.js';
import { endSessions } from '../users/repository.js';
import { logInOrAskSecondFactor } from '../mfa/login-step.js';
import { sessionHolder } from '../auth/guard.js';
import { EmailQuery, LoginBody, RegisterBody, ResetBody, TurnstileQuery, type ResetResult } from './schemas.js';
import { criticalLimit } from '../ratelimit/hooks.js';
import { turnstileCheck } from './turnstile.js';
import { registerUser } from './register.js';
import { sendVerificationCode } from './verification.js';
import { resetPassword, sendResetLink } from './recovery.js';

export default async function accountRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = app.ctx;
  const { db, options } = ctx;
  const guarded = [criticalLimit, turnstileCheck];
  void dummyHash();

  app.post(
    '/api/user/login',
    { schema: { body: LoginBody, querystring: TurnstileQuery }, preHandler: guarded },
    async (request, reply) => {
      if (!options.bool('PasswordLoginEnabled')) throw fail('account.password_login_disabled');
      const username = request.body.username.trim();
      const password = request.body.password;
      if (!username || !password) throw fail('account.bad_params');
      const user = await findLiveUserByLogin(db, username);
      const account = accountKey(user, username);
      await assertNotLocked(ctx, account);
      // Same message, and the same time (a hash is checked either way), for unknown users and wrong
      // passwords: no account enumeration.
      if (!(await verifyPassword(password, user?.password)) || !user) {
        await noteFailure(ctx, account);
        throw fail('account.wrong_credentials');
      }
      if (user.status !== USER_ENABLED) throw fail('account.wrong_credentials');
      return logInOrAskSecondFactor(ctx, request, reply, user);
    },
  );

  // Logging out ends every session of the user, on every device, not only this browser's.
  app.get('/api/user/logout', async (request, reply) => {
    const holder = await sessionHolder(request);
    if (holder) await endSessions(db, holder.id);
    endSession(reply);
    return ok();
  });

  app.post(
    '/api/user/register',
    { schema: { body: RegisterBody, querystring: TurnstileQuery }, preHandler: guarded },
    async (request) => {
      await registerUser(ctx, request.body);
      return ok();
    },
  );

  app.get('/api/verification', { schema: { querystring: EmailQuery }, preHandler: guarded }, async (request) => {
    await sendVerificationCode(ctx, request.query.email);
    return ok();
  });

  app.get('/api/reset_password', { schema: { querystring: EmailQuery }, preHandler: guarded }, async (request) => {
    await sendResetLink(ctx, request.query.email, `${request.protocol}://${request.host}`);
    return ok();
  });

  app.post('/api/user/reset', { schema: { body: ResetBody }, preHandler: criticalLimit }, async (request) => {
    const password: ResetResult = await resetPassword(ctx, request.body.email, request.body.token);
    return ok(password);
  });
}
