import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupServer } from 'msw/node';
import ResetConfirmPage from '../../src/customPages/reset/ResetConfirmPage';
import ResetRequestPage from '../../src/customPages/reset/ResetRequestPage';
import { ok, received, renderPage, sentTo, siteStatus } from './pages-harness';

const server = setupServer(
  ok('get', '/api/status', siteStatus()),
  ok('get', '/api/reset_password'),
  ok('post', '/api/user/reset', 'n3w-Passw0rd'),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  received.length = 0;
});
afterAll(() => server.close());

describe('password reset request', () => {
  it('needs an e-mail, sends the link, then counts down', async () => {
    renderPage(<ResetRequestPage />, '/reset');
    await userEvent.click(screen.getByRole('button', { name: '发送重置邮件' }));
    expect(await screen.findByText('请输入邮箱地址')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('邮箱地址'), 'amy@example.com');
    await userEvent.click(screen.getByRole('button', { name: '发送重置邮件' }));
    const waiting = await screen.findByRole('button', { name: /重新发送 \(30\)/ });
    expect(waiting.hasAttribute('disabled')).toBe(true);
    expect(sentTo('GET', '/api/reset_password')[0]?.search).toContain('email=amy%40example.com');
  });
});

describe('password reset confirm', () => {
  it('shows the new password and copies it', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    try {
      renderPage(<ResetConfirmPage />, '/user/reset', '/user/reset?email=amy%40example.com&token=tok-1');
      await userEvent.click(screen.getByRole('button', { name: '确认重置密码' }));
      expect(((await screen.findByLabelText('新密码')) as HTMLInputElement).value).toBe('n3w-Passw0rd');
      expect(sentTo('POST', '/api/user/reset').map((r) => r.body)).toEqual([{ email: 'amy@example.com', token: 'tok-1' }]);
      expect(writeText).toHaveBeenCalledWith('n3w-Passw0rd');
      expect(await screen.findByText('新密码已复制到剪贴板')).toBeTruthy();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('shows the password in a dialog when the clipboard refuses', async () => {
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText: () => Promise.reject(new Error('denied')) } });
    try {
      renderPage(<ResetConfirmPage />, '/user/reset', '/user/reset?email=amy%40example.com&token=tok-1');
      await userEvent.click(screen.getByRole('button', { name: '确认重置密码' }));
      const dialog = await screen.findByRole('dialog', { name: '无法复制到剪贴板，请手动复制' });
      expect(dialog.querySelector('textarea')?.value).toBe('n3w-Passw0rd');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('explains a link without email or token', async () => {
    renderPage(<ResetConfirmPage />, '/user/reset', '/user/reset?email=amy%40example.com');
    expect(await screen.findByText('重置链接无效或已过期')).toBeTruthy();
    expect(screen.queryByRole('button', { name: '确认重置密码' })).toBeNull();
  });
});
