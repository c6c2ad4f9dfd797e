/**
 * POST /api/verify (new-api's "secure verification"): a TOTP or backup code, or a passkey assertion
 * this session just finished (POST /api/user/passkey/verify/finish), makes the session freshly
 * verified for five minutes (fresh-verification.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { currentUser, requireUser } from '../auth/guard.js';
import { ok } from '../http/envelope.js';
import { fail } from '../http/errors.js';
import { Envelope } from '../http/schemas.js';
import { criticalLimit } from '../ratelimit/hooks.js';
import { markVerified, requireSessionKey, takePasskeyReady } from './fresh-verification.js';
import { checkSecondFactor } from './second-factor.js';
import { VerifyBody, VerifyResult } from './schemas.js';

export default async function verifyRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = app.ctx;

  app.post(
    '/api/verify',
    {
      onRequest: requireUser,
      preHandler: criticalLimit,
      schema: { body: VerifyBody, response: { 200: Envelope(VerifyResult) } },
    },
    async (request) => {
      const user = currentUser(request);
      requireSessionKey(request);
      const { method } = request.body;
      if (method === '2fa') {
        const code = request.body.code?.trim();
        if (!code) throw fail('verify.code_required');
        await checkSecondFactor(ctx, user.id, code, { allowBackup: true });
      } else if (!(await takePasskeyReady(ctx, request, user.id))) {
        throw fail('verify.passkey_required');
      }
      const expires = await markVerified(ctx, request, user.id, method);
      return ok({ verified: true, expires_at: expires }, '验证成功');
    },
  );
}
