/**
 * Personal settings against the real gateway: the notification and price settings (PUT
 * /api/user/setting, stored in users.setting and read by the relay), and e-mail binding with a
 * code mailed through a real local SMTP listener.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import type { ApiClient, TestGateway } from '../helpers/gateway.js';
import { mailGateway } from '../helpers/mail-gateway.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { codeOf, type TestSmtp } from '../helpers/smtp.js';

const PASSWORD = 'secret-pass-1';
const CODE_INVALID = '验证码错误或已过期';
const TAKEN = '邮箱地址已被占用';
const NOT_WHITELISTED = '管理员启用了邮箱域名白名单，您的邮箱地址的域名不在白名单中';
const ALIAS_REFUSED = '管理员已启用邮箱地址别名限制，您的邮箱地址由于包含特殊符号而被拒绝。';

/** Options a test may change; put back after each test. */
const RESET_OPTIONS: Record<string, string> = {
  EmailDomainRestrictionEnabled: 'false',
  EmailAliasRestrictionEnabled: 'false',
  EmailDomainWhitelist: '',
  TurnstileCheckEnabled: 'false',
};

await forEachDatabase('personal settings', (kind) => {
  const gw = mailGateway(kind, RESET_OPTIONS);
  const { setOption } = gw;
  let tg: TestGateway;
  let smtp: TestSmtp;
  let root: ApiClient;
  beforeAll(() => {
    ({ tg, smtp, root } = gw);
  });
  let seq = 0;

  const db = () => tg.gateway.ctx.db;
  const row = (id: number) => db().selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  async function newUser(): Promise<{ id: number; client: ApiClient }> {
    const username = `ps${++seq}`;
    const created = await root.post('/api/user/', { username, password: PASSWORD });
    expect(created.body.success, created.body.message).toBe(true);
    const client = tg.client();
    const login = await client.login(username, PASSWORD);
    expect(login.body.success, login.body.message).toBe(true);
    return { id: login.body.data.id as number, client };
  }

  /** Asks for a code for `email` as `client` and returns the mailed code. */
  async function mailedCode(client: ApiClient, email: string): Promise<string> {
    const sent = smtp.messages.length;
    const res = await client.get(`/api/verification?email=${encodeURIComponent(email)}`);
    expect(res.body, `code for ${email}`).toEqual({ success: true, message: '' });
    return codeOf(await smtp.waitFor(email.trim().toLowerCase(), { after: sent }));
  }

  const bind = (client: ApiClient, email: string, code: string) =>
    client.get(`/api/oauth/email/bind?email=${encodeURIComponent(email)}&code=${encodeURIComponent(code)}`);

  describe('notification and price settings', () => {
    const good = {
      notify_type: 'webhook',
      quota_warning_threshold: 1_000_000,
      webhook_url: 'https://hooks.example.com/gateway?team=1',
      webhook_secret: 'whsec-personal-1',
      notification_email: 'alerts@example.com',
      accept_unset_model_ratio_model: true,
    };

    it('stores the spec field names in users.setting and shows them without the secret', async () => {
      const { id, client } = await newUser();
      const before = await client.get('/api/user/self');
      expect(before.body.data.settings).toEqual({
        notify_type: 'email',
        quota_warning_threshold: 500_000,
        webhook_url: '',
        webhook_secret_set: false,
        notification_email: '',
        accept_unset_model_ratio_model: false,
      });

      const res = await client.put('/api/user/setting', good);
      expect(res.body.success, res.body.message).toBe(true);
      expect(JSON.parse((await row(id)).setting ?? '')).toEqual(good);
      const self = await client.get('/api/user/self');
      const { webhook_secret: _secret, ...shown } = good;
      expect(self.body.data.settings).toEqual({ ...shown, webhook_secret_set: true });
      expect(JSON.stringify(self.body)).not.toContain('whsec-personal-1');
      expect(JSON.parse(self.body.data.setting)).not.toHaveProperty('webhook_secret');

      // A fractional threshold is rounded up to whole quota; an absent secret is kept.
      const email = await client.put('/api/user/setting', {
        notify_type: 'email',
        quota_warning_threshold: 100_000.2,
        webhook_url: good.webhook_url,
        notification_email: '',
      });
      expect(email.body.success, email.body.message).toBe(true);
      expect(JSON.parse((await row(id)).setting ?? '')).toEqual({
        ...good,
        notify_type: 'email',
        quota_warning_threshold: 100_001,
        notification_email: '',
      });
    });

    it('refuses bad values with a clear message and changes nothing', async () => {
      const { id, client } = await newUser();
      expect((await client.put('/api/user/setting', good)).body.success).toBe(true);
      const stored = (await row(id)).setting;

      const refused: Array<[Record<string, unknown>, string]> = [
        [{ webhook_url: 'http://hooks.example.com/x' }, 'Webhook地址必须以https开头'],
        [{ webhook_url: 'https://' }, 'Webhook地址必须以https开头'],
        [{ webhook_url: 'hooks.example.com/x' }, 'Webhook地址必须以https开头'],
        [{ webhook_url: 'https://user:pw@hooks.example.com/x' }, 'Webhook地址必须以https开头'],
        [{ webhook_url: '   ' }, 'Webhook地址不能为空'],
        // E-mail notifications do not need a webhook, but a given one must still be valid.
        [{ notify_type: 'email', webhook_url: 'ftp://hooks.example.com' }, 'Webhook地址必须以https开头'],
        [{ notification_email: 'not-an-address' }, '通知邮箱地址无效'],
        [{ quota_warning_threshold: 0 }, '额度预警阈值必须大于0'],
        [{ quota_warning_threshold: -100 }, '额度预警阈值必须大于0'],
        [{ quota_warning_threshold: 1e300 }, '额度预警阈值过大'],
      ];
      for (const [patch, message] of refused) {
        const res = await client.put('/api/user/setting', { ...good, webhook_secret: 'changed', ...patch });
        expect(res.body, JSON.stringify(patch)).toMatchObject({ success: false, message });
      }
      // Wrong types and unknown notify types are refused by the schema.
      for (const patch of [
        { notify_type: 'sms' },
        { quota_warning_threshold: 'lots' },
        { accept_unset_model_ratio_model: 'maybe' },
        { webhook_url: `https://hooks.example.com/${'x'.repeat(600)}` },
      ]) {
        const res = await client.put('/api/user/setting', { ...good, webhook_secret: 'changed', ...patch });
        expect(res.body.success, JSON.stringify(patch)).toBe(false);
        expect(res.body.message).not.toBe('');
      }
      expect((await row(id)).setting).toBe(stored);
    });

    it('needs a signed-in user', async () => {
      expect((await tg.client().put('/api/user/setting', good)).status).toBe(401);
    });
  });

  describe('e-mail binding', () => {
    it('binds the address once the mailed code is given, and refuses a wrong one', async () => {
      const { id, client } = await newUser();
      const code = await mailedCode(client, ' Binder.One@Example.COM ');
      const wrong = code === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA';
      expect((await bind(client, 'binder.one@example.com', wrong)).body).toMatchObject({ success: false, message: CODE_INVALID });
      expect((await row(id)).email).toBe('');

      const res = await bind(client, 'Binder.One@example.com', code.toLowerCase());
      expect(res.body).toEqual({ success: true, message: '绑定成功！', data: 'binder.one@example.com' });
      expect((await row(id)).email).toBe('binder.one@example.com');
      expect((await client.get('/api/user/self')).body.data.email).toBe('binder.one@example.com');
      // The code is used up.
      expect((await bind(client, 'binder.one@example.com', code)).body).toMatchObject({ success: false, message: CODE_INVALID });
    });

    it('lets a user replace the bound address', async () => {
      const { id, client } = await newUser();
      await bind(client, 'first.addr@example.com', await mailedCode(client, 'first.addr@example.com'));
      expect((await row(id)).email).toBe('first.addr@example.com');
      const res = await bind(client, 'second.addr@example.com', await mailedCode(client, 'second.addr@example.com'));
      expect(res.body.success, res.body.message).toBe(true);
      expect((await row(id)).email).toBe('second.addr@example.com');
    });

    it('needs both fields and a signed-in user', async () => {
      const { id, client } = await newUser();
      expect((await client.get('/api/oauth/email/bind?email=x@example.com')).body).toMatchObject({
        success: false,
        message: '请输入邮箱地址和验证码',
      });
      expect((await client.get('/api/oauth/email/bind?code=ABCDEF')).body.success).toBe(false);
      expect((await bind(client, 'not-an-address', 'ABCDEF')).body).toMatchObject({ success: false, message: '无效的邮箱地址' });
      expect((await tg.client().get('/api/oauth/email/bind?email=x@example.com&code=ABCDEF')).status).toBe(401);
      expect((await row(id)).email).toBe('');
    });

    it('refuses an address bound to another user, when sending and when binding', async () => {
      const holder = await newUser();
      const other = await newUser();
      await bind(holder.client, 'shared@example.com', await mailedCode(holder.client, 'shared@example.com'));
      expect((await row(holder.id)).email).toBe('shared@example.com');

      const sent = smtp.messages.length;
      const send = await other.client.get('/api/verification?email=SHARED@example.com');
      expect(send.body).toMatchObject({ success: false, message: TAKEN });
      expect(smtp.messages.length).toBe(sent);

      // The address is taken after the code was mailed (e.g. by a registration in between).
      const code = await mailedCode(other.client, 'later@example.com');
      await db().updateTable('users').set({ email: 'later@example.com' }).where('id', '=', holder.id).execute();
      expect((await bind(other.client, 'later@example.com', code)).body).toMatchObject({ success: false, message: TAKEN });
      expect((await row(other.id)).email).toBe('');
      // A deregistered holder no longer blocks the address; the refused attempt did not use up the code.
      await db().updateTable('users').set({ deleted_at: 1 }).where('id', '=', holder.id).execute();
      expect((await bind(other.client, 'later@example.com', code)).body.success).toBe(true);
      expect((await row(other.id)).email).toBe('later@example.com');
    });

    it('honours the domain whitelist and the alias rule', async () => {
      const { id, client } = await newUser();
      // A code mailed before the whitelist was turned on does not get around it.
      const early = await mailedCode(client, 'early@example.com');
      await setOption('EmailDomainWhitelist', 'corp.test');
      await setOption('EmailDomainRestrictionEnabled', true);
      await setOption('EmailAliasRestrictionEnabled', true);

      const sent = smtp.messages.length;
      expect((await client.get('/api/verification?email=someone@example.com')).body).toMatchObject({
        success: false,
        message: NOT_WHITELISTED,
      });
      expect((await client.get('/api/verification?email=me%2Btag@corp.test')).body).toMatchObject({
        success: false,
        message: ALIAS_REFUSED,
      });
      expect(smtp.messages.length).toBe(sent);
      expect((await bind(client, 'early@example.com', early)).body).toMatchObject({ success: false, message: NOT_WHITELISTED });
      expect((await row(id)).email).toBe('');

      const res = await bind(client, 'me@corp.test', await mailedCode(client, 'me@corp.test'));
      expect(res.body.success, res.body.message).toBe(true);
      expect((await row(id)).email).toBe('me@corp.test');
    });

    it('asks for the bot check on the code request when it is on', async () => {
      const { client } = await newUser();
      await setOption('TurnstileSiteKey', 'site-key');
      await setOption('TurnstileSecretKey', 'secret');
      await setOption('TurnstileCheckEnabled', true);
      expect((await client.get('/api/verification?email=bot@example.com')).body).toMatchObject({
        success: false,
        message: 'Turnstile token 为空',
      });
    });
  });
});

describe('price setting in the relay (sqlite)', () => {
  let fx: RelayFixture;

  beforeAll(async () => {
    fx = await startRelayFixture('sqlite');
    await fx.addChannel({ name: 'unpriced', models: 'unpriced-model' });
  });
  afterAll(async () => fx?.close());

  const call = () =>
    fx.openai().chat.completions.create({ model: 'unpriced-model', messages: [{ role: 'user', content: 'hi' }] });
  const setAccept = async (accept: boolean) => {
    const res = await fx.user.put('/api/user/setting', {
      notify_type: 'email',
      quota_warning_threshold: 500_000,
      accept_unset_model_ratio_model: accept,
    });
    expect(res.body.success, res.body.message).toBe(true);
  };

  it('refuses an unpriced model until the user accepts unset prices, at once after each change', async () => {
    await expect(call()).rejects.toThrow(/unpriced-model/);
    await setAccept(true);
    const answer = await call();
    expect(answer.choices[0]?.message).toBeTruthy();
    await setAccept(false);
    await expect(call()).rejects.toThrow(/ratio or price not set/);
  });
});
