/**
 * The personal page's sign-in security: turning two-factor sign-in on (secret, QR code and backup
 * codes shown once, the first code confirms), turning it off with a code, and removing a passkey,
 * where the server's `verify.required` brings up the verification and the removal is retried.
 */
import { beforeEach, describe, expect, it, vi, afterEach } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import PersonalPage from '../../src/customPages/personal/PersonalPage';
import { ok, received, renderPage, securityHandlers, selfUser, sentTo, serveDuringTests, siteStatus } from './pages-harness';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const CODES = ['AAAA-BBBB-CCCC', 'DDDD-EEEE-FFFF'];

const server = setupServer(
  ...securityHandlers(),
  ok('get', '/api/status', siteStatus({ passkey_login: true })),
  ok('get', '/api/user/self', selfUser()),
  ok('get', '/api/user/models', []),
  ok('get', '/api/user/aff', 'CAROL1'),
);
serveDuringTests(server);

beforeEach(() => {
  localStorage.setItem('user', JSON.stringify({ id: 5, username: 'carol', role: 1 }));
  vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText: () => Promise.resolve() } });
});
afterEach(() => vi.unstubAllGlobals());

const security = async () => {
  renderPage(<PersonalPage />, '/personal');
  return within(await screen.findByRole('group', { name: '两步验证（动态验证码）' }));
};

describe('personal page: sign-in security', () => {
  it('turns two-factor sign-in on: secret and backup codes shown once, a first code confirms', async () => {
    server.use(
      ok('post', '/api/user/2fa/setup', {
        secret: SECRET,
        qr_code_data: `otpauth://totp/Test:carol?secret=${SECRET}&issuer=Test`,
        backup_codes: CODES,
      }),
      ok('post', '/api/user/2fa/enable', undefined, '两步验证已启用'),
    );
    const twofa = await security();
    expect(await twofa.findByText('未启用：登录只需密码')).toBeTruthy();
    await userEvent.click(twofa.getByRole('button', { name: '启用' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect((await dialog.findByTestId('totp-secret')).textContent).toBe(SECRET);
    const codes = within(dialog.getByRole('list', { name: '备用码' }));
    expect(codes.getAllByRole('listitem').map((li) => li.textContent)).toEqual(CODES);
    // The QR code is drawn here from the otpauth URI (a data: image), not fetched from anywhere.
    await waitFor(() => expect(dialog.getByAltText('认证器应用的二维码').getAttribute('src')).toMatch(/^data:image\/png/));

    server.use(...securityHandlers({ enabled: true, backup_codes_remaining: 2 }));
    await userEvent.type(dialog.getByLabelText('验证码或备用码'), '123456');
    await userEvent.click(dialog.getByRole('button', { name: '启用' }));
    expect(await screen.findByText('两步验证已启用')).toBeTruthy();
    expect(sentTo('POST', '/api/user/2fa/enable').map((r) => r.body)).toEqual([{ code: '123456' }]);
    expect(await twofa.findByText(/剩余 2 个备用码/)).toBeTruthy();
  });

  it('turns it off with a code', async () => {
    server.use(...securityHandlers({ enabled: true, backup_codes_remaining: 7 }), ok('post', '/api/user/2fa/disable'));
    const twofa = await security();
    await userEvent.click(await twofa.findByRole('button', { name: '停用' }));
    const dialog = within(await screen.findByRole('dialog'));
    await userEvent.type(dialog.getByLabelText('验证码或备用码'), 'AAAA-BBBB-CCCC');
    server.use(...securityHandlers());
    await userEvent.click(dialog.getByRole('button', { name: '确认' }));
    expect(await screen.findByText('两步验证已停用')).toBeTruthy();
    expect(sentTo('POST', '/api/user/2fa/disable').map((r) => r.body)).toEqual([{ code: 'AAAA-BBBB-CCCC' }]);
  });

  it('asks for a fresh verification when removing a passkey needs one, then removes it', async () => {
    const laptop = { id: 3, name: 'Laptop', created_at: 1_700_000_000, last_used_at: 0, backed_up: false, transports: [] };
    let verified = false;
    server.use(
      ...securityHandlers({ enabled: true, backup_codes_remaining: 5 }, { enabled: true, last_used_at: 0, passkeys: [laptop] }),
      http.delete('/api/user/passkey/3', () => {
        received.push({ method: 'DELETE', path: '/api/user/passkey/3', search: '', body: undefined });
        return HttpResponse.json(
          verified
            ? { success: true, message: '通行密钥已删除' }
            : { success: false, code: 'verify.required', message: '此操作需要先完成安全验证' },
        );
      }),
      http.post('/api/verify', async ({ request }) => {
        received.push({ method: 'POST', path: '/api/verify', search: '', body: await request.json() });
        verified = true;
        return HttpResponse.json({ success: true, message: '验证成功', data: { verified: true, expires_at: 1 } });
      }),
    );
    renderPage(<PersonalPage />, '/personal');
    const passkeys = within(await screen.findByRole('group', { name: '通行密钥' }));
    expect(await passkeys.findByText('Laptop')).toBeTruthy();
    expect(passkeys.getByText(/从未使用/)).toBeTruthy();
    await userEvent.click(passkeys.getByRole('button', { name: '删除' }));
    await userEvent.click(await screen.findByRole('button', { name: /确认|Confirm/ }));

    const dialog = within(await screen.findByRole('dialog', { name: '安全验证' }));
    await userEvent.type(dialog.getByLabelText('认证器验证码或备用码'), '654321');
    await userEvent.click(dialog.getByRole('button', { name: '验证' }));
    expect(await screen.findByText('验证成功')).toBeTruthy();
    expect(sentTo('POST', '/api/verify').map((r) => r.body)).toEqual([{ method: '2fa', code: '654321' }]);
    // Refused, verified, removed on the second try; then the list is read again.
    await waitFor(() => expect(sentTo('DELETE', '/api/user/passkey/3')).toHaveLength(2));
    await waitFor(() => expect(sentTo('GET', '/api/user/passkey')).toHaveLength(2));
  });

  it('says when this browser cannot use passkeys', async () => {
    renderPage(<PersonalPage />, '/personal');
    const passkeys = within(await screen.findByRole('group', { name: '通行密钥' }));
    expect(await passkeys.findByText('尚未添加通行密钥')).toBeTruthy();
    expect(passkeys.getByText(/当前浏览器无法在此使用通行密钥/)).toBeTruthy();
    expect(passkeys.queryByRole('button', { name: '添加通行密钥' })).toBeNull();
  });
});
