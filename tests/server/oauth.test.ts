/**
 * Third-party login and binding against the real gateway: a local stand-in plays GitHub, Linux DO,
 * an OpenID provider and the wechat-server (GitHub's and Linux DO's fixed addresses are pointed at
 * it; loopback needs ALLOW_PRIVATE_UPSTREAMS). Covers the state (bound to the browser, used once),
 * sign-in of a bound user, sign-up of a new one (and its refusal), binding while logged in,
 * conflicts, switched-off providers, banned users, and the Telegram widget's signature.
 */
import { createHash, createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { overrideFixedEndpoints } from '../../server/oauth/providers.js';
import { forEachDatabase } from '../helpers/databases.js';
import { setupRoot, startTestGateway, type ApiClient, type ApiResponse, type TestGateway } from '../helpers/gateway.js';
import { CLIENTS, WECHAT_TOKEN, startOAuthStandIn, type OAuthStandIn, type ProviderUser } from '../helpers/upstreams/oauth.js';

const PASSWORD = 'secret-pass-1';
const SERVER_ADDRESS = 'https://gateway.example.test';
const BOT_TOKEN = '123456:telegram-bot-token';
const STATE_INVALID = 'state 参数无效或已过期，请重新登录';
const BANNED = '用户已被封禁';
const REGISTER_CLOSED = '管理员关闭了新用户注册';

type Redirect = 'github' | 'oidc' | 'linuxdo';

/** Options a test may change; put back after each test. */
const RESET_OPTIONS: Record<string, string | boolean> = {
  RegisterEnabled: true,
  GitHubOAuthEnabled: true,
  'oidc.enabled': true,
  LinuxDOOAuthEnabled: true,
  WeChatAuthEnabled: true,
  TelegramOAuthEnabled: true,
  QuotaForNewUser: '0',
  QuotaForInvitee: '0',
  QuotaForInviter: '0',
};

/** The Telegram widget's signature, computed here independently of the server's code. */
function signTelegram(fields: Record<string, string>, token = BOT_TOKEN): Record<string, string> {
  const check = Object.keys(fields)
    .sort()
    .map((k) => `${k}=${fields[k]}`)
    .join('\n');
  const key = createHash('sha256').update(token).digest();
  return { ...fields, hash: createHmac('sha256', key).update(check).digest('hex') };
}

const now = () => Math.floor(Date.now() / 1000);
let nextId = 1000;
/** A person at a provider, unique in this file. */
function person(login: string, extra: Partial<ProviderUser> = {}): ProviderUser {
  nextId += 1;
  return { id: nextId, login, name: `${login} name`, ...extra };
}

let standIn: OAuthStandIn;
let restoreEndpoints: () => void;
const hostsBefore = process.env.ALLOW_PRIVATE_HOSTS;

beforeAll(async () => {
  standIn = await startOAuthStandIn();
  restoreEndpoints = overrideFixedEndpoints(standIn.fixedEndpoints);
  // The stand-in runs on loopback: the operator names it as a trusted private host.
  process.env.ALLOW_PRIVATE_HOSTS = '127.0.0.1';
});
afterAll(async () => {
  restoreEndpoints?.();
  if (hostsBefore === undefined) delete process.env.ALLOW_PRIVATE_HOSTS;
  else process.env.ALLOW_PRIVATE_HOSTS = hostsBefore;
  await standIn?.close();
});

await forEachDatabase('oauth: third-party login and binding', (kind) => {
  let tg: TestGateway;
  let root: ApiClient;

  const db = () => tg.gateway.ctx.db;
  const userRow = (id: number) => db().selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const userCount = async () => (await db().selectFrom('users').select('id').execute()).length;

  async function setOption(key: string, value: string | boolean): Promise<void> {
    const res = await root.put('/api/option/', { key, value });
    expect(res.body, `setting ${key}`).toEqual({ success: true, message: '' });
  }

  async function createUser(username: string): Promise<{ client: ApiClient; id: number }> {
    const created = await root.post('/api/user/', { username, password: PASSWORD });
    expect(created.body.success, created.body.message).toBe(true);
    const client = tg.client();
    const login = await client.login(username, PASSWORD);
    expect(login.body.success, login.body.message).toBe(true);
    return { client, id: login.body.data.id };
  }

  /** GET /api/oauth/state as `client`: the state and the cookie it came with. */
  async function beginFlow(client: ApiClient, aff = ''): Promise<{ state: string; cookie: string }> {
    const res = await client.get(`/api/oauth/state?aff=${encodeURIComponent(aff)}`);
    expect(res.body.success, res.body.message).toBe(true);
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0] ?? '')
      .find((c) => c.startsWith('oauth_state='));
    return { state: res.body.data, cookie: cookie ?? '' };
  }

  /** The provider's redirect back: GET /api/oauth/{type}?code&state with the browser's cookies. */
  async function callback(client: ApiClient, type: Redirect, code: string, state: string, stateCookie: string) {
    const saved = client.cookie;
    const combined = [saved, stateCookie].filter(Boolean).join('; ');
    client.cookie = combined;
    const res = await client.get(`/api/oauth/${type}?${new URLSearchParams({ code, state })}`);
    // A new session replaced the cookies; otherwise put the browser's own back.
    if (client.cookie === combined) client.cookie = saved;
    if (res.body?.success && res.body.message === '') client.userId = res.body.data.id;
    return res;
  }

  /** The whole redirect login for `who` at `type`, as a browser would do it. */
  async function oauthLogin(client: ApiClient, type: Redirect, who: ProviderUser, aff = ''): Promise<ApiResponse> {
    const { state, cookie } = await beginFlow(client, aff);
    return callback(client, type, standIn.code(type, who), state, cookie);
  }

  beforeAll(async () => {
    tg = await startTestGateway(kind);
    root = await setupRoot(tg);
    await setOption('ServerAddress', SERVER_ADDRESS);
    await setOption('GitHubClientId', CLIENTS.github.id);
    await setOption('GitHubClientSecret', CLIENTS.github.secret);
    await setOption('LinuxDOClientId', CLIENTS.linuxdo.id);
    await setOption('LinuxDOClientSecret', CLIENTS.linuxdo.secret);
    await setOption('oidc.client_id', CLIENTS.oidc.id);
    await setOption('oidc.client_secret', CLIENTS.oidc.secret);
    await setOption('oidc.token_endpoint', standIn.oidc.token);
    await setOption('oidc.user_info_endpoint', standIn.oidc.userInfo);
    await setOption('WeChatServerAddress', standIn.wechatAddress);
    await setOption('WeChatServerToken', WECHAT_TOKEN);
    await setOption('TelegramBotToken', BOT_TOKEN);
    for (const [key, value] of Object.entries(RESET_OPTIONS)) await setOption(key, value);
  });
  afterAll(async () => {
    await tg?.close();
  });
  afterEach(async () => {
    for (const [key, value] of Object.entries(RESET_OPTIONS)) await setOption(key, value);
  });

  describe('state', () => {
    it('is a random value set in a signed, HttpOnly cookie of this browser', async () => {
      const client = tg.client();
      const first = await beginFlow(client);
      const second = await beginFlow(client);
      expect(first.state).toMatch(/^[\w-]{20,}$/);
      expect(second.state).not.toBe(first.state);
      const res = await client.get('/api/oauth/state');
      const header = res.headers.getSetCookie().find((c) => c.startsWith('oauth_state=')) ?? '';
      expect(header).toMatch(/HttpOnly/i);
      // Signed: the cookie carries more than the bare state.
      expect(header.split(';')[0]).not.toBe(`oauth_state=${res.body.data}`);
    });

    it('is refused when missing, wrong, from another browser, or used twice', async () => {
      const client = tg.client();
      const who = person('statecheck');
      const before = await userCount();

      const noState = await callback(client, 'github', standIn.code('github', who), '', '');
      expect(noState.body).toMatchObject({ success: false, message: STATE_INVALID });

      const { state, cookie } = await beginFlow(client);
      const wrong = await callback(client, 'github', standIn.code('github', who), `${state}x`, cookie);
      expect(wrong.body).toMatchObject({ success: false, message: STATE_INVALID });

      // The state alone, without this browser's cookie (a link planted by someone else).
      const fresh = await beginFlow(client);
      const otherBrowser = await callback(tg.client(), 'github', standIn.code('github', who), fresh.state, '');
      expect(otherBrowser.body).toMatchObject({ success: false, message: STATE_INVALID });
      const forgedCookie = await callback(
        tg.client(),
        'github',
        standIn.code('github', who),
        fresh.state,
        `oauth_state=${fresh.state}`,
      );
      expect(forgedCookie.body).toMatchObject({ success: false, message: STATE_INVALID });

      const third = await beginFlow(client);
      const used = await callback(client, 'github', standIn.code('github', who), third.state, third.cookie);
      expect(used.body.success, used.body.message).toBe(true);
      const replay = await callback(tg.client(), 'github', standIn.code('github', who), third.state, third.cookie);
      expect(replay.body).toMatchObject({ success: false, message: STATE_INVALID });
      expect(await userCount()).toBe(before + 1);
    });
  });

  describe('GitHub', () => {
    it('signs a new person up like a registration (invitation rewards included) and the session works', async () => {
      const inviter = await createUser('inviter1');
      const affCode = (await inviter.client.get('/api/user/aff')).body.data as string;
      await setOption('QuotaForNewUser', '100');
      await setOption('QuotaForInvitee', '20');
      await setOption('QuotaForInviter', '30');

      const client = tg.client();
      const who = person('octocat', { name: 'The Octocat', email: 'Octo@Example.com' });
      const res = await oauthLogin(client, 'github', who, affCode);
      expect(res.body).toMatchObject({
        success: true,
        message: '',
        data: { username: 'octocat', display_name: 'The Octocat', github_id: String(who.id), email: 'octo@example.com' },
      });
      expect(res.body.data).not.toHaveProperty('password');
      expect(res.body.data).not.toHaveProperty('access_token');
      const row = await userRow(res.body.data.id);
      expect(row).toMatchObject({ quota: 120, inviter_id: inviter.id, github_id: String(who.id), status: 1 });
      expect(await userRow(inviter.id)).toMatchObject({ aff_count: 1, aff_quota: 30 });

      const self = await client.get('/api/user/self');
      expect(self.body).toMatchObject({ success: true, data: { id: res.body.data.id, username: 'octocat' } });

      // The stand-in saw the client credentials and a User-Agent, as GitHub requires.
      const exchange = standIn.requests.filter((r) => r.path === '/github/login/oauth/access_token').at(-1)!;
      expect(new URLSearchParams(exchange.body).get('client_secret')).toBe(CLIENTS.github.secret);
      expect(exchange.headers.accept).toContain('application/json');
    });

    it('logs the bound user in again instead of signing up twice', async () => {
      const who = person('returning');
      const first = await oauthLogin(tg.client(), 'github', who);
      expect(first.body.success, first.body.message).toBe(true);
      const before = await userCount();
      const client = tg.client();
      const again = await oauthLogin(client, 'github', { ...who, login: 'renamed' });
      expect(again.body).toMatchObject({ success: true, data: { id: first.body.data.id, username: 'returning' } });
      expect(await userCount()).toBe(before);
      expect((await client.get('/api/user/self')).body.data.id).toBe(first.body.data.id);
    });

    it('adds a suffix when the login is taken, and keeps no e-mail another user holds', async () => {
      const holder = await createUser('taken1');
      await db().updateTable('users').set({ email: 'shared@example.com' }).where('id', '=', holder.id).execute();
      const res = await oauthLogin(tg.client(), 'github', person('taken1', { email: 'shared@example.com' }));
      expect(res.body.success, res.body.message).toBe(true);
      expect(res.body.data.username).toMatch(/^taken1_[0-9a-f]{4}$/);
      expect(res.body.data.email).toBe('');

      const long = await oauthLogin(tg.client(), 'github', person('a-very-long-github-login'));
      expect(long.body.data.username).toBe('a-very-long-');
    });

    it('refuses to sign up when registration is closed, but still logs bound users in', async () => {
      const known = person('knownuser');
      expect((await oauthLogin(tg.client(), 'github', known)).body.success).toBe(true);
      await setOption('RegisterEnabled', false);
      const before = await userCount();
      const client = tg.client();
      const refused = await oauthLogin(client, 'github', person('newcomer'));
      expect(refused.body).toMatchObject({ success: false, message: REGISTER_CLOSED });
      expect(client.cookie).toBe('');
      expect(await userCount()).toBe(before);
      expect((await oauthLogin(tg.client(), 'github', known)).body.success).toBe(true);
    });

    it('binds to the signed-in user (message bind), and refuses an account bound to someone else', async () => {
      const alice = await createUser('alice');
      const who = person('alice-gh');
      const bound = await oauthLogin(alice.client, 'github', who);
      expect(bound.body).toMatchObject({ success: true, message: 'bind', data: { id: alice.id, github_id: String(who.id) } });
      expect((await userRow(alice.id)).github_id).toBe(String(who.id));
      // The same account now logs alice in.
      const login = await oauthLogin(tg.client(), 'github', who);
      expect(login.body).toMatchObject({ success: true, message: '', data: { id: alice.id } });

      const bob = await createUser('bob');
      const conflict = await oauthLogin(bob.client, 'github', who);
      expect(conflict.body).toMatchObject({ success: false, message: '该 GitHub 账户已被其他用户绑定' });
      expect((await userRow(bob.id)).github_id).toBe('');
      // Bob's session is untouched.
      expect((await bob.client.get('/api/user/self')).body.data.id).toBe(bob.id);
    });

    it('lets a deregistered user’s old binding go', async () => {
      const carol = await createUser('carol');
      const who = person('carol-gh');
      expect((await oauthLogin(carol.client, 'github', who)).body.message).toBe('bind');
      expect((await carol.client.delete('/api/user/self')).body.success).toBe(true);
      const dave = await createUser('dave');
      expect((await oauthLogin(dave.client, 'github', who)).body).toMatchObject({ success: true, message: 'bind' });
    });

    it('refuses banned users', async () => {
      const erin = await createUser('erin');
      const who = person('erin-gh');
      expect((await oauthLogin(erin.client, 'github', who)).body.message).toBe('bind');
      const ban = await root.post('/api/user/manage', { id: erin.id, action: 'disable' });
      expect(ban.body.success, ban.body.message).toBe(true);
      const client = tg.client();
      expect((await oauthLogin(client, 'github', who)).body).toMatchObject({ success: false, message: BANNED });
      expect(client.cookie).toBe('');
      await root.post('/api/user/manage', { id: erin.id, action: 'enable' });
    });

    it('is refused when switched off, and reports a code GitHub does not accept', async () => {
      await setOption('GitHubOAuthEnabled', false);
      const off = await oauthLogin(tg.client(), 'github', person('offline'));
      expect(off.body).toMatchObject({ success: false, message: '管理员未开启通过 GitHub 登录以及注册' });
      await setOption('GitHubOAuthEnabled', true);

      const client = tg.client();
      const { state, cookie } = await beginFlow(client);
      const bad = await callback(client, 'github', 'not-a-code', state, cookie);
      expect(bad.body).toMatchObject({ success: false, message: 'GitHub 授权失败：bad_verification_code' });
      const { state: s2, cookie: c2 } = await beginFlow(client);
      expect((await callback(client, 'github', '', s2, c2)).body).toMatchObject({ success: false, message: '无效的参数' });
    });
  });

  describe('OIDC and Linux DO', () => {
    it('OIDC: client_secret_basic, the configured redirect_uri, sub as the id; unverified e-mail not kept', async () => {
      const who = person('oidc-person', { id: 'sub-0b7c9e', email: 'unverified@example.com', email_verified: false });
      const client = tg.client();
      const res = await oauthLogin(client, 'oidc', who);
      expect(res.body).toMatchObject({ success: true, data: { username: 'oidc-person', oidc_id: 'sub-0b7c9e', email: '' } });
      const exchange = standIn.requests.filter((r) => r.path === '/oidc/token').at(-1)!;
      expect(new URLSearchParams(exchange.body).get('redirect_uri')).toBe(`${SERVER_ADDRESS}/oauth/oidc`);
      expect(exchange.body).not.toContain(CLIENTS.oidc.secret);
      expect((await client.get('/api/user/self')).body.data.oidc_id).toBe('sub-0b7c9e');

      await setOption('oidc.enabled', false);
      expect((await oauthLogin(tg.client(), 'oidc', person('x'))).body).toMatchObject({
        success: false,
        message: '管理员未开启通过 OIDC 登录以及注册',
      });
    });

    it('OIDC: a private provider address is refused unless named a trusted host (private upstreams do not open it)', async () => {
      delete process.env.ALLOW_PRIVATE_HOSTS;
      process.env.ALLOW_PRIVATE_UPSTREAMS = 'true';
      try {
        const res = await oauthLogin(tg.client(), 'oidc', person('private'));
        expect(res.body).toMatchObject({ success: false, message: 'OIDC 授权失败，请稍后再试' });
      } finally {
        process.env.ALLOW_PRIVATE_UPSTREAMS = 'true';
        process.env.ALLOW_PRIVATE_HOSTS = '127.0.0.1';
      }
    });

    it('Linux DO: HTTP Basic client auth, login, binding and its conflict', async () => {
      const who = person('ld-user', { email: 'ld@example.com' });
      const res = await oauthLogin(tg.client(), 'linuxdo', who);
      expect(res.body).toMatchObject({
        success: true,
        data: { username: 'ld-user', linux_do_id: String(who.id), email: 'ld@example.com' },
      });
      const exchange = standIn.requests.filter((r) => r.path === '/linuxdo/oauth2/token').at(-1)!;
      expect(exchange.headers.authorization).toMatch(/^Basic /);

      const frank = await createUser('frank');
      expect((await oauthLogin(frank.client, 'linuxdo', who)).body).toMatchObject({
        success: false,
        message: '该 Linux DO 账户已被其他用户绑定',
      });
      const own = person('frank-ld');
      expect((await oauthLogin(frank.client, 'linuxdo', own)).body).toMatchObject({
        message: 'bind',
        data: { linux_do_id: String(own.id) },
      });
    });
  });

  describe('WeChat', () => {
    it('logs in with the code the official account sent; binds; refuses unknown codes and conflicts', async () => {
      const client = tg.client();
      const res = await client.get(`/api/oauth/wechat?code=${standIn.wechatCode('openid-wx-1')}`);
      expect(res.body).toMatchObject({ success: true, message: '', data: { wechat_id: 'openid-wx-1' } });
      expect(res.body.data.username).toMatch(/^wechat_[0-9a-f]{4}$/);
      client.userId = res.body.data.id;
      expect((await client.get('/api/user/self')).body.data.wechat_id).toBe('openid-wx-1');

      const again = await tg.client().get(`/api/oauth/wechat?code=${standIn.wechatCode('openid-wx-1')}`);
      expect(again.body.data.id).toBe(res.body.data.id);

      expect((await tg.client().get('/api/oauth/wechat?code=999999')).body).toMatchObject({
        success: false,
        message: '验证码错误或已过期',
      });
      expect((await tg.client().get('/api/oauth/wechat?code=')).body).toMatchObject({ success: false, message: '无效的参数' });

      const grace = await createUser('grace');
      const bind = await grace.client.get(`/api/oauth/wechat/bind?code=${standIn.wechatCode('openid-wx-2')}`);
      expect(bind.body).toMatchObject({ success: true, message: '绑定成功！', data: { id: grace.id, wechat_id: 'openid-wx-2' } });
      const conflict = await grace.client.get(`/api/oauth/wechat/bind?code=${standIn.wechatCode('openid-wx-1')}`);
      expect(conflict.body).toMatchObject({ success: false, message: '该微信账户已被其他用户绑定' });
      expect((await tg.client().get(`/api/oauth/wechat/bind?code=${standIn.wechatCode('openid-wx-3')}`)).status).toBe(401);

      await setOption('WeChatServerToken', 'not-the-token');
      expect((await tg.client().get(`/api/oauth/wechat?code=${standIn.wechatCode('openid-wx-5')}`)).body).toMatchObject({
        success: false,
        message: '微信授权失败，请稍后再试',
      });
      await setOption('WeChatServerToken', WECHAT_TOKEN);

      await setOption('WeChatAuthEnabled', false);
      expect((await tg.client().get(`/api/oauth/wechat?code=${standIn.wechatCode('openid-wx-4')}`)).body).toMatchObject({
        success: false,
        message: '管理员未开启通过微信登录以及注册',
      });
    });
  });

  describe('Telegram', () => {
    const widget = (id: string, extra: Record<string, string> = {}) =>
      signTelegram({ id, first_name: 'Tele', last_name: 'Gram', username: 'tg_user', auth_date: String(now()), ...extra });
    const login = (client: ApiClient, fields: Record<string, string>) =>
      client.get(`/api/oauth/telegram/login?${new URLSearchParams(fields)}`);

    it('accepts a genuine widget answer and signs the person up', async () => {
      const client = tg.client();
      const res = await login(client, widget('777001'));
      expect(res.body).toMatchObject({
        success: true,
        data: { username: 'tg_user', display_name: 'Tele Gram', telegram_id: '777001' },
      });
      client.userId = res.body.data.id;
      expect((await client.get('/api/user/self')).body.data.telegram_id).toBe('777001');
    });

    it('refuses a forged field, a wrong bot token, a missing hash and a stale answer', async () => {
      const before = await userCount();
      const genuine = widget('777002');
      expect((await login(tg.client(), { ...genuine, id: '777003' })).body).toMatchObject({
        success: false,
        message: 'Telegram 登录信息校验失败',
      });
      expect(
        (await login(tg.client(), signTelegram({ id: '777002', auth_date: String(now()) }, 'other:token'))).body.message,
      ).toBe('Telegram 登录信息校验失败');
      const { hash: _hash, ...unsigned } = genuine;
      expect((await login(tg.client(), unsigned)).body.message).toBe('Telegram 登录信息校验失败');
      const stale = widget('777002', { auth_date: String(now() - 2 * 24 * 3600) });
      expect((await login(tg.client(), stale)).body).toMatchObject({
        success: false,
        message: 'Telegram 登录信息已过期，请重新登录',
      });
      expect(await userCount()).toBe(before);
    });

    it('binds through /api/oauth/telegram/bind and is refused when switched off', async () => {
      const heidi = await createUser('heidi');
      const bind = await heidi.client.get(`/api/oauth/telegram/bind?${new URLSearchParams(widget('777004'))}`);
      expect(bind.body).toMatchObject({ success: true, data: { id: heidi.id, telegram_id: '777004' } });
      const logged = await login(tg.client(), widget('777004'));
      expect(logged.body.data.id).toBe(heidi.id);

      await setOption('TelegramOAuthEnabled', false);
      expect((await login(tg.client(), widget('777004'))).body).toMatchObject({
        success: false,
        message: '管理员未开启通过 Telegram 登录以及注册',
      });
    });
  });
});

describe('oauth: rate limit', () => {
  it('shares the critical limit with login', async () => {
    const tg = await startTestGateway('sqlite', { CRITICAL_RATE_LIMIT: '3' });
    try {
      await setupRoot(tg); // one login
      const client = tg.client();
      expect((await client.get('/api/oauth/state')).status).toBe(200);
      expect((await client.login('root', 'wrong-password')).status).toBe(200);
      expect((await client.get('/api/oauth/state')).status).toBe(429);
      expect((await client.get('/api/oauth/telegram/login?id=1')).status).toBe(429);
    } finally {
      await tg.close();
    }
  });
});
