import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupServer } from 'msw/node';
import RegisterPage from '../../src/customPages/register/RegisterPage';
import { ok, received, renderPage, sentTo, siteStatus } from './pages-harness';

const server = setupServer(
  ok('get', '/api/status', siteStatus()),
  ok('post', '/api/user/register'),
  ok('get', '/api/verification'),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  received.length = 0;
});
afterAll(() => server.close());

async function fill(username: string, password: string, confirm: string) {
  await userEvent.type(screen.getByLabelText('用户名'), username);
  await userEvent.type(screen.getByLabelText('密码'), password);
  await userEvent.type(screen.getByLabelText('确认密码'), confirm);
}

describe('register page', () => {
  it('refuses two different passwords and a short one', async () => {
    renderPage(<RegisterPage />, '/register');
    await fill('bob', 'password123', 'password124');
    await userEvent.click(screen.getByRole('button', { name: '注册' }));
    expect(await screen.findByText('两次输入的密码不一致')).toBeTruthy();

    await userEvent.clear(screen.getByLabelText('密码'));
    await userEvent.type(screen.getByLabelText('密码'), 'short');
    await userEvent.click(screen.getByRole('button', { name: '注册' }));
    expect(await screen.findByText('密码长度应为8到20个字符')).toBeTruthy();
    expect(sentTo('POST', '/api/user/register')).toHaveLength(0);
  });

  it('registers with the stored invitation code and goes to /login', async () => {
    localStorage.setItem('aff', 'INV42');
    renderPage(<RegisterPage />, '/register');
    await fill('bob', 'password123', 'password123');
    await userEvent.click(screen.getByRole('button', { name: '注册' }));
    expect(await screen.findByText('now at /login')).toBeTruthy();
    expect(await screen.findByText('注册成功')).toBeTruthy();
    expect(sentTo('POST', '/api/user/register').map((r) => r.body)).toEqual([
      { username: 'bob', password: 'password123', password2: 'password123', email: '', verification_code: '', aff_code: 'INV42' },
    ]);
  });

  it('asks for the e-mail code when verification is on and sends it with a countdown', async () => {
    server.use(ok('get', '/api/status', siteStatus({ email_verification: true })));
    renderPage(<RegisterPage />, '/register', '/register?aff=FROMURL');
    const send = await screen.findByRole('button', { name: '获取验证码' });
    await userEvent.type(screen.getByLabelText('邮箱地址'), 'bob@example.com');
    await userEvent.click(send);
    expect(await screen.findByRole('button', { name: /重新发送 \(\d+\)/ })).toBeTruthy();
    expect(sentTo('GET', '/api/verification')[0]?.search).toContain('email=bob%40example.com');

    await fill('bob', 'password123', 'password123');
    await userEvent.click(screen.getByRole('button', { name: '注册' }));
    expect(await screen.findByText('请输入邮箱地址和验证码')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('验证码'), '123456');
    await userEvent.click(screen.getByRole('button', { name: '注册' }));
    expect(await screen.findByText('now at /login')).toBeTruthy();
    expect(sentTo('POST', '/api/user/register')[0]?.body).toMatchObject({
      email: 'bob@example.com',
      verification_code: '123456',
      aff_code: 'FROMURL',
    });
  });
});
