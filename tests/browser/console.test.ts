/**
 * The console in real Chromium (Debian's package) against the real gateway on a fresh SQLite
 * database: setup wizard → login → create a user → see it in the list → switch language → log out.
 * Needs the built console (`npm run build`; `npm test` builds first).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { CONSOLE_DIR, launch, missing, SHOTS } from './helpers.js';

describe.skipIf(missing !== null)('console in Chromium', () => {
  let tg: TestGateway;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    tg = await startTestGateway('sqlite', { CONSOLE_DIR });
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('pageerror', (err) => errors.push(err.message));
    mkdirSync(SHOTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await tg?.close();
  });

  it('walks from a fresh gateway to a created user and back out', async () => {
    // A fresh gateway sends every route to the setup wizard.
    await page.goto(`${tg.url}/user`);
    await page.waitForURL(/\/setup$/);
    await page.getByLabel('管理员用户名').fill('root');
    await page.getByLabel('密码', { exact: true }).fill('root-pass-123');
    await page.getByLabel('确认密码').fill('root-pass-123');
    await page.screenshot({ path: join(SHOTS, '1-setup.png') });
    await page.getByRole('button', { name: '初始化系统' }).click();
    await page.getByText('系统初始化完成').waitFor();

    // After the reload the wizard is done: /setup goes home, and /login takes the password.
    await page.waitForURL((url) => !url.pathname.startsWith('/setup'), { timeout: 10_000 });
    await page.goto(`${tg.url}/login`);
    await page.getByLabel(/用户名/).fill('root');
    await page.getByLabel('密码', { exact: true }).fill('root-pass-123');
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.getByText('登录成功').waitFor();

    // Create a user in the admin list.
    await page.goto(`${tg.url}/user`);
    await page
      .getByRole('link', { name: /新建|创建|添加/ })
      .or(page.getByRole('button', { name: /新建|创建|添加/ }))
      .first()
      .click();
    const drawer = page.getByRole('dialog').or(page.locator('.MuiDrawer-paper')).first();
    await drawer.getByLabel(/^用户名/).fill('bob');
    await drawer.getByLabel(/显示名称/).fill('Bobby');
    await drawer.getByLabel(/^密码/).fill('bob-pass-1234');
    await page.screenshot({ path: join(SHOTS, '2-create-user.png') });
    await drawer.getByRole('button', { name: /保存|提交|创建/ }).click();
    await page.getByRole('cell', { name: 'bob', exact: true }).waitFor();
    await page.screenshot({ path: join(SHOTS, '3-user-list.png') });
    expect(await page.getByRole('cell', { name: 'bob', exact: true }).count()).toBe(1);

    // Switch to English: the list's labels follow.
    await page.getByRole('button', { name: /语言|Language/ }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await page
      .getByRole('columnheader', { name: /Username/i })
      .first()
      .waitFor();
    await page.screenshot({ path: join(SHOTS, '4-english.png') });

    // Log out from the user menu: back to the login page, and the list is guarded again.
    await page
      .getByRole('button', { name: /root|account|user/i })
      .last()
      .click();
    await page.getByRole('menuitem', { name: /Log ?out/i }).click();
    await page.waitForURL(/\/login/);
    await page.goto(`${tg.url}/user`);
    await page.waitForURL(/\/login/);
    expect(errors).toEqual([]);
  });
});
