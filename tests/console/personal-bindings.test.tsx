/**
 * The personal page's third-party bindings against msw: rows only for the providers the status
 * enables, the bound state, the redirect flow (state first, then the authorisation address with
 * the redirect_uri the server expects), WeChat's and Telegram's bind calls, refusals, and the way
 * back from /oauth/{type} through /setting to /personal for a non-root user.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type { SiteStatus } from '../../server/status/schemas';
import type { SelfUser } from '../../server/users/schemas';
import OAuthCallbackPage from '../../src/customPages/login/OAuthCallbackPage';
import PersonalPage from '../../src/customPages/personal/PersonalPage';
import SettingPage from '../../src/customPages/setting/SettingPage';
import {
  ok,
  received,
  renderPage,
  renderRoutes,
  selfUser,
  sentTo,
  serveDuringTests,
  siteStatus,
  securityHandlers,
} from './pages-harness';

const self = selfUser({ github_id: '4242' });

/** Every provider switched on, with the addresses the console needs. */
const allEnabled: Partial<SiteStatus> = {
  github_oauth: true,
  github_client_id: 'gh-client',
  oidc_enabled: true,
  oidc_client_id: 'oidc-client',
  oidc_authorization_endpoint: 'https://id.example.com/auth',
  linuxdo_oauth: true,
  linuxdo_client_id: 'ld-client',
  wechat_login: true,
  wechat_qrcode: 'https://wx.example.com/qr.png',
  telegram_oauth: true,
  telegram_bot_name: 'gateway_bot',
};

/** GET /api/user/self answers `current`, which a bind handler may change (the reload shows it). */
let current: SelfUser;

const server = setupServer(
  ...securityHandlers(),
  ok('get', '/api/status', siteStatus(allEnabled)),
  http.get('/api/user/self', () => {
    received.push({ method: 'GET', path: '/api/user/self', search: '', body: undefined });
    return HttpResponse.json({ success: true, message: '', data: current });
  }),
  ok('get', '/api/user/models', []),
  ok('get', '/api/user/aff', 'CAROL1'),
  ok('get', '/api/oauth/state', 'st4te-1'),
);

serveDuringTests(server);
beforeEach(() => {
  current = { ...self };
  localStorage.setItem('user', JSON.stringify({ id: 5, username: 'carol', role: 1 }));
});
afterEach(() => {
  vi.unstubAllGlobals();
});

async function openBindings() {
  renderPage(<PersonalPage />, '/personal');
  await screen.findByText('第三方账户绑定');
}

const row = (name: string) => within(screen.getByRole('group', { name }));

describe('personal page bindings', () => {
  it('shows a row only for each provider the status enables, with its bound state', async () => {
    server.use(ok('get', '/api/status', siteStatus({ github_oauth: true, github_client_id: 'gh', wechat_login: true })));
    await openBindings();
    await waitFor(() => expect(screen.queryByRole('group', { name: 'OIDC' })).toBeNull());
    expect(row('GitHub').getByText('已绑定：4242')).toBeTruthy();
    expect(row('GitHub').getByRole('button', { name: '修改绑定' })).toBeTruthy();
    expect(row('微信').getByText('未绑定')).toBeTruthy();
    expect(row('微信').getByRole('button', { name: '绑定' })).toBeTruthy();
    for (const off of ['OIDC', 'Linux DO', 'Telegram']) expect(screen.queryByRole('group', { name: off })).toBeNull();
  });

  it('is not shown when no provider is enabled', async () => {
    server.use(ok('get', '/api/status', siteStatus()));
    renderPage(<PersonalPage />, '/personal');
    await screen.findByText('个人设置');
    await waitFor(() => expect(sentTo('GET', '/api/status')).toHaveLength(1));
    expect(screen.queryByText('第三方账户绑定')).toBeNull();
  });

  it('GitHub: asks for a state, then leaves for the authorisation address returning to the server address', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    server.use(ok('get', '/api/status', siteStatus({ ...allEnabled, server_address: 'https://gw.example.com' })));
    localStorage.setItem('status', JSON.stringify(siteStatus({ ...allEnabled, server_address: 'https://gw.example.com' })));
    await openBindings();
    await userEvent.click(row('GitHub').getByRole('button', { name: '修改绑定' }));
    await waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
    expect(sentTo('GET', '/api/oauth/state')).toHaveLength(1);
    const url = new URL(String(assign.mock.calls[0]?.[0]));
    expect(url.origin + url.pathname).toBe('https://github.com/login/oauth/authorize');
    expect(url.searchParams.get('client_id')).toBe('gh-client');
    expect(url.searchParams.get('state')).toBe('st4te-1');
    expect(url.searchParams.get('redirect_uri')).toBe('https://gw.example.com/oauth/github');
  });

  it('Linux DO: without a server address the callback is this page’s origin', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    await openBindings();
    await userEvent.click(row('Linux DO').getByRole('button', { name: '绑定' }));
    await waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
    const url = new URL(String(assign.mock.calls[0]?.[0]));
    expect(url.origin + url.pathname).toBe('https://connect.linux.do/oauth2/authorize');
    expect(url.searchParams.get('redirect_uri')).toBe(`${window.location.origin}/oauth/linuxdo`);
  });

  it('shows a refused state and stays on the page', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    server.use(http.get('/api/oauth/state', () => HttpResponse.json({ success: false, message: '请求过于频繁，请稍后再试' })));
    await openBindings();
    await userEvent.click(row('OIDC').getByRole('button', { name: '绑定' }));
    expect(await screen.findByText('请求过于频繁，请稍后再试')).toBeTruthy();
    expect(assign).not.toHaveBeenCalled();
    expect(row('OIDC').getByRole('button', { name: '绑定' }).hasAttribute('disabled')).toBe(false);
  });

  it('WeChat: sends the code to /api/oauth/wechat/bind, then reloads the user', async () => {
    server.use(
      http.post('/api/oauth/wechat/bind', async ({ request }) => {
        received.push({
          method: 'POST',
          path: '/api/oauth/wechat/bind',
          search: new URL(request.url).search,
          body: await request.json(),
        });
        current = { ...current, wechat_id: 'openid-wx-9' };
        return HttpResponse.json({ success: true, message: '绑定成功！', data: current });
      }),
    );
    await openBindings();
    await userEvent.click(row('微信').getByRole('button', { name: '绑定' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('绑定微信账户')).toBeTruthy();
    expect(within(dialog).getByRole('img').getAttribute('src')).toBe('https://wx.example.com/qr.png');
    await userEvent.click(within(dialog).getByRole('button', { name: '绑定' }));
    expect(await screen.findByText('请输入验证码')).toBeTruthy();
    expect(sentTo('POST', '/api/oauth/wechat/bind')).toHaveLength(0);

    await userEvent.type(within(dialog).getByLabelText('验证码'), '654321');
    await userEvent.click(within(dialog).getByRole('button', { name: '绑定' }));
    expect(await screen.findByText('绑定成功！')).toBeTruthy();
    expect(sentTo('POST', '/api/oauth/wechat/bind').map((r) => [r.search, r.body])).toEqual([['', { code: '654321' }]]);
    expect(await screen.findByText('已绑定：openid-wx-9')).toBeTruthy();
    expect(sentTo('GET', '/api/user/self')).toHaveLength(2);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('WeChat: shows the server’s refusal and keeps the dialog open', async () => {
    server.use(
      http.post('/api/oauth/wechat/bind', () => HttpResponse.json({ success: false, message: '该微信账户已被其他用户绑定' })),
    );
    await openBindings();
    await userEvent.click(row('微信').getByRole('button', { name: '绑定' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('验证码'), '111111');
    await userEvent.click(within(dialog).getByRole('button', { name: '绑定' }));
    expect(await screen.findByText('该微信账户已被其他用户绑定')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
    // Behind the open dialog the page is hidden from the accessibility tree.
    expect(within(screen.getByRole('group', { name: '微信', hidden: true })).getByText('未绑定')).toBeTruthy();
    expect(sentTo('GET', '/api/user/self')).toHaveLength(1);
  });

  it('Telegram: shows the widget on demand and binds its answer through /api/oauth/telegram/bind', async () => {
    server.use(
      http.get('/api/oauth/telegram/bind', ({ request }) => {
        received.push({ method: 'GET', path: '/api/oauth/telegram/bind', search: new URL(request.url).search, body: undefined });
        current = { ...current, telegram_id: '777004' };
        return HttpResponse.json({ success: true, message: '绑定成功！', data: current });
      }),
    );
    await openBindings();
    expect(document.querySelector('script[data-telegram-login]')).toBeNull();
    await userEvent.click(row('Telegram').getByRole('button', { name: '绑定' }));
    const script = document.querySelector('script[data-telegram-login]');
    expect(script?.getAttribute('data-telegram-login')).toBe('gateway_bot');
    expect(window.onTelegramAuth).toBeTypeOf('function');

    window.onTelegramAuth?.({ id: 777004, first_name: 'Carol', auth_date: 1700000000, hash: 'ab12' });
    expect(await screen.findByText('绑定成功！')).toBeTruthy();
    const [sent] = sentTo('GET', '/api/oauth/telegram/bind');
    expect(Object.fromEntries(new URLSearchParams(sent?.search))).toEqual({
      id: '777004',
      first_name: 'Carol',
      auth_date: '1700000000',
      hash: 'ab12',
    });
    expect(await screen.findByText('已绑定：777004')).toBeTruthy();
    expect(document.querySelector('script[data-telegram-login]')).toBeNull();
    expect(sentTo('GET', '/api/oauth/telegram/login')).toHaveLength(0);
  });

  it('Telegram: shows the server’s refusal', async () => {
    server.use(
      http.get('/api/oauth/telegram/bind', () => HttpResponse.json({ success: false, message: 'Telegram 登录信息校验失败' })),
    );
    await openBindings();
    await userEvent.click(row('Telegram').getByRole('button', { name: '绑定' }));
    window.onTelegramAuth?.({ id: 1, auth_date: 1700000000, hash: 'bad' });
    expect(await screen.findByText('Telegram 登录信息校验失败')).toBeTruthy();
    expect(row('Telegram').getByText('未绑定')).toBeTruthy();
  });
});

/** The callback and the settings page mounted together, as App.tsx routes them. */
function renderCallback(url: string) {
  return renderRoutes(
    [
      ['/oauth/:type', <OAuthCallbackPage />],
      ['/setting', <SettingPage />],
    ],
    url,
  );
}

describe('after a redirect bind', () => {
  it('/oauth/github → /setting → /personal for a non-root user, with 绑定成功！', async () => {
    server.use(ok('get', '/api/oauth/github', { ...self, github_id: '5151' }, 'bind'));
    renderCallback('/oauth/github?code=c0de&state=st4te-1');
    expect(await screen.findByText('now at /personal')).toBeTruthy();
    expect(await screen.findByText('绑定成功！')).toBeTruthy();
    expect(sentTo('GET', '/api/oauth/github').map((r) => r.search)).toEqual(['?code=c0de&state=st4te-1']);
  });

  it('shows the refusal of a bind', async () => {
    server.use(
      http.get('/api/oauth/github', () => HttpResponse.json({ success: false, message: '该 GitHub 账户已被其他用户绑定' })),
    );
    renderCallback('/oauth/github?code=c0de&state=st4te-1');
    expect((await screen.findAllByText('该 GitHub 账户已被其他用户绑定')).length).toBeGreaterThan(0);
    expect(screen.getByText('操作失败，重定向至登录界面中...')).toBeTruthy();
  });

  it('/setting keeps the settings for root and sends anyone else to /personal', async () => {
    server.use(ok('get', '/api/option/', []));
    const first = renderPage(<SettingPage />, '/setting');
    expect(await screen.findByText('now at /personal')).toBeTruthy();
    first.unmount();

    localStorage.setItem('user', JSON.stringify({ id: 1, username: 'root', role: 100 }));
    renderPage(<SettingPage />, '/setting', '/setting?tab=operation');
    expect(await screen.findByRole('tab', { name: '运营设置' })).toBeTruthy();
    expect(screen.queryByText(/now at/)).toBeNull();
  });
});
