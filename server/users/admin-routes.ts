/** User management for admins: list, search, create, edit, promote/demote/disable/enable/delete. */
import { publishUserChange } from './user-cache.js';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { currentUser, requireAdmin } from '../auth/guard.js';
import { hashPassword } from '../auth/password.js';
import { sessionClaim, startSession } from '../auth/session.js';
import { ROLE_USER, USER_ENABLED } from '../auth/roles.js';
import { creditUser, setUserQuota } from '../billing/ledger.js';
import { nowSeconds } from '../db/index.js';
import type { User } from '../db/types.js';
import { ok, pageParams } from '../http/envelope.js';
import { fail } from '../http/errors.js';
import { numericIdOnly } from '../http/numeric-id.js';
import { logText, withText } from '../logs/messages.js';
import { recordLog } from '../logs/repository.js';
import { LOG_MANAGE } from '../logs/types.js';
import { isUniqueViolation } from '../db/errors.js';
import { groupNames } from './groups.js';
import { assertCanAdjustQuota, assertCanCreate, assertCanEdit, assertCanRead, manages, planManage } from './permissions.js';
import { adjustQuota } from './quota-adjust.js';
import {
  countUsers,
  createUser,
  endSessions,
  findUserById,
  findUsers,
  isUsernameTaken,
  toPublicUser,
  updateLiveUser,
  updateUser,
  type PublicUser as PublicUserView,
  type UserFields,
  type UserFilter,
} from './repository.js';
import {
  CreateUserBody,
  ManageBody,
  ManageResult,
  PageQuery,
  PublicUser,
  StringList,
  UpdateUserBody,
  UserIdParams,
  UserPage,
  UserQueryQuery,
  UserSearchQuery,
  type UserListItem,
} from './schemas.js';
import { Envelope, INT32_MAX } from '../http/schemas.js';
import { usageByUser, usageOf } from './usage.js';
import { fromBody, fromParams, idOfData, textOf } from '../audit/targets.js';
import { checkDisplayName, checkPassword, checkRemark, checkUsername } from './validation.js';

const QUERY_LIMIT = 100;

/**
 * A user in an admin's list. Of users the admin does not manage (root, peer admins) the list shows
 * who they are, not how to reach them or which outside accounts they hold: e-mail, third-party ids
 * and the settings (notification address, webhook) are blank.
 */
function listed(me: User, user: User): PublicUserView {
  const view = toPublicUser(user);
  if (manages(me, user)) return view;
  return {
    ...view,
    email: '',
    github_id: '',
    oidc_id: '',
    wechat_id: '',
    telegram_id: '',
    linux_do_id: '',
    discord_id: '',
    setting: '',
  };
}

export default async function userAdminRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { db, dbKind, options } = app.ctx;

  async function page(me: User, filter: UserFilter, query: { p?: number; page_size?: number }): Promise<UserPage> {
    const { page, pageSize, offset } = pageParams(query);
    const [rows, total] = await Promise.all([findUsers(db, filter, pageSize, offset), countUsers(db, filter)]);
    const ids = rows.map((u) => u.id);
    const usage = await usageByUser(db, ids);
    const items: UserListItem[] = rows.map((u) => ({ ...listed(me, u), usage: usageOf(usage, u.id) }));
    return { items, total, page, page_size: pageSize };
  }

  async function target(id: number): Promise<User> {
    const user = await findUserById(db, id);
    if (!user) throw fail('user.not_found');
    return user;
  }

  app.get(
    '/api/user/',
    { onRequest: requireAdmin, schema: { querystring: PageQuery, response: { 200: Envelope(UserPage) } } },
    async (request) => ok(await page(currentUser(request), { keyword: '', group: '' }, request.query)),
  );

  // No search rate limit here: admins page through results, which the 10-per-minute limit would break.
  app.get(
    '/api/user/search',
    { onRequest: requireAdmin, schema: { querystring: UserSearchQuery, response: { 200: Envelope(UserPage) } } },
    async (request) => {
      const { keyword = '', group = '' } = request.query;
      return ok(await page(currentUser(request), { keyword, group }, request.query));
    },
  );

  app.get(
    '/api/user/query',
    { onRequest: requireAdmin, schema: { querystring: UserQueryQuery, response: { 200: Envelope(Type.Array(PublicUser)) } } },
    async (request) => {
      const { keyword = '', group = '' } = request.query;
      const me = currentUser(request);
      return ok((await findUsers(db, { keyword, group }, QUERY_LIMIT)).map((u) => listed(me, u)));
    },
  );

  app.get(
    '/api/user/:id',
    { onRequest: [numericIdOnly, requireAdmin], schema: { params: UserIdParams, response: { 200: Envelope(PublicUser) } } },
    async (request) => {
      const user = await target(request.params.id);
      assertCanRead(currentUser(request), user);
      return ok(toPublicUser(user));
    },
  );

  app.post(
    '/api/user/',
    {
      onRequest: requireAdmin,
      schema: { body: CreateUserBody, response: { 200: Envelope(PublicUser) } },
      config: { audit: { subject: 'user', action: 'create', created: idOfData } },
    },
    async (request) => {
      const me = currentUser(request);
      const body = request.body;
      const username = checkUsername(body.username ?? '');
      const password = body.password ?? '';
      if (!username || !password) throw fail('user.username_and_password_required');
      checkPassword(password, { max: true });
      const displayName = checkDisplayName(body.display_name ?? '');
      const remark = checkRemark(body.remark ?? '');
      const role = body.role ?? ROLE_USER;
      assertCanCreate(me, role);
      if (await isUsernameTaken(db, username)) throw fail('user.username_taken');
      let id: number;
      try {
        id = await db.transaction().execute(async (trx) => {
          const created = await createUser(trx, dbKind, { username, password, display_name: displayName, role, remark });
          await creditUser(trx, created, Math.max(0, Math.trunc(options.number('QuotaForNewUser'))));
          return created;
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw fail('user.username_taken');
        throw err;
      }
      return ok(toPublicUser(await target(id)), '用户创建成功');
    },
  );

  app.put(
    '/api/user/',
    {
      onRequest: requireAdmin,
      schema: { body: UpdateUserBody, response: { 200: Envelope(PublicUser) } },
      config: { audit: { subject: 'user', action: 'update', target: fromBody() } },
    },
    async (request, reply) => {
      const me = currentUser(request);
      const body = request.body;
      // Input checks (and the slow hash) before any database work.
      const username = body.username === undefined ? undefined : checkUsername(body.username);
      if (username === '') throw fail('user.username_required');
      const displayName = body.display_name === undefined ? undefined : checkDisplayName(body.display_name);
      const remark = body.remark === undefined ? undefined : checkRemark(body.remark ?? '');
      let passwordHash: string | undefined;
      if (body.password) {
        checkPassword(body.password, { max: false });
        passwordHash = await hashPassword(body.password);
      }
      if (body.quota !== undefined && body.quota < 0) throw fail('user.quota_negative');
      const rpd = body.rpd_limit;
      if (rpd !== undefined && (!Number.isInteger(rpd) || rpd < 0 || rpd > INT32_MAX))
        throw fail('user.rpd_limit_invalid', { max: INT32_MAX });

      await db.transaction().execute(async (trx) => {
        const user = await findUserById(trx, body.id);
        if (!user) throw fail('user.not_found');
        assertCanEdit(me, user);
        const isSelf = user.id === me.id;
        const changes: UserFields = {};
        if (username !== undefined && username !== user.username) {
          if (await isUsernameTaken(trx, username, user.id)) throw fail('user.username_taken');
          changes.username = username;
        }
        if (displayName !== undefined) changes.display_name = displayName || (username ?? user.username);
        if (passwordHash) changes.password = passwordHash;
        if (remark !== undefined && remark !== user.remark) changes.remark = remark;
        if (rpd !== undefined && rpd !== user.rpd_limit) changes.rpd_limit = rpd;
        const group = body.group?.trim();
        if (group !== undefined && group !== user.group) {
          if (isSelf) throw fail('user.own_group');
          if (!groupNames(options).includes(group)) throw fail('user.group_missing', { group });
          changes.group = group;
        }
        const quota = body.quota !== undefined && body.quota !== user.quota ? body.quota : undefined;
        if (quota !== undefined && isSelf) throw fail('user.own_quota');

        if (Object.keys(changes).length > 0) {
          try {
            await updateUser(trx, user.id, changes);
          } catch (err) {
            if (isUniqueViolation(err)) throw fail('user.username_taken');
            throw err;
          }
        }
        // An admin's password reset ends every session the user had.
        if (passwordHash) await endSessions(trx, user.id);
        if (quota === undefined) return;
        // Only while the balance is what was read: a relay charge landing in between is not overwritten.
        if (!(await setUserQuota(trx, user.id, user.quota, quota))) throw fail('user.quota_changed');
        await recordLog(trx, dbKind, {
          user_id: user.id,
          username: changes.username ?? user.username,
          created_at: nowSeconds(),
          type: LOG_MANAGE,
          ...withText(logText(options, 'quota_set', { from_quota: user.quota, to_quota: quota }), {
            admin_info: { admin_id: me.id, admin_username: me.username },
          }),
        });
      });
      publishUserChange(app.ctx.bus, body.id);
      const after = await target(body.id);
      // An admin who set their own password keeps this browser's session, as on the personal page.
      if (passwordHash && body.id === me.id && sessionClaim(request) !== null) startSession(request, reply, after);
      return ok(toPublicUser(after), '用户信息更新成功！');
    },
  );

  async function manage(me: User, body: ManageBody): Promise<ManageResult> {
    const user = await target(body.id);
    const { action } = body;
    if (action === 'add_quota') {
      assertCanAdjustQuota(me, user);
      const quota = await adjustQuota(db, dbKind, options, me, user, body);
      publishUserChange(app.ctx.bus, user.id);
      return { status: user.status, role: user.role, quota };
    }
    const outcome = planManage(me, user, action);
    await db.transaction().execute(async (trx) => {
      await updateLiveUser(trx, user.id, {
        role: outcome.role,
        status: outcome.status,
        ...(outcome.deregister ? { deleted_at: nowSeconds() } : {}),
      });
      // Disabling or deleting an account ends its sessions: enabling it again revives none.
      if (outcome.deregister || outcome.status !== USER_ENABLED) await endSessions(trx, user.id);
    });
    publishUserChange(app.ctx.bus, user.id);
    return { status: outcome.status, role: outcome.role };
  }

  app.post(
    '/api/user/manage',
    {
      onRequest: requireAdmin,
      schema: { body: ManageBody, response: { 200: Envelope(ManageResult) } },
      config: {
        audit: {
          subject: 'user',
          action: (request) => textOf(request.body, 'action'),
          target: fromBody(),
          // The balance before and after shows the result; the mode says how it was asked.
          detail: (request): Record<string, string> =>
            textOf(request.body, 'action') === 'add_quota' ? { mode: textOf(request.body, 'mode') } : {},
        },
      },
    },
    async (request) => ok(await manage(currentUser(request), request.body), '操作成功完成'),
  );

  app.delete(
    '/api/user/:id',
    {
      onRequest: [numericIdOnly, requireAdmin],
      schema: { params: UserIdParams, response: { 200: Envelope(ManageResult) } },
      config: { audit: { subject: 'user', action: 'delete', target: fromParams } },
    },
    async (request) => ok(await manage(currentUser(request), { id: request.params.id, action: 'delete' }), '操作成功完成'),
  );

  // The family's console asks with and without the trailing slash.
  for (const url of ['/api/group/', '/api/group'])
    app.get(url, { onRequest: requireAdmin, schema: { response: { 200: Envelope(StringList) } } }, async () =>
      ok(groupNames(options)),
    );
}
