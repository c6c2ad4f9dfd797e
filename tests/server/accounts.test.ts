import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyTurnstile } from '../../server/accounts/turnstile.js';
import { randomBytes } from 'node:crypto';
import { REDIS_URL, forEachDatabase, redisAvailable } from '../helpers/databases.js';
import { setupRoot, startTestGateway, type ApiClient, type TestGateway } from '../helpers/gateway.js';
import { mailGateway, SMTP_ACCOUNT } from '../helpers/mail-gateway.js';
import { codeOf, type ReceivedMail, type TestSmtp } from '../helpers/smtp.js';

const PASSWORD = 'secret-pass-1';
const LINK_INVALID = '重置链接非法或已过期';
const CODE_INVALID = '验证码错误或已过期';

/** Options a test may change; put back after each test. */
const RESET_OPTIONS: Record<string, string> = {
  RegisterEnabled: 'true',
  PasswordRegisterEnabled: 'true',
  EmailVerificationEnabled: 'false',
  EmailDomainRestrictionEnabled: 'false',
  EmailAliasRestrictionEnabled: 'false',
  TurnstileCheckEnabled: 'false',
  QuotaForNewUser: '0',
  QuotaForInvitee: '0',
  QuotaForInviter: '0',
  ServerAddress: '',
};

function linkOf(mail: ReceivedMail): URL {
  const href = /href="([^"]+)"/.exec(mail.body)?.[1];
  if (!href) throw new Error(`no link in mail: ${mail.body}`);
  return new URL(href.replace(/&#38;/g, '&'));
}

await forEachDatabase('accounts: registration and recovery', (kind) => {
  const gw = mailGateway(kind, RESET_OPTIONS);
  const { setOption } = gw;
  let tg: TestGateway;
  let smtp: TestSmtp;
  beforeAll(() => {
    ({ tg, smtp } = gw);
  });

  const db = () => tg.gateway.ctx.db;
  const userCount = async () => (await db().selectFrom('users').select('id').execute()).length;
  const userNamed = (username: string) =>
    db().selectFrom('users').selectAll().where('username', '=', username).executeTakeFirstOrThrow();

  function register(body: Record<string, unknown>, path = '/api/user/register') {
    return tg.client().post(path, body);
  }

  const signUp = (username: string, extra: Record<string, unknown> = {}) =>
    register({ username, password: PASSWORD, password2: PASSWORD, ...extra });

  it('registers a user who can then log in', async () => {
    const res = await signUp('alice');
    expect(res.body).toEqual({ success: true, message: '' });
    const row = await userNamed('alice');
    expect(row).toMatchObject({
      role: 1,
      status: 1,
      quota: 0,
      inviter_id: 0,
      email: '',
      group: 'default',
      display_name: 'alice',
    });
    expect(row.password).not.toContain(PASSWORD);
    expect(row.aff_code).toMatch(/^[0-9A-F]{8}$/);

    const c = tg.client();
    const login = await c.login('alice', PASSWORD);
    expect(login.body.success).toBe(true);
    expect(login.body.data.username).toBe('alice');
    expect(login.body.data).not.toHaveProperty('password');
  });

  it('counts username length in characters (12 CJK characters fit)', async () => {
    const name = '注册用户名字十二个字符';
    expect([...name].length).toBe(11);
    const twelve = `${name}甲`;
    expect((await signUp(twelve)).body.success).toBe(true);
    expect((await userNamed(twelve)).username).toBe(twelve);
    expect((await signUp(`${twelve}乙`)).body).toMatchObject({ success: false, message: '用户名长度不能超过12个字符' });
  });

  it('refuses bad input with the spec messages and writes nothing', async () => {
    const before = await userCount();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ username: '', password: PASSWORD, password2: PASSWORD }, '用户名不能为空'],
      [{ username: '   ', password: PASSWORD, password2: PASSWORD }, '用户名不能为空'],
      [{ username: 'abcdefghijklm', password: PASSWORD, password2: PASSWORD }, '用户名长度不能超过12个字符'],
      [{ username: 'a b', password: PASSWORD, password2: PASSWORD }, '用户名不能包含空白或控制字符'],
      [{ username: 'shortpw', password: 'abc1234', password2: 'abc1234' }, '密码长度至少为8个字符'],
      [{ username: 'longpw', password: 'a'.repeat(21), password2: 'a'.repeat(21) }, '密码长度不能超过20个字符'],
      [{ username: 'mismatch', password: PASSWORD, password2: `${PASSWORD}x` }, '两次输入的密码不一致'],
      [{ username: 'nopw2', password: PASSWORD }, '两次输入的密码不一致'],
    ];
    for (const [body, message] of cases) {
      const res = await register(body);
      expect(res.status).toBe(200);
      expect(res.body, JSON.stringify(body)).toMatchObject({ success: false, message });
    }
    // Exactly 8 and exactly 20 are allowed.
    expect((await register({ username: 'pw8', password: 'abcdefgh', password2: 'abcdefgh' })).body.success).toBe(true);
    expect((await register({ username: 'pw20', password: 'a'.repeat(20), password2: 'a'.repeat(20) })).body.success).toBe(true);
    expect(await userCount()).toBe(before + 2);
  });

  it('refuses a username that exists or belonged to a deregistered user', async () => {
    expect((await signUp('dupe')).body.success).toBe(true);
    const before = await userCount();
    expect((await signUp('dupe')).body).toMatchObject({ success: false, message: '用户名已存在，或已注销' });
    expect((await signUp('gone')).body.success).toBe(true);
    await db().updateTable('users').set({ deleted_at: 1_700_000_000 }).where('username', '=', 'gone').execute();
    expect((await signUp('gone')).body).toMatchObject({ success: false, message: '用户名已存在，或已注销' });
    expect(await userCount()).toBe(before + 1);
  });

  it('honours the registration switches', async () => {
    const before = await userCount();
    await setOption('RegisterEnabled', false);
    expect((await signUp('closed1')).body).toMatchObject({ success: false, message: '管理员关闭了新用户注册' });
    await setOption('RegisterEnabled', true);
    await setOption('PasswordRegisterEnabled', false);
    expect((await signUp('closed2')).body).toMatchObject({
      success: false,
      message: '管理员关闭了通过密码进行注册，请使用第三方账户验证的形式进行注册',
    });
    expect(await userCount()).toBe(before);
  });

  it('verifies the e-mail address with a mailed one-time code', async () => {
    await setOption('EmailVerificationEnabled', true);
    const before = await userCount();
    expect((await signUp('bob')).body).toMatchObject({ success: false, message: '管理员开启了邮箱验证，请输入邮箱地址和验证码' });
    expect((await tg.client().get('/api/verification?email=not-an-email')).body).toMatchObject({
      success: false,
      message: '无效的邮箱地址',
    });

    const sent = smtp.messages.length;
    const ask = await tg.client().get(`/api/verification?email=${encodeURIComponent(' Bob@Example.com ')}`);
    expect(ask.body).toEqual({ success: true, message: '' });
    const mail = await smtp.waitFor('bob@example.com', { after: sent });
    expect(mail.user).toBe(SMTP_ACCOUNT);
    expect(mail.from).toBe(SMTP_ACCOUNT);
    expect(mail.subject).toContain('AI Gateway');
    expect(mail.body).toContain('10 分钟');
    const code = codeOf(mail);

    const wrong = code === 'ZZZZZZ' ? 'YYYYYY' : 'ZZZZZZ';
    expect((await signUp('bob', { email: 'bob@example.com', verification_code: wrong })).body).toMatchObject({
      success: false,
      message: CODE_INVALID,
    });
    expect(await userCount()).toBe(before);

    // Case and spaces are forgiven; the address is stored normalised.
    const ok = await signUp('bob', { email: 'BOB@example.com', verification_code: ` ${code.toLowerCase()} ` });
    expect(ok.body).toEqual({ success: true, message: '' });
    expect((await userNamed('bob')).email).toBe('bob@example.com');

    // The address is now bound: no second code, no second account.
    const count = smtp.messages.length;
    expect((await tg.client().get('/api/verification?email=bob@example.com')).body).toMatchObject({
      success: false,
      message: '邮箱地址已被占用',
    });
    expect((await signUp('bob2', { email: 'bob@example.com', verification_code: code })).body).toMatchObject({
      success: false,
      message: '邮箱地址已被占用',
    });
    expect(smtp.messages.length).toBe(count);

    // Free the address again: the used code still does not work a second time.
    await db().updateTable('users').set({ deleted_at: 1_700_000_000 }).where('username', '=', 'bob').execute();
    expect((await signUp('bob3', { email: 'bob@example.com', verification_code: code })).body).toMatchObject({
      success: false,
      message: CODE_INVALID,
    });
    expect(await userCount()).toBe(before + 1);
  });

  it('voids a code after repeated wrong guesses and only keeps the latest code', async () => {
    await setOption('EmailVerificationEnabled', true);
    let sent = smtp.messages.length;
    await tg.client().get('/api/verification?email=erin@example.com');
    const first = codeOf(await smtp.waitFor('erin@example.com', { after: sent }));
    sent = smtp.messages.length;
    await tg.client().get('/api/verification?email=erin@example.com');
    const second = codeOf(await smtp.waitFor('erin@example.com', { after: sent }));
    if (first !== second) {
      expect((await signUp('erin', { email: 'erin@example.com', verification_code: first })).body.message).toBe(CODE_INVALID);
    }
    const wrong = second === 'ZZZZZZ' ? 'YYYYYY' : 'ZZZZZZ';
    for (let i = 0; i < 5; i++) {
      expect((await signUp('erin', { email: 'erin@example.com', verification_code: wrong })).body.message).toBe(CODE_INVALID);
    }
    expect((await signUp('erin', { email: 'erin@example.com', verification_code: second })).body.message).toBe(CODE_INVALID);
    expect(await db().selectFrom('users').select('id').where('username', '=', 'erin').executeTakeFirst()).toBeUndefined();
  });

  it('ignores an unverified e-mail address when verification is off', async () => {
    expect((await signUp('nomail', { email: 'nomail@example.com', verification_code: 'XXXXXX' })).body.success).toBe(true);
    expect((await userNamed('nomail')).email).toBe('');
  });

  it('applies the domain whitelist and the alias restriction', async () => {
    await setOption('EmailDomainWhitelist', 'example.com, corp.test');
    await setOption('EmailDomainRestrictionEnabled', true);
    let sent = smtp.messages.length;
    expect((await tg.client().get('/api/verification?email=x@gmail.com')).body).toMatchObject({
      success: false,
      message: '管理员启用了邮箱域名白名单，您的邮箱地址的域名不在白名单中',
    });
    expect((await tg.client().get('/api/verification?email=x@sub.corp.test')).body.success).toBe(false);
    expect(smtp.messages.length).toBe(sent);
    expect((await tg.client().get('/api/verification?email=x@Corp.Test')).body.success).toBe(true);
    await smtp.waitFor('x@corp.test', { after: sent });

    await setOption('EmailDomainRestrictionEnabled', false);
    await setOption('EmailAliasRestrictionEnabled', true);
    sent = smtp.messages.length;
    const aliasRefused = { success: false, message: '管理员已启用邮箱地址别名限制，您的邮箱地址由于包含特殊符号而被拒绝。' };
    expect((await tg.client().get(`/api/verification?email=${encodeURIComponent('a+tag@example.com')}`)).body).toMatchObject(
      aliasRefused,
    );
    expect((await tg.client().get('/api/verification?email=first.last@gmail.com')).body).toMatchObject(aliasRefused);
    expect(smtp.messages.length).toBe(sent);
    expect((await tg.client().get('/api/verification?email=first.last@example.com')).body.success).toBe(true);
    await smtp.waitFor('first.last@example.com', { after: sent });

    // Off again: the plus address is fine.
    await setOption('EmailAliasRestrictionEnabled', false);
    expect((await tg.client().get(`/api/verification?email=${encodeURIComponent('a+tag@example.com')}`)).body.success).toBe(true);

    // A code mailed before the whitelist was turned on does not register the address after.
    await setOption('EmailVerificationEnabled', true);
    sent = smtp.messages.length;
    expect((await tg.client().get('/api/verification?email=late@gmail.com')).body.success).toBe(true);
    const code = codeOf(await smtp.waitFor('late@gmail.com', { after: sent }));
    await setOption('EmailDomainRestrictionEnabled', true);
    expect((await signUp('late', { email: 'late@gmail.com', verification_code: code })).body).toMatchObject({
      success: false,
      message: '管理员启用了邮箱域名白名单，您的邮箱地址的域名不在白名单中',
    });
    await setOption('EmailDomainRestrictionEnabled', false);
    await setOption('EmailVerificationEnabled', false);
  });

  it('pays the new-user and invitation rewards', async () => {
    await setOption('QuotaForNewUser', 1000);
    await setOption('QuotaForInvitee', 300);
    await setOption('QuotaForInviter', 500);
    expect((await signUp('inviter')).body.success).toBe(true);
    const inviter = await userNamed('inviter');
    expect(inviter).toMatchObject({ quota: 1000, aff_count: 0, aff_quota: 0, aff_history_quota: 0 });

    expect((await signUp('invitee1', { aff_code: inviter.aff_code })).body.success).toBe(true);
    expect((await signUp('invitee2', { aff_code: ` ${inviter.aff_code} ` })).body.success).toBe(true);
    expect((await signUp('stranger', { aff_code: 'NOSUCHCODE' })).body.success).toBe(true);

    expect(await userNamed('invitee1')).toMatchObject({ quota: 1300, inviter_id: inviter.id });
    expect(await userNamed('invitee2')).toMatchObject({ quota: 1300, inviter_id: inviter.id });
    expect(await userNamed('stranger')).toMatchObject({ quota: 1000, inviter_id: 0 });
    // Inviter rewards wait in aff_quota until transferred; the balance itself is untouched.
    expect(await userNamed('inviter')).toMatchObject({ quota: 1000, aff_count: 2, aff_quota: 1000, aff_history_quota: 1000 });

    const logs = await db()
      .selectFrom('logs')
      .select(['user_id', 'type', 'quota'])
      .where('user_id', 'in', [inviter.id, (await userNamed('invitee1')).id])
      .orderBy('id')
      .execute();
    expect(logs).toEqual([
      { user_id: inviter.id, type: 4, quota: 1000 },
      { user_id: (await userNamed('invitee1')).id, type: 4, quota: 1000 },
      { user_id: (await userNamed('invitee1')).id, type: 4, quota: 300 },
      { user_id: inviter.id, type: 4, quota: 500 },
      { user_id: inviter.id, type: 4, quota: 500 },
    ]);
  });

  it('resets a forgotten password through the mailed link', async () => {
    expect((await signUp('frank')).body.success).toBe(true);
    await db().updateTable('users').set({ email: 'Frank@Example.com' }).where('username', '=', 'frank').execute();
    const signedIn = tg.client();
    expect((await signedIn.login('frank', PASSWORD)).body.success).toBe(true);

    expect((await tg.client().get('/api/reset_password?email=nobody@example.com')).body).toMatchObject({
      success: false,
      message: '该邮箱地址未注册',
    });

    let sent = smtp.messages.length;
    expect((await tg.client().get('/api/reset_password?email=frank@example.com')).body).toEqual({ success: true, message: '' });
    const stale = linkOf(await smtp.waitFor('frank@example.com', { after: sent }));
    sent = smtp.messages.length;
    expect((await tg.client().get('/api/reset_password?email=frank@example.com')).body.success).toBe(true);
    const mail = await smtp.waitFor('frank@example.com', { after: sent });
    expect(mail.subject).toContain('AI Gateway');
    expect(mail.body).toContain('15 分钟');
    const link = linkOf(mail);
    // Without ServerAddress the link points at the address the request came to.
    expect(link.origin).toBe(tg.url);
    expect(link.pathname).toBe('/user/reset');
    const email = link.searchParams.get('email')!;
    const token = link.searchParams.get('token')!;
    expect(email).toBe('frank@example.com');
    expect(token).toMatch(/^[0-9a-f]{32}$/);

    const c = tg.client();
    // Only the latest link works; a wrong token does not burn the right one.
    if (stale.searchParams.get('token') !== token) {
      expect((await c.post('/api/user/reset', { email, token: stale.searchParams.get('token') })).body).toMatchObject({
        success: false,
        message: LINK_INVALID,
      });
    }
    expect((await c.post('/api/user/reset', { email, token: 'f'.repeat(32) })).body).toMatchObject({
      success: false,
      message: LINK_INVALID,
    });
    expect((await c.post('/api/user/reset', { email: 'other@example.com', token })).body).toMatchObject({
      success: false,
      message: LINK_INVALID,
    });

    const reset = await c.post('/api/user/reset', { email, token });
    expect(reset.body.success).toBe(true);
    const newPassword: string = reset.body.data;
    expect(newPassword).toMatch(/^[A-Za-z0-9]{12}$/);
    // The reset ended the session opened with the old password.
    expect((await signedIn.get('/api/user/self')).body).toMatchObject({ success: false, code: 'auth.session_expired' });

    expect((await tg.client().login('frank', PASSWORD)).body).toMatchObject({
      success: false,
      message: '用户名或密码错误，或用户已被封禁',
    });
    expect((await tg.client().login('frank', newPassword)).body.success).toBe(true);
    expect((await c.post('/api/user/reset', { email, token })).body).toMatchObject({ success: false, message: LINK_INVALID });
    expect((await tg.client().login('frank', newPassword)).body.success).toBe(true);
  });

  it('builds the reset link on ServerAddress when set', async () => {
    expect((await signUp('grace')).body.success).toBe(true);
    await db().updateTable('users').set({ email: 'grace@example.com' }).where('username', '=', 'grace').execute();
    await setOption('ServerAddress', 'https://gw.example.com/');
    const sent = smtp.messages.length;
    expect((await tg.client().get('/api/reset_password?email=grace@example.com')).body.success).toBe(true);
    const link = linkOf(await smtp.waitFor('grace@example.com', { after: sent }));
    expect(`${link.origin}${link.pathname}`).toBe('https://gw.example.com/user/reset');
  });

  it('asks for a Turnstile token on login, register, verification and reset when the check is on', async () => {
    await setOption('TurnstileSiteKey', 'site-key');
    await setOption('TurnstileSecretKey', 'secret-key');
    await setOption('TurnstileCheckEnabled', true);
    const empty = { success: false, message: 'Turnstile token 为空' };
    const c = tg.client();
    expect((await c.post('/api/user/login', { username: 'alice', password: PASSWORD })).body).toMatchObject(empty);
    expect((await c.post('/api/user/login?turnstile=', { username: 'alice', password: PASSWORD })).body).toMatchObject(empty);
    expect((await c.post('/api/user/register', { username: 'tt', password: PASSWORD, password2: PASSWORD })).body).toMatchObject(
      empty,
    );
    expect((await c.get('/api/verification?email=tt@example.com')).body).toMatchObject(empty);
    expect((await c.get('/api/reset_password?email=frank@example.com')).body).toMatchObject(empty);
    expect(await db().selectFrom('users').select('id').where('username', '=', 'tt').executeTakeFirst()).toBeUndefined();

    await setOption('TurnstileCheckEnabled', false);
    expect((await c.login('alice', PASSWORD)).body.success).toBe(true);
  });

  describe('with Redis', async () => {
    const run = await redisAvailable();
    let shared: TestGateway;
    let sharedRoot: ApiClient;
    beforeAll(async () => {
      if (!run) return;
      shared = await startTestGateway(kind, { REDIS_CONN_STRING: REDIS_URL });
      sharedRoot = await setupRoot(shared);
      for (const [key, value] of Object.entries({
        SMTPServer: smtp.host,
        SMTPPort: smtp.port,
        SMTPAccount: SMTP_ACCOUNT,
        SMTPToken: 'smtp-secret',
        EmailVerificationEnabled: true,
      })) {
        expect((await sharedRoot.put('/api/option/', { key, value })).body.success).toBe(true);
      }
    });
    afterAll(async () => shared?.close());

    it.runIf(run)('keeps codes in Redis, one-time as in memory', async () => {
      // Redis is shared by every test run: the address must be unique.
      const email = `redis-${randomBytes(4).toString('hex')}@example.com`;
      const sent = smtp.messages.length;
      expect((await shared.client().get(`/api/verification?email=${email}`)).body).toEqual({ success: true, message: '' });
      const code = codeOf(await smtp.waitFor(email, { after: sent }));
      // Whatever the deployment's key prefix, the code lives in Redis under the address.
      const stored = () => shared.gateway.ctx.redis!.keys(`*verification:${email}`);
      expect(await stored()).toHaveLength(1);
      const body = { username: 'redisuser', password: PASSWORD, password2: PASSWORD, email, verification_code: code };
      expect((await shared.client().post('/api/user/register', body)).body.success).toBe(true);
      expect(await stored()).toEqual([]);
      await shared.gateway.ctx.db.updateTable('users').set({ deleted_at: 1 }).where('username', '=', 'redisuser').execute();
      const again = await shared.client().post('/api/user/register', { ...body, username: 'redisuser2' });
      expect(again.body).toMatchObject({ success: false, message: CODE_INVALID });
    });
  });

  describe('critical rate limit', () => {
    let limited: TestGateway;
    beforeAll(async () => {
      limited = await startTestGateway(kind, { CRITICAL_RATE_LIMIT: '3' });
    });
    afterAll(async () => limited?.close());

    it('answers 429 with the envelope once the critical limit is spent', async () => {
      const c = limited.client();
      for (let i = 0; i < 3; i++) {
        const res = await c.get('/api/verification?email=bad');
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ success: false, message: '无效的邮箱地址' });
      }
      const blocked = { success: false, message: '请求过于频繁，请稍后再试' };
      for (const res of [
        await c.get('/api/verification?email=bad'),
        await c.post('/api/user/register', { username: 'x', password: PASSWORD, password2: PASSWORD }),
        await c.post('/api/user/login', { username: 'x', password: PASSWORD }),
        await c.get('/api/reset_password?email=a@example.com'),
        await c.post('/api/user/reset', { email: 'a@example.com', token: 'x' }),
      ]) {
        expect(res.status).toBe(429);
        expect(res.body).toMatchObject(blocked);
      }
      expect(await limited.gateway.ctx.db.selectFrom('users').select('id').execute()).toEqual([]);
      // Other calls are not affected.
      expect((await c.get('/api/status')).status).toBe(200);
    });
  });
});

describe('Turnstile siteverify call', () => {
  let server: Server;
  let url: string;
  const seen: Array<{ contentType: string | undefined; form: URLSearchParams }> = [];
  let status = 200;

  const readBody = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => resolve(text));
    });

  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const form = new URLSearchParams(await readBody(req));
      seen.push({ contentType: req.headers['content-type'], form });
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: form.get('response') === 'good-token' && form.get('secret') === 'the-secret' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/turnstile/v0/siteverify`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('posts the secret, token and client address as a form and reads success', async () => {
    expect(await verifyTurnstile('good-token', 'the-secret', '203.0.113.9', url)).toBe(true);
    expect(seen.at(-1)?.contentType).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(seen.at(-1)!.form)).toEqual({
      secret: 'the-secret',
      response: 'good-token',
      remoteip: '203.0.113.9',
    });
    expect(await verifyTurnstile('bad-token', 'the-secret', '203.0.113.9', url)).toBe(false);
    expect(await verifyTurnstile('good-token', 'wrong-secret', '203.0.113.9', url)).toBe(false);
  });

  it('counts an error status or an unreachable endpoint as a failed check', async () => {
    status = 500;
    expect(await verifyTurnstile('good-token', 'the-secret', '203.0.113.9', url)).toBe(false);
    status = 200;
    expect(await verifyTurnstile('good-token', 'the-secret', '', 'http://127.0.0.1:1/siteverify')).toBe(false);
  });
});
