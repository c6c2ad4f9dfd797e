/**
 * The admin user API, on every database: refusals to normal users, the list with usage, search,
 * reading, creating and editing users (quota changes logged), and the manage and delete rules
 * between users, admins and root.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { ROOT, type ApiClient, type TestGateway } from '../helpers/gateway.js';
import { PASSWORD } from '../helpers/users.js';
import { usersFixture } from '../helpers/users-fixture.js';

await forEachDatabase('users', (kind) => {
  const fx = usersFixture(kind);
  const { db, row, userCount, name, create, newUser } = fx;
  let tg: TestGateway;
  let root: ApiClient;
  let admin: ApiClient;
  let admin2: ApiClient;
  beforeAll(() => {
    ({ tg, root, admin, admin2 } = fx);
  });

  describe('admin management', () => {
    it('refuses every admin endpoint to a normal user', async () => {
      const { client } = await newUser();
      const other = await newUser();
      const calls = [
        client.get('/api/user/'),
        client.get('/api/user/search?keyword=a'),
        client.get('/api/user/query?keyword=a'),
        client.get(`/api/user/${other.id}`),
        client.post('/api/user/', { username: name(), password: PASSWORD }),
        client.put('/api/user/', { id: other.id, quota: 999 }),
        client.post('/api/user/manage', { id: other.id, action: 'disable' }),
        client.delete(`/api/user/${other.id}`),
        client.get('/api/group/'),
      ];
      const before = await userCount();
      for (const res of await Promise.all(calls)) {
        expect(res.body).toMatchObject({ success: false, message: '无权进行此操作，权限不足' });
      }
      expect(await userCount()).toBe(before);
      expect(await row(other.id)).toMatchObject({ quota: 0, status: 1, deleted_at: null });
    });

    it('lists users newest first, paged, without secrets, with usage', async () => {
      const { id } = await newUser();
      const now = Math.floor(Date.now() / 1000);
      await db()
        .insertInto('quota_data')
        .values([
          { user_id: id, created_at: now - 3600, quota: 300, count: 1, model_name: 'm1' },
          { user_id: id, created_at: now - 86_400 - 3600, quota: 100, count: 1, model_name: 'm2' },
          { user_id: id, created_at: now - 10 * 86_400, quota: 50, count: 1, model_name: 'm3' },
        ])
        .execute();
      await root.get('/api/user/token');
      const total = await userCount();
      const res = await root.get('/api/user/?p=1&page_size=2');
      expect(res.body.success).toBe(true);
      const data = res.body.data;
      expect(data.total).toBe(total);
      expect(data.page).toBe(1);
      expect(data.page_size).toBe(2);
      expect(data.items).toHaveLength(2);
      expect(data.items[0].id).toBeGreaterThan(data.items[1].id);
      expect(data.items[0].id).toBe(id);
      expect(data.items[0].usage).toEqual({
        day: 300,
        week: 400,
        month: 450,
        day_on_day: 2,
        week_on_week: 7,
        month_on_month: null,
      });

      const all = await root.get('/api/user/?p=1&page_size=100');
      expect(all.body.data.items).toHaveLength(total);
      const text = JSON.stringify(all.body);
      expect(text).not.toContain('"password"');
      expect(text).not.toContain('access_token');
      const lastPage = await root.get(`/api/user/?p=${Math.ceil(total / 2)}&page_size=2`);
      expect(lastPage.body.data.items.at(-1).username).toBe(ROOT.username);
    });

    it('searches by id, names and e-mail with LIKE wildcards taken literally', async () => {
      const group = 'vip';
      const ab = await create(root, { username: 'a_b' });
      const axb = await create(root, { username: 'axb' });
      await db().updateTable('users').set({ email: 'searchme@example.com', group }).where('id', '=', axb).execute();

      const search = async (query: string) => (await admin.get(`/api/user/search?${query}`)).body.data;
      let data = await search('keyword=a_b');
      expect(data.items.map((u: { id: number }) => u.id)).toEqual([ab]);
      expect(data.total).toBe(1);
      expect((await search('keyword=%25')).total).toBe(0);
      expect((await search('keyword=_')).items.map((u: { id: number }) => u.id)).toEqual([ab]);
      const pct = await create(root, { username: 'x%y' });
      expect((await search('keyword=%25')).items.map((u: { id: number }) => u.id)).toEqual([pct]);

      expect((await search(`keyword=${axb}`)).items.map((u: { id: number }) => u.id)).toContain(axb);
      expect((await search('keyword=searchme')).items.map((u: { id: number }) => u.id)).toEqual([axb]);
      data = await search(`keyword=&group=${group}`);
      expect(data.items.every((u: { group: string }) => u.group === group)).toBe(true);
      expect(data.items.map((u: { id: number }) => u.id)).toContain(axb);
      expect((await search('keyword=axb&group=default')).total).toBe(0);

      const paged = await search('keyword=&p=2&page_size=1');
      expect(paged.items).toHaveLength(1);
      expect(paged.page).toBe(2);
      expect(paged.total).toBe(await userCount());

      const query = await admin.get('/api/user/query?keyword=a_b');
      expect(query.body.data.map((u: { id: number }) => u.id)).toEqual([ab]);
      const queryAll = await admin.get('/api/user/query');
      expect(queryAll.body.data.length).toBe(Math.min(100, await userCount()));
      expect(JSON.stringify(queryAll.body)).not.toContain('"password"');
    });

    it('reads a user only below the own rank, or oneself', async () => {
      const { id } = await newUser();
      const adminId = admin.userId!;
      const admin2Id = admin2.userId!;
      const rootId = root.userId!;
      expect((await admin.get(`/api/user/${id}`)).body.data.id).toBe(id);
      expect((await admin.get(`/api/user/${adminId}`)).body.data.id).toBe(adminId);
      for (const other of [admin2Id, rootId]) {
        expect((await admin.get(`/api/user/${other}`)).body).toMatchObject({
          success: false,
          message: '无权获取同级或更高等级用户的信息',
        });
      }
      expect((await root.get(`/api/user/${admin2Id}`)).body.data.role).toBe(10);
      expect((await root.get('/api/user/999999')).body).toMatchObject({ success: false, message: '用户不存在' });
      expect((await root.get('/api/user/abc')).body.success).toBe(false);
    });

    it('creates users with the spec rules', async () => {
      const before = await userCount();
      const cases: Array<[ApiClient, Record<string, unknown>, string]> = [
        [admin, { username: '', password: PASSWORD }, '用户名和密码不能为空'],
        [admin, { username: 'nobody' }, '用户名和密码不能为空'],
        [admin, { password: PASSWORD }, '用户名和密码不能为空'],
        [admin, { username: 'abcdefghijklm', password: PASSWORD }, '用户名长度不能超过12个字符'],
        [admin, { username: 'short1', password: 'short' }, '密码长度至少为8个字符'],
        [admin, { username: 'long1', password: 'x'.repeat(21) }, '密码长度不能超过20个字符'],
        [admin, { username: 'adm-made', password: PASSWORD, role: 10 }, '无法创建权限大于等于自己的用户'],
        [admin, { username: 'adm-root', password: PASSWORD, role: 100 }, '无法创建权限大于等于自己的用户'],
        [root, { username: 'root2', password: PASSWORD, role: 100 }, '无法创建权限大于等于自己的用户'],
        [root, { username: 'weird', password: PASSWORD, role: 5 }, '无效的用户角色'],
        [admin, { username: ROOT.username, password: PASSWORD }, '用户名已存在'],
      ];
      for (const [by, body, message] of cases) {
        expect((await by.post('/api/user/', body)).body, JSON.stringify(body)).toMatchObject({ success: false, message });
      }
      expect(await userCount()).toBe(before);

      const res = await admin.post('/api/user/', { username: 'made1', display_name: 'Made One', password: PASSWORD });
      expect(res.body.success).toBe(true);
      expect(res.body.data).toMatchObject({ username: 'made1', display_name: 'Made One', role: 1, status: 1, group: 'default' });
      expect(res.body.data).not.toHaveProperty('password');
      expect((await row(res.body.data.id)).password).not.toBe(PASSWORD);
      expect((await tg.client().login('made1', PASSWORD)).body.success).toBe(true);
    });

    it('edits users and logs quota changes', async () => {
      const { id, username } = await newUser();
      const res = await admin.put('/api/user/', {
        id,
        username: `${username}x`,
        display_name: 'Edited',
        password: '',
        group: 'vip',
        quota: 1_000_000,
        role: 100,
        status: 2,
      });
      expect(res.body.success, res.body.message).toBe(true);
      expect(res.body.data).toMatchObject({
        username: `${username}x`,
        display_name: 'Edited',
        group: 'vip',
        quota: 1_000_000,
        role: 1,
        status: 1,
      });
      expect((await tg.client().login(`${username}x`, PASSWORD)).body.success).toBe(true);

      const logs = await db().selectFrom('logs').selectAll().where('user_id', '=', id).execute();
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatchObject({ type: 3, username: `${username}x` });
      expect(logs[0]!.content).toBe('管理员将用户额度从 $0.000000 修改为 $2.000000');

      const pw = await admin.put('/api/user/', { id, password: 'brand-new-pass' });
      expect(pw.body.success).toBe(true);
      expect((await tg.client().login(`${username}x`, 'brand-new-pass')).body.success).toBe(true);
      // Quota unchanged: no new log row.
      await admin.put('/api/user/', { id, quota: 1_000_000, display_name: 'Again' });
      expect(await db().selectFrom('logs').selectAll().where('user_id', '=', id).execute()).toHaveLength(1);
    });

    it('refuses invalid edits and changes nothing', async () => {
      const { id } = await newUser();
      const other = await newUser();
      const adminId = admin.userId!;
      const before = await row(id);
      const cases: Array<[ApiClient, Record<string, unknown>, string | null]> = [
        [admin, { id, quota: -1 }, '剩余额度不能小于0'],
        [admin, { id, quota: 1.5 }, null],
        [admin, { id, password: 'short' }, '密码长度至少为8个字符'],
        [admin, { id, username: '' }, '用户名不能为空'],
        [admin, { id, username: 'abcdefghijklm' }, '用户名长度不能超过12个字符'],
        [admin, { id, username: other.username }, '用户名已存在'],
        [admin, { id, group: 'nogroup' }, '分组 nogroup 不存在'],
        [admin, { id: admin2.userId, display_name: 'x' }, '无权更新同权限等级或更高权限等级的用户信息'],
        [admin, { id: root.userId, quota: 5 }, '无权更新同权限等级或更高权限等级的用户信息'],
        [admin, { id: adminId, quota: 123 }, '不能修改自己的额度'],
        [admin, { id: adminId, group: 'vip' }, '不能修改自己的分组'],
        [admin, { id: 999999, display_name: 'x' }, '用户不存在'],
        [admin, { display_name: 'x' }, null],
      ];
      for (const [by, body, message] of cases) {
        const r = await by.put('/api/user/', { display_name: 'changed', ...body });
        expect(r.body.success, JSON.stringify(body)).toBe(false);
        if (message) expect(r.body.message).toBe(message);
      }
      expect(await row(id)).toEqual(before);
      expect((await row(admin2.userId!)).display_name).not.toBe('changed');
      expect((await row(adminId)).display_name).not.toBe('changed');
      expect(
        await db().selectFrom('logs').selectAll().where('user_id', 'in', [id, adminId, root.userId!]).execute(),
      ).toHaveLength(0);

      // An admin may edit their own profile fields.
      const self = await admin.put('/api/user/', { id: adminId, display_name: 'Admin Self' });
      expect(self.body.data.display_name).toBe('Admin Self');
    });

    it('applies the manage rules between users, admins and root', async () => {
      const user = await newUser();
      const adminId = admin.userId!;
      const admin2Id = admin2.userId!;
      const rootId = root.userId!;
      const manage = (by: ApiClient, id: number, action: string) => by.post('/api/user/manage', { id, action });
      const refusals: Array<[ApiClient, number, string, string]> = [
        [admin, user.id, 'promote', '普通管理员用户无法提升其他用户为管理员'],
        [admin, user.id, 'demote', '该用户已经是普通用户'],
        [admin, admin2Id, 'disable', '无权更新同权限等级或更高权限等级的用户信息'],
        [admin, admin2Id, 'demote', '无权更新同权限等级或更高权限等级的用户信息'],
        [admin, admin2Id, 'delete', '无权删除同权限等级或更高权限等级的用户'],
        [admin, adminId, 'disable', '无权更新同权限等级或更高权限等级的用户信息'],
        [admin, rootId, 'disable', '无法禁用超级管理员用户'],
        [admin, rootId, 'delete', '无法删除超级管理员用户'],
        [admin, rootId, 'demote', '无法降级超级管理员用户'],
        [root, rootId, 'disable', '无法禁用超级管理员用户'],
        [root, rootId, 'delete', '无法删除超级管理员用户'],
        [root, rootId, 'demote', '无法降级超级管理员用户'],
        [root, rootId, 'promote', '该用户已经是超级管理员'],
        [root, admin2Id, 'promote', '该用户已经是管理员'],
        [root, 999999, 'disable', '用户不存在'],
      ];
      for (const [by, id, action, message] of refusals) {
        expect((await manage(by, id, action)).body, `${action} ${id}`).toMatchObject({ success: false, message });
      }
      expect((await manage(root, user.id, 'explode')).body.success).toBe(false);
      expect(await row(admin2Id)).toMatchObject({ role: 10, status: 1, deleted_at: null });
      expect(await row(rootId)).toMatchObject({ role: 100, status: 1, deleted_at: null });
      expect(await row(user.id)).toMatchObject({ role: 1, status: 1 });

      expect((await manage(admin, user.id, 'disable')).body).toMatchObject({ success: true, data: { status: 2, role: 1 } });
      expect((await manage(admin, user.id, 'enable')).body.data).toEqual({ status: 1, role: 1 });
      // The ban ended the user's session; enabling the account again does not revive it.
      expect((await user.client.get('/api/user/self')).status).toBe(401);
      expect((await user.client.login(user.username, PASSWORD)).body.success).toBe(true);
      expect((await manage(root, user.id, 'promote')).body.data).toEqual({ status: 1, role: 10 });
      expect((await row(user.id)).role).toBe(10);
      // The promoted user now outranks nobody at their level.
      expect((await manage(admin, user.id, 'disable')).body.message).toBe('无权更新同权限等级或更高权限等级的用户信息');
      expect((await user.client.get('/api/user/')).body.success).toBe(true);
      expect((await manage(root, user.id, 'demote')).body.data).toEqual({ status: 1, role: 1 });
      expect((await user.client.get('/api/user/')).body.success).toBe(false);

      expect((await manage(admin, user.id, 'delete')).body.data).toEqual({ status: 1, role: 1 });
      expect((await row(user.id)).deleted_at).toBeGreaterThan(0);
      expect((await user.client.get('/api/user/self')).status).toBe(401);
    });

    it('deletes a user through DELETE /api/user/{id} with the same rules', async () => {
      const { id, client } = await newUser();
      expect((await admin.delete(`/api/user/${admin2.userId}`)).body.message).toBe('无权删除同权限等级或更高权限等级的用户');
      expect((await admin.delete(`/api/user/${root.userId}`)).body.message).toBe('无法删除超级管理员用户');
      expect((await row(admin2.userId!)).deleted_at).toBeNull();
      expect((await admin.delete(`/api/user/${id}`)).body.success).toBe(true);
      expect((await row(id)).deleted_at).toBeGreaterThan(0);
      expect((await client.get('/api/user/self')).status).toBe(401);
      expect((await admin.delete(`/api/user/${id}`)).body.message).toBe('该用户已注销');
    });
  });
});
