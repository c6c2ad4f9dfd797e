/**
 * The user API for the user themself, on every database: sessions, New-Api-User and access tokens,
 * disabled users, and the self-service calls (profile, password, deregistration, invitations,
 * notification settings, models and groups).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { ROOT, type ApiClient, type TestGateway } from '../helpers/gateway.js';
import { PASSWORD } from '../helpers/users.js';
import { usersFixture } from '../helpers/users-fixture.js';

await forEachDatabase('users', (kind) => {
  const fx = usersFixture(kind);
  const { db, row, newUser } = fx;
  let tg: TestGateway;
  let root: ApiClient;
  let admin: ApiClient;
  beforeAll(() => {
    ({ tg, root, admin } = fx);
  });

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
      // The ban ended the session for good; a new login works once the account is enabled.
      expect((await client.get('/api/user/self')).status).toBe(401);
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
      expect(long.body).toMatchObject({ success: false, message: '显示名称长度不能超过20个字符' });
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
        expect((await client.put('/api/user/self', { display_name: 'changed', ...body })).body).toMatchObject({
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
      expect((await root.delete('/api/user/self')).body).toMatchObject({ success: false, message: '不能删除超级管理员账户' });
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
      expect(Date.parse(listed.body.data.items[0].DeletedAt)).toBeGreaterThan(Date.now() - 60_000);
      for (const action of ['enable', 'disable', 'promote', 'demote', 'delete']) {
        expect((await root.post('/api/user/manage', { id, action })).body).toMatchObject({
          success: false,
          message: '该用户已注销',
        });
      }
      expect((await root.put('/api/user/', { id, display_name: 'ghost' })).body).toMatchObject({
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
        expect((await client.post('/api/user/aff_transfer', { quota })).body).toMatchObject({ success: false, message });
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
});
