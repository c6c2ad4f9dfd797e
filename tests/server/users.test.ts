import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { ROOT, setupRoot, startTestGateway, type ApiClient, type TestGateway } from '../helpers/gateway.js';

const PASSWORD = 'secret-pass-1';

await forEachDatabase('users', (kind) => {
  let tg: TestGateway;
  let root: ApiClient;
  let admin: ApiClient;
  let admin2: ApiClient;
  let seq = 0;

  const db = () => tg.gateway.ctx.db;
  const row = (id: number) => db().selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const userCount = async () =>
    Number(
      (
        await db()
          .selectFrom('users')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** A fresh username of at most 12 characters. */
  const name = (prefix = 'u') => `${prefix}${++seq}`.slice(0, 12);

  async function create(by: ApiClient, body: Record<string, unknown>): Promise<number> {
    const res = await by.post('/api/user/', { password: PASSWORD, ...body });
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ success: true });
    return res.body.data.id as number;
  }

  async function login(username: string, password = PASSWORD): Promise<ApiClient> {
    const client = tg.client();
    const res = await client.login(username, password);
    expect(res.body.success, res.body.message).toBe(true);
    return client;
  }

  /** Creates a user (through root) and returns a client logged in as them. */
  async function newUser(extra: Record<string, unknown> = {}): Promise<{ id: number; username: string; client: ApiClient }> {
    const username = name();
    const id = await create(root, { username, ...extra });
    return { id, username, client: await login(username) };
  }

  beforeAll(async () => {
    tg = await startTestGateway(kind);
    root = await setupRoot(tg);
    const a1 = name('adm');
    const a2 = name('adm');
    await create(root, { username: a1, role: 10 });
    await create(root, { username: a2, role: 10 });
    admin = await login(a1);
    admin2 = await login(a2);
  });
  afterAll(async () => tg?.close());

  describe('authentication', () => {
    it('answers 401 without a session, without New-Api-User and with a mismatching one', async () => {
      const { client, id } = await newUser();
      expect((await tg.client().get('/api/user/self')).status).toBe(401);
      expect((await client.get('/api/user/self', { 'New-Api-User': '' })).status).toBe(401);
      const bare = tg.client();
      bare.cookie = client.cookie;
      expect((await bare.get('/api/user/self')).status).toBe(401);
      expect((await client.get('/api/user/self', { 'New-Api-User': String(id + 1000) })).status).toBe(401);
      expect((await client.get('/api/user/self', { 'New-Api-User': 'abc' })).status).toBe(401);
    });

    it('accepts the system access token in Authorization and rotates it', async () => {
      const { client, id } = await newUser();
      const res = await client.get('/api/user/token');
      expect(res.body.success).toBe(true);
      const token = res.body.data as string;
      expect(token).toMatch(/^[0-9a-f]{32}$/);
      expect((await row(id)).access_token).toBe(token);

      const viaToken = tg.client();
      viaToken.userId = id;
      viaToken.headers.Authorization = token;
      const self = await viaToken.get('/api/user/self');
      expect(self.body.success).toBe(true);
      expect(self.body.data.id).toBe(id);
      expect(self.body.data.has_access_token).toBe(true);
      expect(JSON.stringify(self.body)).not.toContain(token);
      viaToken.headers.Authorization = `Bearer ${token}`;
      expect((await viaToken.get('/api/user/self')).body.success).toBe(true);
      // Without New-Api-User the token alone is not enough.
      viaToken.userId = null;
      expect((await viaToken.get('/api/user/self')).status).toBe(401);

      const rotated = await client.get('/api/user/token');
      expect(rotated.body.data).not.toBe(token);
      viaToken.userId = id;
      expect((await viaToken.get('/api/user/self')).status).toBe(401);
      viaToken.headers.Authorization = rotated.body.data;
      expect((await viaToken.get('/api/user/self')).body.success).toBe(true);
    });

    it('refuses a disabled user at login and on an existing session', async () => {
      const { client, id, username } = await newUser();
      expect((await root.post('/api/user/manage', { id, action: 'disable' })).body.data).toEqual({ status: 2, role: 1 });
      const self = await client.get('/api/user/self');
      expect(self.body.success).toBe(false);
      expect(self.body.data).toBeUndefined();
      expect((await tg.client().login(username, PASSWORD)).body.success).toBe(false);
      expect((await root.post('/api/user/manage', { id, action: 'enable' })).body.data).toEqual({ status: 1, role: 1 });
      expect((await client.get('/api/user/self')).body.success).toBe(true);
      expect((await tg.client().login(username, PASSWORD)).body.success).toBe(true);
    });
  });

  describe('self service', () => {
    it('returns the public user with computed fields and no secrets', async () => {
      const { client, id, username } = await newUser();
      const res = await client.get('/api/user/self');
      expect(res.body.success).toBe(true);
      const data = res.body.data;
      expect(data).toMatchObject({ id, username, display_name: username, role: 1, status: 1, group: 'default', DeletedAt: null });
      expect(data.has_access_token).toBe(false);
      expect(data.settings).toEqual({
        notify_type: 'email',
        quota_warning_threshold: 500000,
        webhook_url: '',
        webhook_secret_set: false,
        notification_email: '',
        accept_unset_model_ratio_model: false,
      });
      expect(data).not.toHaveProperty('password');
      expect(data).not.toHaveProperty('access_token');
      expect(data).not.toHaveProperty('deleted_at');
    });

    it('updates the display name, with length checked', async () => {
      const { client, id, username } = await newUser();
      const res = await client.put('/api/user/self', { display_name: '  New Name  ', username: 'hijack' });
      expect(res.body.success).toBe(true);
      expect(res.body.data.display_name).toBe('New Name');
      expect((await row(id)).username).toBe(username);
      const long = await client.put('/api/user/self', { display_name: 'x'.repeat(21) });
      expect(long.body).toEqual({ success: false, message: '显示名称长度不能超过20个字符' });
      expect((await row(id)).display_name).toBe('New Name');
    });

    it('changes the password only with the right original and a valid new one', async () => {
      const { client, id, username } = await newUser();
      const before = (await row(id)).password;
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ password: 'another-pass-1' }, '原密码错误'],
        [{ original_password: 'wrong-pass-1', password: 'another-pass-1' }, '原密码错误'],
        [{ original_password: PASSWORD, password: 'short' }, '密码长度至少为8个字符'],
        [{ original_password: PASSWORD, password: 'x'.repeat(21) }, '密码长度不能超过20个字符'],
        [{ original_password: PASSWORD, password: PASSWORD }, '新密码不能与原密码相同'],
      ];
      for (const [body, message] of cases) {
        expect((await client.put('/api/user/self', { display_name: 'changed', ...body })).body).toEqual({
          success: false,
          message,
        });
      }
      const unchanged = await row(id);
      expect(unchanged.password).toBe(before);
      expect(unchanged.display_name).toBe(username);

      const res = await client.put('/api/user/self', { original_password: PASSWORD, password: 'another-pass-1' });
      expect(res.body.success).toBe(true);
      expect((await tg.client().login(username, PASSWORD)).body.success).toBe(false);
      expect((await tg.client().login(username, 'another-pass-1')).body.success).toBe(true);
    });

    it('deletes the own account softly and ends the session; root cannot', async () => {
      expect((await root.delete('/api/user/self')).body).toEqual({ success: false, message: '不能删除超级管理员账户' });
      const rootRow = await db()
        .selectFrom('users')
        .select('deleted_at')
        .where('username', '=', ROOT.username)
        .executeTakeFirstOrThrow();
      expect(rootRow.deleted_at).toBeNull();

      const { client, id, username } = await newUser();
      const stale = tg.client();
      stale.cookie = client.cookie;
      stale.userId = id;
      const res = await client.delete('/api/user/self');
      expect(res.body.success).toBe(true);
      expect(res.headers.getSetCookie().join(';')).toMatch(/session=;/);
      expect((await row(id)).deleted_at).toBeGreaterThan(0);
      expect(client.cookie).toBe('');
      expect((await stale.get('/api/user/self')).status).toBe(401);
      expect((await tg.client().login(username, PASSWORD)).body.success).toBe(false);

      const listed = await root.get(`/api/user/search?keyword=${username}`);
      expect(listed.body.data.items).toHaveLength(1);
      expect(listed.body.data.items[0].DeletedAt).toBeGreaterThan(0);
      for (const action of ['enable', 'disable', 'promote', 'demote', 'delete']) {
        expect((await root.post('/api/user/manage', { id, action })).body).toEqual({ success: false, message: '该用户已注销' });
      }
      expect((await root.put('/api/user/', { id, display_name: 'ghost' })).body).toEqual({
        success: false,
        message: '该用户已注销',
      });
    });

    it('returns the invitation code, creating one when missing', async () => {
      const { client, id } = await newUser();
      const res = await client.get('/api/user/aff');
      expect(res.body.data).toBe((await row(id)).aff_code);
      await db().updateTable('users').set({ aff_code: '' }).where('id', '=', id).execute();
      const fresh = await client.get('/api/user/aff');
      expect(fresh.body.data).toMatch(/^[0-9A-F]{8}$/);
      expect((await row(id)).aff_code).toBe(fresh.body.data);
      expect((await client.get('/api/user/aff')).body.data).toBe(fresh.body.data);
    });

    it('transfers invitation earnings with the minimum and balance checked', async () => {
      const { client, id } = await newUser();
      await db().updateTable('users').set({ aff_quota: 1_200_000, quota: 10 }).where('id', '=', id).execute();
      const cases: Array<[unknown, string]> = [
        [499_999, '划转金额最低为$1.00'],
        [1_200_001, '邀请额度不足！'],
      ];
      for (const [quota, message] of cases) {
        expect((await client.post('/api/user/aff_transfer', { quota })).body).toEqual({ success: false, message });
      }
      expect((await client.post('/api/user/aff_transfer', { quota: 500_000.5 })).body.success).toBe(false);
      expect((await client.post('/api/user/aff_transfer', {})).body.success).toBe(false);
      expect(await row(id)).toMatchObject({ aff_quota: 1_200_000, quota: 10 });

      const res = await client.post('/api/user/aff_transfer', { quota: 700_000 });
      expect(res.body).toMatchObject({ success: true, data: { quota: 700_010, aff_quota: 500_000 } });
      expect(await row(id)).toMatchObject({ aff_quota: 500_000, quota: 700_010 });
    });

    it('never overdraws invitation earnings under concurrent transfers', async () => {
      const { client, id } = await newUser();
      const start = { aff_quota: 2_000_000, quota: 123 };
      await db().updateTable('users').set(start).where('id', '=', id).execute();
      const amount = 600_000;
      const results = await Promise.all(
        Array.from({ length: 10 }, () => client.post('/api/user/aff_transfer', { quota: amount })),
      );
      const succeeded = results.filter((r) => r.body.success).length;
      for (const r of results.filter((x) => !x.body.success)) expect(r.body.message).toBe('邀请额度不足！');
      expect(succeeded).toBe(3);
      const after = await row(id);
      expect(after.aff_quota).toBe(2_000_000 - succeeded * amount);
      expect(after.aff_quota).toBeGreaterThanOrEqual(0);
      expect(after.quota + after.aff_quota).toBe(start.quota + start.aff_quota);
    });

    it('stores notification settings and rejects invalid ones without writing', async () => {
      const { client, id } = await newUser();
      const good = {
        notify_type: 'webhook',
        quota_warning_threshold: 100000,
        webhook_url: 'https://hooks.example.com/x',
        webhook_secret: 'hook-secret-value',
        notification_email: 'me@example.com',
        accept_unset_model_ratio_model: true,
      };
      const res = await client.put('/api/user/setting', good);
      expect(res.body.success).toBe(true);
      expect(res.body.data).toEqual({ ...good, webhook_secret: undefined, webhook_secret_set: true });
      const stored = (await row(id)).setting;
      expect(JSON.parse(stored ?? '{}')).toEqual(good);

      const bad: Array<[Record<string, unknown>, string | null]> = [
        [{ webhook_url: 'http://hooks.example.com/x' }, 'Webhook地址必须以https开头'],
        [{ webhook_url: '' }, 'Webhook地址不能为空'],
        [{ notification_email: 'not-an-email' }, '通知邮箱地址无效'],
        [{ quota_warning_threshold: 0 }, '额度预警阈值必须大于0'],
        [{ quota_warning_threshold: -5 }, '额度预警阈值必须大于0'],
        [{ notify_type: 'sms' }, null],
        [{ accept_unset_model_ratio_model: 'perhaps' }, null],
      ];
      for (const [patch, message] of bad) {
        const r = await client.put('/api/user/setting', { ...good, webhook_secret: 'other', ...patch });
        expect(r.body.success).toBe(false);
        if (message) expect(r.body.message).toBe(message);
      }
      expect((await row(id)).setting).toBe(stored);

      // An absent secret keeps the stored one; switching to e-mail does not need a webhook.
      const email = await client.put('/api/user/setting', { notify_type: 'email', quota_warning_threshold: 500000 });
      expect(email.body.success).toBe(true);
      expect(JSON.parse((await row(id)).setting ?? '{}')).toMatchObject({
        notify_type: 'email',
        webhook_secret: 'hook-secret-value',
      });

      // The secret never leaves the server: not in self, not in the admin views.
      for (const r of [
        await client.get('/api/user/self'),
        await root.get(`/api/user/${id}`),
        await root.get(`/api/user/search?keyword=${id}`),
      ]) {
        expect(r.body.success).toBe(true);
        expect(JSON.stringify(r.body)).not.toContain('hook-secret-value');
      }
      expect((await client.get('/api/user/self')).body.data.settings.webhook_secret_set).toBe(true);
    });

    it('lists the models enabled for the user group', async () => {
      const { client } = await newUser();
      expect((await client.get('/api/user/models')).body).toEqual({ success: true, message: '', data: [] });
      await db()
        .insertInto('abilities')
        .values([
          { group: 'default', model: 'model-b', channel_id: 1, enabled: 1 },
          { group: 'default', model: 'model-a', channel_id: 1, enabled: 1 },
          { group: 'default', model: 'model-a', channel_id: 2, enabled: 1 },
          { group: 'default', model: 'model-off', channel_id: 1, enabled: 0 },
          { group: 'vip', model: 'model-vip', channel_id: 1, enabled: 1 },
        ])
        .execute();
      expect((await client.get('/api/user/models')).body.data).toEqual(['model-a', 'model-b']);
      await db().deleteFrom('abilities').execute();
    });

    it('lists usable groups with ratios, including the user own group', async () => {
      const { client } = await newUser();
      const res = await client.get('/api/user/self/groups');
      expect(res.body.data).toEqual({ default: { desc: '默认分组', ratio: 1 }, vip: { desc: 'vip分组', ratio: 1 } });

      expect(
        (await root.put('/api/option/', { key: 'GroupRatio', value: '{"default":1,"vip":1.5,"svip":2}' })).body.success,
      ).toBe(true);
      const svip = await newUser({});
      expect((await root.put('/api/user/', { id: svip.id, group: 'svip' })).body.success).toBe(true);
      const groups = (await svip.client.get('/api/user/self/groups')).body.data;
      expect(groups).toEqual({
        default: { desc: '默认分组', ratio: 1 },
        vip: { desc: 'vip分组', ratio: 1.5 },
        svip: { desc: '用户分组', ratio: 2 },
      });
      expect((await admin.get('/api/group/')).body.data).toEqual(['default', 'vip', 'svip']);
      expect((await client.get('/api/group/')).body.success).toBe(false);
    });
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
        expect(res.body).toEqual({ success: false, message: '无权进行此操作，权限不足' });
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
        expect((await admin.get(`/api/user/${other}`)).body).toEqual({
          success: false,
          message: '无权获取同级或更高等级用户的信息',
        });
      }
      expect((await root.get(`/api/user/${admin2Id}`)).body.data.role).toBe(10);
      expect((await root.get('/api/user/999999')).body).toEqual({ success: false, message: '用户不存在' });
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
        expect((await by.post('/api/user/', body)).body, JSON.stringify(body)).toEqual({ success: false, message });
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
        expect((await manage(by, id, action)).body, `${action} ${id}`).toEqual({ success: false, message });
      }
      expect((await manage(root, user.id, 'explode')).body.success).toBe(false);
      expect(await row(admin2Id)).toMatchObject({ role: 10, status: 1, deleted_at: null });
      expect(await row(rootId)).toMatchObject({ role: 100, status: 1, deleted_at: null });
      expect(await row(user.id)).toMatchObject({ role: 1, status: 1 });

      expect((await manage(admin, user.id, 'disable')).body).toMatchObject({ success: true, data: { status: 2, role: 1 } });
      expect((await manage(admin, user.id, 'enable')).body.data).toEqual({ status: 1, role: 1 });
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
