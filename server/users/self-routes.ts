/** The signed-in user's own account: profile, password, access token, invitations, settings. */
import { publishUserChange } from './user-cache.js';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { currentUser, requireUser } from '../auth/guard.js';
import { hashPassword, verifyPassword } from '../auth/password.js';
import { ROLE_ROOT } from '../auth/roles.js';
import { endSession, sessionClaim, startSession } from '../auth/session.js';
import type { User } from '../db/types.js';
import { ok } from '../http/envelope.js';
import { fail } from '../http/errors.js';
import { formatQuota } from './quota-format.js';
import { usableGroups } from './groups.js';
import { transferAffQuota } from '../billing/ledger.js';
import { modelsForGroup } from '../channels/abilities-repository.js';
import {
  deregisterUser,
  endSessions,
  ensureAffCode,
  findUserById,
  regenerateAccessToken,
  toPublicUser,
  updateUser,
} from './repository.js';
import {
  AffTransferBody,
  AffTransferResult,
  SelfUser,
  StringList,
  UpdateSelfBody,
  UserGroups,
  UserSettingBody,
  UserSettingView,
} from './schemas.js';
import { Envelope } from '../http/schemas.js';
import { applySettingBody, checkWebhookTarget, parseUserSetting, settingView } from './settings.js';
import { checkDisplayName, checkPassword } from './validation.js';
import { requireFreshVerificationIfEnrolled } from '../mfa/fresh-verification.js';

function selfView(user: User): SelfUser {
  return {
    ...toPublicUser(user),
    // An admin's note about the user is for admins only.
    remark: '',
    has_access_token: Boolean(user.access_token),
    settings: settingView(parseUserSetting(user.setting)),
  };
}

export default async function userSelfRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { db, options } = app.ctx;

  async function reload(id: number): Promise<User> {
    const user = await findUserById(db, id);
    if (!user) throw fail('user.not_found');
    return user;
  }

  app.get('/api/user/self', { onRequest: requireUser, schema: { response: { 200: Envelope(SelfUser) } } }, async (request) =>
    ok(selfView(currentUser(request))),
  );

  app.put(
    '/api/user/self',
    { onRequest: requireUser, schema: { body: UpdateSelfBody, response: { 200: Envelope(SelfUser) } } },
    async (request, reply) => {
      const user = currentUser(request);
      const body = request.body;
      const changes: { display_name?: string; password?: string } = {};
      if (body.display_name !== undefined) {
        changes.display_name = checkDisplayName(body.display_name) || user.username;
      }
      if (body.password) {
        const original = body.original_password ?? '';
        if (!original || !(await verifyPassword(original, user.password))) throw fail('user.wrong_password');
        checkPassword(body.password, { max: true });
        if (body.password === original) throw fail('user.same_password');
        changes.password = await hashPassword(body.password);
      }
      if (changes.password !== undefined) {
        // A new password ends every session of the account; this browser gets a fresh one.
        await db.transaction().execute(async (trx) => {
          await updateUser(trx, user.id, changes);
          await endSessions(trx, user.id);
        });
      } else if (Object.keys(changes).length > 0) {
        await updateUser(db, user.id, changes);
      }
      const after = await reload(user.id);
      if (changes.password !== undefined && sessionClaim(request) !== null) startSession(request, reply, after);
      return ok(selfView(after), '更新成功');
    },
  );

  app.delete('/api/user/self', { onRequest: requireUser }, async (request, reply) => {
    const user = currentUser(request);
    if (user.role >= ROLE_ROOT) throw fail('user.root_self_delete');
    await requireFreshVerificationIfEnrolled(app.ctx, request, user.id);
    await db.transaction().execute(async (trx) => {
      await deregisterUser(trx, user.id);
      await endSessions(trx, user.id);
    });
    publishUserChange(app.ctx.bus, user.id);
    endSession(reply);
    return ok(undefined, '账户已删除');
  });

  app.get(
    '/api/user/token',
    { onRequest: requireUser, schema: { response: { 200: Envelope(Type.String()) } } },
    async (request) => ok(await regenerateAccessToken(db, currentUser(request).id)),
  );

  app.get('/api/user/aff', { onRequest: requireUser, schema: { response: { 200: Envelope(Type.String()) } } }, async (request) =>
    ok(await ensureAffCode(db, currentUser(request))),
  );

  app.post(
    '/api/user/aff_transfer',
    { onRequest: requireUser, schema: { body: AffTransferBody, response: { 200: Envelope(AffTransferResult) } } },
    async (request) => {
      const user = currentUser(request);
      const amount = request.body.quota;
      const minimum = Math.ceil(options.number('QuotaPerUnit'));
      if (amount < minimum) throw fail('user.transfer_too_small', { minimum: formatQuota(options, minimum) });
      if (!(await transferAffQuota(db, user.id, amount))) throw fail('user.aff_quota_short');
      const after = await reload(user.id);
      return ok({ quota: after.quota, aff_quota: after.aff_quota }, '划转成功');
    },
  );

  app.put(
    '/api/user/setting',
    { onRequest: requireUser, schema: { body: UserSettingBody, response: { 200: Envelope(UserSettingView) } } },
    async (request) => {
      const user = currentUser(request);
      const current = parseUserSetting(user.setting);
      const next = applySettingBody(current, request.body);
      if (next.webhook_url && next.webhook_url !== current.webhook_url) await checkWebhookTarget(next.webhook_url);
      await updateUser(db, user.id, { setting: JSON.stringify(next) });
      publishUserChange(app.ctx.bus, user.id);
      return ok(settingView(next), '设置已更新');
    },
  );

  app.get('/api/user/models', { onRequest: requireUser, schema: { response: { 200: Envelope(StringList) } } }, async (request) =>
    ok(await modelsForGroup(db, currentUser(request).group)),
  );

  app.get(
    '/api/user/self/groups',
    { onRequest: requireUser, schema: { response: { 200: Envelope(UserGroups) } } },
    async (request) => ok(usableGroups(options, currentUser(request).group)),
  );
}
