import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import SetupPage from '../../src/customPages/setup/SetupPage';
import { ok, received, renderPage, sentTo } from './pages-harness';

const server = setupServer(
  ok('get', '/api/setup', { status: false, root_init: false, database_type: 'postgres' }),
  ok('post', '/api/setup', undefined, '系统初始化完成'),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  received.length = 0;
  vi.useRealTimers();
});
afterAll(() => server.close());

async function fill(username: string, password: string, confirm: string) {
  if (username) await userEvent.type(await screen.findByLabelText('管理员用户名'), username);
  if (password) await userEvent.type(screen.getByLabelText('密码'), password);
  if (confirm) await userEvent.type(screen.getByLabelText('确认密码'), confirm);
}

describe('setup wizard', () => {
  it('shows the database type and checks the admin fields', async () => {
    renderPage(<SetupPage />, '/setup');
    expect(await screen.findByText('数据库类型：PostgreSQL')).toBeTruthy();
    const submit = screen.getByRole('button', { name: '初始化系统' });

    await userEvent.click(submit);
    expect(await screen.findByText('请输入管理员用户名')).toBeTruthy();

    await fill('root', 'short', 'short');
    await userEvent.click(submit);
    expect(await screen.findByText('密码长度至少为8个字符')).toBeTruthy();

    await userEvent.type(screen.getByLabelText('密码'), '-longer');
    await userEvent.click(submit);
    expect(await screen.findByText('两次输入的密码不一致')).toBeTruthy();
    expect(sentTo('POST', '/api/setup')).toHaveLength(0);
  });

  it('posts the self-use mode and reloads after 1.5 s', async () => {
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    try {
      renderPage(<SetupPage />, '/setup');
      await fill('root', 'password123', 'password123');
      await userEvent.click(screen.getByRole('radio', { name: /自用模式/ }));
      await userEvent.click(screen.getByRole('button', { name: '初始化系统' }));
      expect(await screen.findByText('系统初始化完成')).toBeTruthy();
      expect(sentTo('POST', '/api/setup').map((r) => r.body)).toEqual([
        {
          username: 'root',
          password: 'password123',
          confirmPassword: 'password123',
          SelfUseModeEnabled: true,
          DemoSiteEnabled: false,
        },
      ]);
      await vi.waitFor(() => expect(reload).toHaveBeenCalled(), { timeout: 3000 });
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('sends only the mode when the root account exists', async () => {
    server.use(ok('get', '/api/setup', { status: false, root_init: true, database_type: 'sqlite' }));
    renderPage(<SetupPage />, '/setup');
    expect(await screen.findByText('管理员账户已存在，只需选择使用模式。')).toBeTruthy();
    expect(screen.queryByLabelText('管理员用户名')).toBeNull();
    await userEvent.click(screen.getByRole('radio', { name: /演示站点模式/ }));
    server.use(http.post('/api/setup', () => HttpResponse.json({ success: false, message: '' })));
    await userEvent.click(screen.getByRole('button', { name: '初始化系统' }));
    expect(await screen.findByText('初始化失败，请重试')).toBeTruthy();
  });

  it('says so when the status cannot be loaded or the call fails on the network', async () => {
    server.use(http.get('/api/setup', () => HttpResponse.error()));
    renderPage(<SetupPage />, '/setup');
    expect((await screen.findAllByText('获取初始化状态失败')).length).toBeGreaterThan(0);
  });

  it('reports a network failure of the submit', async () => {
    server.use(http.post('/api/setup', () => HttpResponse.error()));
    renderPage(<SetupPage />, '/setup');
    await fill('root', 'password123', 'password123');
    await userEvent.click(screen.getByRole('button', { name: '初始化系统' }));
    expect(await screen.findByText('系统初始化失败，请重试')).toBeTruthy();
  });

  it('leaves for / when setup is already done', async () => {
    server.use(ok('get', '/api/setup', { status: true, root_init: true, database_type: 'mysql' }));
    renderPage(<SetupPage />, '/setup');
    expect(await screen.findByText('now at /')).toBeTruthy();
  });
});
