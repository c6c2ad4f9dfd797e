/**
 * E-mail binding of the signed-in user: POST /api/oauth/email/bind {email, code} (as the family
 * sends it; the query is read too) or GET ?email=&code= checks the code mailed by GET
 * /api/verification and sets users.email. The admin's domain whitelist and alias
 * rules apply, and an address held by another live user is refused.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import type { GatewayContext } from '../context.js';
import type { User } from '../db/types.js';
import { currentUser, requireUser } from '../auth/guard.js';
import { ok } from '../http/envelope.js';
import { fail } from '../http/errors.js';
import { criticalLimit } from '../ratelimit/hooks.js';
import { findLiveUserIdByEmail } from '../users/identity-repository.js';
import { updateUser } from '../users/repository.js';
import { publishUserChange } from '../users/user-cache.js';
import { consumeVerificationCode } from './codes.js';
import { emailRuleViolation, isValidEmail, normaliseEmail } from './email-rules.js';

export const EmailBindQuery = Type.Object({
  email: Type.Optional(Type.String({ maxLength: 256 })),
  code: Type.Optional(Type.String({ maxLength: 32 })),
});
export type EmailBindQuery = Static<typeof EmailBindQuery>;

/**
 * Binds `rawEmail` to `user` when `rawCode` is the code last mailed to it. The code is used up
 * only once every other check has passed, so a refused address does not cost it.
 */
export async function bindEmail(ctx: GatewayContext, user: User, rawEmail: string, rawCode: string): Promise<string> {
  const email = normaliseEmail(rawEmail);
  const code = rawCode.trim();
  if (!email || !code) throw fail('account.email_and_code_required');
  if (!isValidEmail(email)) throw fail('account.email_invalid');
  const refused = emailRuleViolation(ctx.options, email);
  if (refused) throw fail(refused);
  if ((await findLiveUserIdByEmail(ctx.db, email, user.id)) !== undefined) throw fail('account.email_taken');
  if (!(await consumeVerificationCode(ctx.kv, email, code))) throw fail('account.code_invalid');
  await updateUser(ctx.db, user.id, { email });
  publishUserChange(ctx.bus, user.id);
  return email;
}

export default async function emailBindRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const bind = async (user: User, fields: EmailBindQuery) =>
    ok(await bindEmail(app.ctx, user, fields.email ?? '', fields.code ?? ''), '绑定成功！');

  app.get(
    '/api/oauth/email/bind',
    { onRequest: requireUser, preHandler: criticalLimit, schema: { querystring: EmailBindQuery } },
    async (request) => bind(currentUser(request), request.query),
  );

  // Each field from the body when it is there, else from the query.
  app.post(
    '/api/oauth/email/bind',
    { onRequest: requireUser, preHandler: criticalLimit, schema: { querystring: EmailBindQuery, body: EmailBindQuery } },
    async (request) =>
      bind(currentUser(request), {
        email: request.body.email ?? request.query.email,
        code: request.body.code ?? request.query.code,
      }),
  );
}
