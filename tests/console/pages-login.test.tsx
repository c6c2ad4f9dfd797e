import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import LoginPage from '../../src/customPages/login/LoginPage';
import { ok, received, renderPage, sentTo, siteStatus } from './pages-harness';

const user = { id: 7, username: 'alice', display_name: 'Alice', role: 1 };
const server = setupServer(ok('get', '/api/status', siteStatus()), ok('post', '/api/user/login', user));

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  received.length = 0;
});
afterAll(() => server.close());

describe('login page: second factors', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks an account with two-factor sign-in for its code, then lands on /token', async () => {
    server.use(ok('post', '/api/user/login', { require_2fa: true }, '请输入两步验证码'), ok('post', '/api/user/login/2fa', user));
    renderPage(<LoginPage />, '/login');
    await userEvent.type(screen.getByLabelText('用户名或邮箱'), 'alice');
    await userEvent.type(screen.getByLabelText('密码'), 'secret-pass');
    await userEvent.click(screen.getByRole('button', { name: '登录' }));
    expect(await screen.findByRole('heading', { name: '两步验证' })).toBeTruthy();
    expect(localStorage.getItem('user')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: '验证并登录' }));
    expect(await screen.findByText('请输入验证码')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('验证码或备用码'), ' 123456 ');
    await userEvent.click(screen.getByRole('button', { name: '验证并登录' }));
    expect(await screen.findByText('now at /token')).toBeTruthy();
    expect(sentTo('POST', '/api/user/login/2fa').map((r) => r.body)).toEqual([{ code: '123456' }]);
    expect(JSON.parse(localStorage.getItem('user') ?? 'null')).toMatchObject({ id: 7, username: 'alice' });
  });

  it('opens the code step after a third-party sign-in that needs it, and shows a lapsed sign-in', async () => {
    server.use(
      http.post('/api/user/login/2fa', () =>
        HttpResponse.json({ success: false, code: 'twofa.login_expired', message: '登录会话已过期，请重新登录' }),
      ),
    );
    renderPage(<LoginPage />, '/login', '/login?step=2fa');
    await userEvent.type(await screen.findByLabelText('验证码或备用码'), 'AAAA-BBBB-CCCC');
    await userEvent.click(screen.getByRole('button', { name: '验证并登录' }));
    expect(await screen.findByText('登录会话已过期，请重新登录')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '返回登录' }));
    expect(screen.getByLabelText('密码')).toBeTruthy();
  });

  it('offers a passkey only where the server enables it and the browser has WebAuthn', async () => {
    server.use(ok('get', '/api/status', siteStatus({ passkey_login: true })));
    renderPage(<LoginPage />, '/login');
    await screen.findByLabelText('密码');
    expect(screen.queryByRole('button', { name: '使用通行密钥登录' })).toBeNull();
  });

  it('signs in with the passkey the browser offers', async () => {
    const bytes = (text: string) => new TextEncoder().encode(text).buffer;
    vi.stubGlobal('PublicKeyCredential', class {});
    const get = vi.fn(async () => ({
      id: 'Y3JlZA',
      rawId: bytes('cred'),
      type: 'public-key',
      authenticatorAttachment: 'platform',
      response: { authenticatorData: bytes('ad'), clientDataJSON: bytes('{}'), signature: bytes('sig'), userHandle: bytes('7') },
      getClientExtensionResults: () => ({}),
    }));
    vi.stubGlobal('navigator', { ...navigator, credentials: { get } });
    server.use(
      ok('get', '/api/status', siteStatus({ passkey_login: true })),
      ok('post', '/api/user/passkey/login/begin', { options: { publicKey: { challenge: 'Y2hhbGxlbmdl', rpId: 'localhost' } } }),
      ok('post', '/api/user/passkey/login/finish', user),
    );
    renderPage(<LoginPage />, '/login');
    await userEvent.click(await screen.findByRole('button', { name: '使用通行密钥登录' }));
    expect(await screen.findByText('now at /token')).toBeTruthy();
    expect(get).toHaveBeenCalledOnce();
    const [finish] = sentTo('POST', '/api/user/passkey/login/finish');
    expect(finish?.body).toMatchObject({
      id: 'Y3JlZA',
      rawId: 'Y3JlZA',
      type: 'public-key',
      response: { signature: 'c2ln', userHandle: 'Nw' },
    });
  });
});

describe('login page', () => {
  it('asks for both fields before calling the server', async () => {
    renderPage(<LoginPage />, '/login');
    await userEvent.click(screen.getByRole('button', { name: '登录' }));
    expect(await screen.findByText('请输入用户名和密码！')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('用户名或邮箱'), 'alice');
    await userEvent.click(screen.getByRole('button', { name: '登录' }));
    expect(sentTo('POST', '/api/user/login')).toHaveLength(0);
  });

  it('posts the credentials, stores the user and lands on /token', async () => {
    renderPage(<LoginPage />, '/login');
    await userEvent.type(screen.getByLabelText('用户名或邮箱'), ' alice ');
    await userEvent.type(screen.getByLabelText('密码'), 'secret-pass');
    await userEvent.click(screen.getByRole('button', { name: '登录' }));
    expect(await screen.findByText('now at /token')).toBeTruthy();
    expect(await screen.findByText('登录成功')).toBeTruthy();
    expect(sentTo('POST', '/api/user/login').map((r) => r.body)).toEqual([{ username: 'alice', password: 'secret-pass' }]);
    expect(JSON.parse(localStorage.getItem('user') ?? 'null')).toMatchObject({ id: 7, username: 'alice' });
  });

  it('shows the server message when the login is refused', async () => {
    server.use(
      http.post('/api/user/login', () => HttpResponse.json({ success: false, message: '用户名或密码错误，或用户已被封禁' })),
    );
    renderPage(<LoginPage />, '/login');
    await userEvent.type(screen.getByLabelText('用户名或邮箱'), 'alice');
    await userEvent.type(screen.getByLabelText('密码'), 'wrong-pass');
    await userEvent.click(screen.getByRole('button', { name: '登录' }));
    expect(await screen.findByText('用户名或密码错误，或用户已被封禁')).toBeTruthy();
    expect(screen.queryByText(/now at/)).toBeNull();
  });

  it('shows the expired-session error and keeps the invitation code', async () => {
    renderPage(<LoginPage />, '/login', '/login?expired=true&aff=INV42');
    expect(await screen.findByText('未登录或登录已过期，请重新登录！')).toBeTruthy();
    expect(localStorage.getItem('aff')).toBe('INV42');
  });

  it('offers only the third-party logins the status enables', async () => {
    server.use(
      ok('get', '/api/status', siteStatus({ github_oauth: true, github_client_id: 'gh-client', register_enabled: false })),
    );
    renderPage(<LoginPage />, '/login');
    expect(await screen.findByRole('button', { name: '使用 GitHub 登录' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: '使用 OIDC 登录' })).toBeNull();
    expect(screen.queryByRole('button', { name: '使用微信登录' })).toBeNull();
    await waitFor(() => expect(screen.queryByRole('link', { name: /注册/ })).toBeNull());
    expect(screen.getByRole('link', { name: '忘记密码？' })).toBeTruthy();
  });

  it('hides the password form when password login is off', async () => {
    server.use(ok('get', '/api/status', siteStatus({ password_login_enabled: false })));
    renderPage(<LoginPage />, '/login');
    expect(await screen.findByText(/管理员关闭了密码登录/)).toBeTruthy();
    expect(screen.queryByLabelText('密码')).toBeNull();
  });
});

describe('third-party authorisation address', () => {
  it('carries the client id, the state and the /oauth/{type} callback', async () => {
    const { authorizeUrl } = await import('../../src/customPages/shared/oauth');
    const status = siteStatus({
      github_client_id: 'gh-client',
      oidc_client_id: 'oidc-client',
      oidc_authorization_endpoint: 'https://id.example.com/auth',
    });
    const github = new URL(authorizeUrl('github', status, 'st4te'));
    expect(github.origin + github.pathname).toBe('https://github.com/login/oauth/authorize');
    expect(github.searchParams.get('client_id')).toBe('gh-client');
    expect(github.searchParams.get('state')).toBe('st4te');
    expect(github.searchParams.get('redirect_uri')).toBe(`${window.location.origin}/oauth/github`);
    const oidc = new URL(authorizeUrl('oidc', status, 'st4te'));
    expect(oidc.origin + oidc.pathname).toBe('https://id.example.com/auth');
    expect(oidc.searchParams.get('client_id')).toBe('oidc-client');
    expect(oidc.searchParams.get('redirect_uri')).toBe(`${window.location.origin}/oauth/oidc`);
  });

  it('returns to the configured server address, the one the server exchanges the code with', async () => {
    const { authorizeUrl } = await import('../../src/customPages/shared/oauth');
    const status = siteStatus({ server_address: 'https://gw.example.com/', linuxdo_client_id: 'ld-client' });
    const linuxdo = new URL(authorizeUrl('linuxdo', status, 'st4te'));
    expect(linuxdo.origin + linuxdo.pathname).toBe('https://connect.linux.do/oauth2/authorize');
    expect(linuxdo.searchParams.get('client_id')).toBe('ld-client');
    expect(linuxdo.searchParams.get('redirect_uri')).toBe('https://gw.example.com/oauth/linuxdo');
    expect(new URL(authorizeUrl('github', status, 'st4te')).searchParams.get('redirect_uri')).toBe(
      'https://gw.example.com/oauth/github',
    );
  });
});

describe('WeChat login', () => {
  it('sends the code with the invitation code, stores the user and lands on /', async () => {
    localStorage.setItem('aff', 'INV42');
    server.use(
      ok('get', '/api/status', siteStatus({ wechat_login: true, wechat_qrcode: 'https://wx.example/qr.png' })),
      ok('get', '/api/oauth/wechat', user),
    );
    renderPage(<LoginPage />, '/login');
    await userEvent.click(await screen.findByRole('button', { name: '使用微信登录' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: '登录' }));
    expect(await screen.findByText('请输入验证码')).toBeTruthy();
    expect(sentTo('GET', '/api/oauth/wechat')).toHaveLength(0);
    await userEvent.type(within(dialog).getByLabelText('验证码'), ' 123456 ');
    await userEvent.click(within(dialog).getByRole('button', { name: '登录' }));
    expect(await screen.findByText('now at /')).toBeTruthy();
    expect(sentTo('GET', '/api/oauth/wechat').map((r) => r.search)).toEqual(['?code=123456&aff=INV42']);
    expect(JSON.parse(localStorage.getItem('user') ?? 'null')).toMatchObject({ id: 7 });
  });
});
