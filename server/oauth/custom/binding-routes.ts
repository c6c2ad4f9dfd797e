/**
 * The accounts bound through custom providers, as the family's console lists them on a person's
 * settings page and on the admin's user editor: GET and DELETE /api/user/oauth/bindings[/:provider_id]
 * for oneself, /api/user/:id/oauth/bindings[/:provider_id] for an admin over users below them.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { currentUser, requireAdmin, requireUser } from '../../auth/guard.js';
import { fromParams } from '../../audit/targets.js';
import { ok } from '../../http/envelope.js';
import { fail } from '../../http/errors.js';
import { numericIdOnly } from '../../http/numeric-id.js';
import { findUserById } from '../../users/repository.js';
import { assertCanEdit, assertCanRead } from '../../users/permissions.js';
import { listUserBindings, unbindExternal } from './repository.js';

const Int = () => Type.Integer({ minimum: 1, maximum: 2147483647 });
const ProviderParams = Type.Object({ provider_id: Int() });
const UserParams = Type.Object({ id: Int() });
const UserProviderParams = Type.Object({ id: Int(), provider_id: Int() });

export default async function customBindingRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.ctx;

  const bindingsOf = async (userId: number) =>
    (await listUserBindings(db, userId)).map((b) => ({
      provider_id: b.provider_id,
      provider_name: b.name,
      provider_slug: b.slug,
      provider_icon: b.icon,
      provider_user_id: b.provider_user_id,
    }));

  async function unbind(userId: number, providerId: number) {
    if (!(await unbindExternal(db, userId, providerId))) throw fail('oauth.binding_not_found');
    return ok(undefined, '解绑成功');
  }

  async function target(id: number) {
    const user = await findUserById(db, id);
    if (!user) throw fail('user.not_found');
    return user;
  }

  app.get('/api/user/oauth/bindings', { onRequest: requireUser }, async (request) =>
    ok(await bindingsOf(currentUser(request).id)),
  );

  app.delete(
    '/api/user/oauth/bindings/:provider_id',
    { onRequest: requireUser, schema: { params: ProviderParams } },
    async (request) => unbind(currentUser(request).id, request.params.provider_id),
  );

  app.get(
    '/api/user/:id/oauth/bindings',
    { onRequest: [numericIdOnly, requireAdmin], schema: { params: UserParams } },
    async (request) => {
      assertCanRead(currentUser(request), await target(request.params.id));
      return ok(await bindingsOf(request.params.id));
    },
  );

  app.delete(
    '/api/user/:id/oauth/bindings/:provider_id',
    {
      onRequest: [numericIdOnly, requireAdmin],
      schema: { params: UserProviderParams },
      config: {
        audit: {
          subject: 'user',
          action: 'oauth_unbind',
          target: fromParams,
          detail: (request) => ({ provider_id: Number((request.params as { provider_id: number }).provider_id) }),
        },
      },
    },
    async (request) => {
      assertCanEdit(currentUser(request), await target(request.params.id));
      return unbind(request.params.id, request.params.provider_id);
    },
  );
}
