/**
 * Second factors in real Chromium against the real gateway: a person adds a passkey on the personal
 * page and later signs in with it, held by Chromium's virtual authenticator (CDP WebAuthn, a
 * platform authenticator with user verification), on http://localhost (a secure context, and a
 * host name as WebAuthn's relying-party id needs); and the login page's code step for an account
 * with two-factor sign-in, the code computed as an authenticator app does. Needs the built console.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { ApiClient, TestGateway } from '../helpers/gateway.js';
import { enableTwoFa, totpCode } from '../helpers/totp.js';
import { createUser, launch, loginInBrowser, missing, must, pageErrors, SHOTS, startConsoleGateway, WAIT } from './helpers.js';

const PASSWORD = 'secret-pass-1';

describe.skipIf(missing !== null)('second factors in Chromium', () => {
  let tg: TestGateway;
  let root: ApiClient;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    ({ tg, root } = await startConsoleGateway());
    base = tg.url.replace('127.0.0.1', 'localhost');
    must(await root.put('/api/option/', { key: 'ServerAddress', value: base }), 'ServerAddress');
    browser = await launch();
  });

  afterAll(async () => {
    await browser?.close();
    await tg?.close();
  });

  async function freshPage(): Promise<{ page: Page; errors: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    return { page, errors: pageErrors(page) };
  }

  it('adds a passkey on the personal page and signs in with it', async () => {
    await createUser(root, 'pat', PASSWORD);
    const { page, errors } = await freshPage();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });

    await loginInBrowser(page, base, 'pat', PASSWORD);
    await page.goto(`${base}/personal`);
    const passkeys = page.getByRole('group', { name: '通行密钥' });
    await passkeys.getByLabel(/名称/).fill('Chromium');
    await passkeys.getByRole('button', { name: '添加通行密钥' }).click();
    await page.getByText('通行密钥已添加').waitFor(WAIT);
    await passkeys.getByText('Chromium', { exact: true }).waitFor(WAIT);
    await page.screenshot({ path: join(SHOTS, 'personal-passkeys.png'), fullPage: true });

    // Signed out, the passkey alone signs pat in again: no user name, no password.
    await page.context().clearCookies();
    await page.evaluate(() => localStorage.clear());
    await page.goto(`${base}/login`);
    await page.getByRole('button', { name: '使用通行密钥登录' }).click();
    await page.getByText('登录成功').waitFor(WAIT);
    await page.waitForURL((url) => !url.pathname.startsWith('/login'), WAIT);
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null') as { username: string } | null);
    expect(stored?.username).toBe('pat');
    expect(errors).toEqual([]);
  });

  it('asks for the authenticator code after the password of an account with two-factor sign-in', async () => {
    const id = await createUser(root, 'tina', PASSWORD);
    const api = tg.client();
    must(await api.login('tina', PASSWORD), 'login');
    const { secret } = await enableTwoFa(api);
    const { page, errors } = await freshPage();
    await page.goto(`${base}/login`);
    await page.getByLabel(/用户名/).fill('tina');
    await page.getByLabel('密码', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.getByRole('heading', { name: '两步验证' }).waitFor(WAIT);
    await page.screenshot({ path: join(SHOTS, 'login-2fa.png') });
    await page.getByLabel('验证码或备用码').fill(totpCode(secret, 1));
    await page.getByRole('button', { name: '验证并登录' }).click();
    await page.getByText('登录成功').waitFor(WAIT);
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null') as { id: number } | null);
    expect(stored?.id).toBe(id);
    expect(errors).toEqual([]);
  });
});
