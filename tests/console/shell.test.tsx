import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { Console } from '../../src/App';
import { i18nProvider } from '../../src/i18n';
import { siteStatus } from './pages-harness';
import { api, calls, logIn } from './harness';

const root = { id: 1, username: 'root', display_name: 'Root', role: 100 };
const statusWith = (overrides: Parameters<typeof siteStatus>[0] = {}) => api('get', '/api/status', siteStatus(overrides));

const server = setupServer(
  statusWith(),
  api('get', '/api/user/', {
    items: [
      {
        ...root,
        status: 1,
        quota: 0,
        used_quota: 0,
        request_count: 0,
        aff_count: 0,
        aff_history_quota: 0,
        inviter_id: 0,
        group: 'default',
        DeletedAt: 0,
      },
    ],
    total: 1,
  }),
  api('get', '/api/group/', ['default']),
  api('get', '/api/user/logout', undefined),
  // Whatever else the custom pages ask for answers an empty success.
  http.all('/api/*', () => HttpResponse.json({ success: true, message: '', data: null })),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'bypass' }));
afterEach(async () => {
  server.resetHandlers();
  calls.length = 0;
  await i18nProvider.changeLocale('zh');
});
afterAll(() => server.close());

function WhereAmI() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname}</output>;
}

function renderConsole(url: string) {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <Console />
      <WhereAmI />
    </MemoryRouter>,
  );
}

const where = () => screen.getByTestId('where').textContent;

describe('console shell', () => {
  it('sends every route to /setup until the system is set up', async () => {
    server.use(statusWith({ setup: false }));
    renderConsole('/user');
    await waitFor(() => expect(where()).toBe('/setup'));
  });

  it('sends /setup home once setup is done', async () => {
    renderConsole('/setup');
    await waitFor(() => expect(where()).toBe('/'));
  });

  it('sends a guarded page to /login when nobody is logged in', async () => {
    renderConsole('/personal');
    await waitFor(() => expect(where()).toBe('/login'));
  });

  it('shows the header, the sidebar for root and the users list at /user', async () => {
    logIn(root);
    server.use(statusWith({ system_name: 'My Gateway', docs_link: 'https://docs.example.com', self_use_mode_enabled: true }));
    renderConsole('/user');
    expect(await screen.findByText('My Gateway')).toBeTruthy();
    expect(screen.getByText('自用模式')).toBeTruthy();
    expect(screen.getByRole('link', { name: '文档' }).getAttribute('href')).toBe('https://docs.example.com');
    const sidebar = screen.getByRole('navigation', { name: '控制台' });
    expect(within(sidebar).getByRole('link', { name: '用户管理' }).getAttribute('href')).toBe('/user');
    expect(within(sidebar).getByRole('link', { name: '模型管理' }).getAttribute('href')).toBe('/model');
    expect(within(sidebar).getByRole('link', { name: '供应商管理' }).getAttribute('href')).toBe('/vendor');
    expect(within(sidebar).getByRole('link', { name: '系统设置' })).toBeTruthy();
    expect(within(sidebar).queryByRole('link', { name: '数据看板' })).toBeNull();
    // The list screen loads on first visit: give a busy machine time.
    expect(await screen.findByText('超级管理员', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Root' })).toBeTruthy();
  });

  it('shows the customer-service button for a web link only', async () => {
    logIn(root);
    server.use(statusWith({ support_link: 'https://support.example.com/chat' }));
    const { unmount } = renderConsole('/user');
    const button = await screen.findByRole('link', { name: '联系客服' });
    expect(button.getAttribute('href')).toBe('https://support.example.com/chat');
    expect(button.getAttribute('target')).toBe('_blank');
    unmount();
    server.use(statusWith({ support_link: 'javascript:alert(1)' }));
    renderConsole('/user');
    expect(await screen.findByText('超级管理员', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.queryByRole('link', { name: '联系客服' })).toBeNull();
  });

  it('remembers the collapsed sidebar', async () => {
    logIn(root);
    renderConsole('/user');
    await userEvent.click(await screen.findByRole('button', { name: '收起侧边栏' }));
    expect(localStorage.getItem('default_collapse_sidebar')).toBe('true');
    expect(screen.getByRole('button', { name: '展开侧边栏' })).toBeTruthy();
  });

  it('hides the sidebar on the home page', async () => {
    logIn(root);
    renderConsole('/');
    expect(await screen.findByRole('button', { name: 'Root' })).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: '控制台' })).toBeNull();
  });

  it('offers login and register, and no sidebar, when logged out', async () => {
    renderConsole('/pricing');
    expect(await screen.findByRole('link', { name: '登录' })).toBeTruthy();
    expect(screen.getByRole('link', { name: '注册' })).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: '控制台' })).toBeNull();
    expect(screen.queryByRole('link', { name: '文档' })).toBeNull();
  });

  it('hides register in self-use mode', async () => {
    server.use(statusWith({ self_use_mode_enabled: true }));
    renderConsole('/pricing');
    await screen.findByText('自用模式');
    expect(screen.getByRole('link', { name: '登录' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: '注册' })).toBeNull();
  });

  it('shows the custom footer sanitized, or the default credit line', async () => {
    server.use(statusWith({ footer_html: '<b>Run by us</b><img src="x" onerror="alert(1)"><script>alert(2)</script>' }));
    const { container } = renderConsole('/pricing');
    const footer = await waitFor(() => {
      const element = container.querySelector('footer .custom-footer');
      if (!element) throw new Error('no custom footer yet');
      return element;
    });
    expect(footer.querySelector('b')?.textContent).toBe('Run by us');
    expect(footer.querySelector('script')).toBeNull();
    expect(footer.querySelector('img')?.getAttribute('onerror')).toBeNull();
  });

  it('switches language and theme and remembers both', async () => {
    renderConsole('/pricing');
    await userEvent.click(await screen.findByRole('button', { name: '语言' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'English' }));
    expect(await screen.findByRole('link', { name: 'Pricing' })).toBeTruthy();
    expect(localStorage.getItem('i18nextLng')).toBe('en');
    await userEvent.click(screen.getByRole('button', { name: 'Switch to dark mode' }));
    expect(localStorage.getItem('theme-mode')).toBe('dark');
    expect(await screen.findByRole('button', { name: 'Switch to light mode' })).toBeTruthy();
  });

  it('logs out from the user menu', async () => {
    logIn(root);
    renderConsole('/user');
    await userEvent.click(await screen.findByRole('button', { name: 'Root' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: '退出' }));
    await waitFor(() => expect(where()).toBe('/login'));
    expect(localStorage.getItem('user')).toBeNull();
  });
});
