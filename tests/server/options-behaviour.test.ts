/**
 * Settings that act: each option switched on and off through the real API, and the behaviour it
 * governs observed through the real gateway (registration and login, e-mail rules, consume logs,
 * hourly totals, site content, self-use and demo modes). The rate limit, sensitive words and quota
 * warnings have their own files (model-rate-limit, sensitive, quota-warning).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { startTestSmtp, type TestSmtp } from '../helpers/smtp.js';

/** Every option a test here changes, with the value it goes back to. */
const RESET: Record<string, string> = {
  RegisterEnabled: 'true',
  PasswordRegisterEnabled: 'true',
  PasswordLoginEnabled: 'true',
  EmailVerificationEnabled: 'false',
  EmailDomainRestrictionEnabled: 'false',
  EmailAliasRestrictionEnabled: 'false',
  EmailDomainWhitelist: 'example.com',
  LogConsumeEnabled: 'true',
  DataExportEnabled: 'true',
  DataExportInterval: '5',
  SelfUseModeEnabled: 'false',
  DemoSiteEnabled: 'false',
};

describe('settings that act', () => {
  let f: RelayFixture;
  let smtp: TestSmtp;
  let users = 0;
  const db = () => f.tg.gateway.ctx.db;
  const anon = () => f.tg.client();

  const setOption = async (key: string, value: string | number | boolean) => {
    const res = await f.root.put('/api/option/', { key, value });
    expect(res.body, `setting ${key}`).toEqual({ success: true, message: '' });
  };
  const status = async () => (await anon().get('/api/status')).body.data;
  const register = (extra: Record<string, unknown> = {}) => {
    const username = `reg${++users}`;
    return anon().post('/api/user/register', { username, password: 'reg-pass-123', password2: 'reg-pass-123', ...extra });
  };
  const chat = (model = 'gpt-4o-mini') =>
    f.openai().chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });
  const alice = () =>
    db()
      .selectFrom('users')
      .select(['quota', 'used_quota', 'request_count'])
      .where('id', '=', f.userId)
      .executeTakeFirstOrThrow();
  const consumeRows = async () =>
    (await db().selectFrom('logs').select('id').where('user_id', '=', f.userId).where('type', '=', 2).execute()).length;
  const totalsCount = async () => {
    const rows = await db().selectFrom('quota_data').select('count').where('user_id', '=', f.userId).execute();
    return rows.reduce((sum, r) => sum + r.count, 0);
  };
  const eventually = async (check: () => Promise<boolean>, ms = 3000) => {
    const deadline = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, 100));
    }
    return true;
  };

  beforeAll(async () => {
    smtp = await startTestSmtp();
    f = await startRelayFixture('sqlite');
    await setOption('SMTPServer', smtp.host);
    await setOption('SMTPPort', smtp.port);
    await setOption('SMTPAccount', 'gateway@example.com');
    await setOption('SMTPSSLEnabled', false);
  });
  afterAll(async () => {
    await f?.close();
    await smtp?.close();
  });
  afterEach(async () => {
    for (const [key, value] of Object.entries(RESET)) await setOption(key, value);
  });

  it('RegisterEnabled and PasswordRegisterEnabled close password registration, and the status says so', async () => {
    expect((await register()).body).toEqual({ success: true, message: '' });
    expect(await status()).toMatchObject({ register_enabled: true, password_register_enabled: true });

    await setOption('RegisterEnabled', false);
    expect((await register()).body).toMatchObject({ success: false, message: '管理员关闭了新用户注册' });
    expect((await status()).register_enabled).toBe(false);

    await setOption('RegisterEnabled', true);
    await setOption('PasswordRegisterEnabled', false);
    expect((await register()).body.message).toBe('管理员关闭了通过密码进行注册，请使用第三方账户验证的形式进行注册');
    expect((await status()).password_register_enabled).toBe(false);

    await setOption('PasswordRegisterEnabled', true);
    expect((await register()).body.success).toBe(true);
  });

  it('PasswordLoginEnabled off refuses password logins, and the status says so', async () => {
    await setOption('PasswordLoginEnabled', false);
    expect((await anon().post('/api/user/login', { username: 'alice', password: 'alice-pass-1' })).body).toMatchObject({
      success: false,
      message: '管理员关闭了密码登录',
    });
    expect((await status()).password_login_enabled).toBe(false);
    await setOption('PasswordLoginEnabled', true);
    expect((await anon().login('alice', 'alice-pass-1')).body.success).toBe(true);
  });

  it('EmailVerificationEnabled makes registration need a mailed code, and the status says so', async () => {
    await setOption('EmailVerificationEnabled', true);
    expect((await status()).email_verification).toBe(true);
    expect((await register()).body).toMatchObject({ success: false, message: '管理员开启了邮箱验证，请输入邮箱地址和验证码' });
    const sent = smtp.messages.length;
    expect((await anon().get('/api/verification?email=new.user@example.com')).body.success).toBe(true);
    const mail = await smtp.waitFor('new.user@example.com', { after: sent });
    const code = /<strong>([A-Z0-9]{6})<\/strong>/.exec(mail.body)?.[1];
    expect((await register({ email: 'new.user@example.com', verification_code: code })).body.success).toBe(true);
    expect(
      (await db().selectFrom('users').select('email').where('username', '=', `reg${users}`).executeTakeFirstOrThrow()).email,
    ).toBe('new.user@example.com');

    await setOption('EmailVerificationEnabled', false);
    expect((await register()).body.success).toBe(true);
  });

  it('EmailDomainRestrictionEnabled and EmailAliasRestrictionEnabled decide which addresses get a code', async () => {
    const verify = (email: string) => anon().get(`/api/verification?email=${encodeURIComponent(email)}`);
    expect((await verify('someone@other.test')).body.success).toBe(true);
    await setOption('EmailDomainWhitelist', 'example.com,corp.test');
    await setOption('EmailDomainRestrictionEnabled', true);
    expect((await verify('someone2@other.test')).body).toMatchObject({
      success: false,
      message: '管理员启用了邮箱域名白名单，您的邮箱地址的域名不在白名单中',
    });
    expect((await verify('someone@corp.test')).body.success).toBe(true);

    await setOption('EmailDomainRestrictionEnabled', false);
    expect((await verify('a+tag@example.com')).body.success).toBe(true);
    await setOption('EmailAliasRestrictionEnabled', true);
    expect((await verify('b+tag@example.com')).body).toMatchObject({
      success: false,
      message: '管理员已启用邮箱地址别名限制，您的邮箱地址由于包含特殊符号而被拒绝。',
    });
    expect((await verify('plain@example.com')).body.success).toBe(true);
  });

  it('LogConsumeEnabled off writes no consume rows, while billing and totals go on', async () => {
    await setOption('LogConsumeEnabled', false);
    await f.flush();
    const [rows, totals, before] = [await consumeRows(), await totalsCount(), await alice()];
    await chat();
    await f.flush();
    const after = await alice();
    expect(await consumeRows()).toBe(rows);
    expect(after.quota).toBe(before.quota - 4);
    expect(after.used_quota).toBe(before.used_quota + 4);
    expect(after.request_count).toBe(before.request_count + 1);
    expect(await totalsCount()).toBe(totals + 1);

    await setOption('LogConsumeEnabled', true);
    await chat();
    await f.flush();
    expect(await consumeRows()).toBe(rows + 1);
  });

  it('DataExportEnabled off keeps no hourly totals, while logs go on', async () => {
    await setOption('DataExportEnabled', false);
    await f.flush();
    const [rows, totals] = [await consumeRows(), await totalsCount()];
    await chat();
    await f.flush();
    expect(await consumeRows()).toBe(rows + 1);
    expect(await totalsCount()).toBe(totals);
    expect((await status()).enable_data_export).toBe(false);

    await setOption('DataExportEnabled', true);
    await chat();
    await f.flush();
    expect(await totalsCount()).toBe(totals + 1);
  });

  it('DataExportInterval spaces the background writes of the totals; logs still go within a second', async () => {
    await setOption('DataExportInterval', 60);
    await f.flush();
    const [rows, totals] = [await consumeRows(), await totalsCount()];
    await chat();
    // The background writer (no explicit flush) stores the log row but holds the totals back.
    expect(await eventually(async () => (await consumeRows()) === rows + 1)).toBe(true);
    await new Promise((r) => setTimeout(r, 700));
    expect(await totalsCount()).toBe(totals);
    await f.flush();
    expect(await totalsCount()).toBe(totals + 1);

    await setOption('DataExportInterval', 0);
    await chat();
    expect(await eventually(async () => (await totalsCount()) === totals + 2)).toBe(true);
  });

  it('serves the notice, name, logo, footer, home page and about as stored; the console sanitises them', async () => {
    const content = {
      Notice: '**Maintenance** tonight <img src=x onerror=alert(1)>',
      SystemName: 'Acme Gateway',
      Logo: 'https://cdn.example.com/logo.svg',
      Footer: '<a href="https://acme.example">Acme</a>',
      HomePageContent: '# Welcome\n\nUse **sk-** keys.',
      About: 'https://about.example.com',
    };
    for (const [key, value] of Object.entries(content)) await setOption(key, value);
    expect(await status()).toMatchObject({
      system_name: content.SystemName,
      logo: content.Logo,
      footer_html: content.Footer,
      notice: content.Notice,
    });
    expect((await anon().get('/api/notice')).body).toEqual({ success: true, message: '', data: content.Notice });
    expect((await anon().get('/api/home_page_content')).body.data).toBe(content.HomePageContent);
    expect((await anon().get('/api/about')).body.data).toBe(content.About);

    for (const key of ['Notice', 'Footer', 'HomePageContent', 'About']) await setOption(key, '');
    await setOption('SystemName', 'AI Gateway');
    await setOption('Logo', '/logo.png');
    expect(await status()).toMatchObject({ system_name: 'AI Gateway', logo: '/logo.png', footer_html: '', notice: '' });
    expect((await anon().get('/api/notice')).body.data).toBe('');
  });

  it('SelfUseModeEnabled serves models without a price, and the status shows the mode', async () => {
    const channel = await f.addChannel({ name: 'unpriced', models: 'mystery-model' });
    await expect(chat('mystery-model')).rejects.toMatchObject({ status: 404, code: 'model_price_error' });
    await setOption('SelfUseModeEnabled', true);
    expect((await status()).self_use_mode_enabled).toBe(true);
    const answer = await chat('mystery-model');
    expect(answer.choices[0]?.message.content).toBeTruthy();
    await setOption('SelfUseModeEnabled', false);
    await expect(chat('mystery-model')).rejects.toMatchObject({ status: 404 });
    await f.root.delete(`/api/channel/${channel}/`);
    await f.tg.gateway.ctx.channels.reload();
  });

  it('DemoSiteEnabled shows in the status for the header badge', async () => {
    expect((await status()).demo_site_enabled).toBe(false);
    await setOption('DemoSiteEnabled', true);
    expect((await status()).demo_site_enabled).toBe(true);
  });
});
