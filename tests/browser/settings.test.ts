/**
 * The /setting page in real Chromium against the real gateway on SQLite: root renames the system
 * in the personalization section and the header and page title follow (at once and after a
 * reload); root turns new-user registration off and /register stops offering it, while the server
 * refuses it. Needs the built console (`npm run build`; `npm test` builds first).
 */
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ROOT, type ApiClient, type TestGateway } from '../helpers/gateway.js';
import { launch, loginInBrowser, missing, must, pageErrors, SHOTS, startConsoleGateway, WAIT } from './helpers.js';

const NEW_NAME = 'Acme 模型网关';

describe.skipIf(missing !== null)('settings in Chromium', () => {
  let tg: TestGateway;
  let root: ApiClient;
  let browser: Browser;
  let contexts: BrowserContext[] = [];

  async function freshPage(): Promise<{ page: Page; errors: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    contexts.push(context);
    const page = await context.newPage();
    return { page, errors: pageErrors(page) };
  }

  const status = async () => must<Record<string, unknown>>(await tg.client().get('/api/status'), 'status');

  beforeAll(async () => {
    ({ tg, root } = await startConsoleGateway());
    browser = await launch();
  });

  afterEach(async () => {
    await Promise.all(contexts.map((c) => c.close()));
    contexts = [];
  });

  afterAll(async () => {
    await browser?.close();
    await tg?.close();
  });

  it('renames the system: the header and title show the new name', async () => {
    const { page, errors } = await freshPage();
    await loginInBrowser(page, tg.url, ROOT.username, ROOT.password);
    await page.goto(`${tg.url}/setting?tab=other`);
    const header = page.getByRole('banner');
    await header.getByText('AI Gateway', { exact: true }).waitFor(WAIT);

    const section = page.getByRole('region', { name: '个性化设置' });
    const name = section.getByLabel('系统名称');
    await name.waitFor(WAIT);
    await name.fill(NEW_NAME);
    await section.getByRole('button', { name: '保存设置' }).click();
    await page.getByText('保存成功').waitFor(WAIT);
    expect((await status()).system_name).toBe(NEW_NAME);

    // The status is refreshed after the save: header and title follow without a reload…
    await header.getByText(NEW_NAME, { exact: true }).waitFor(WAIT);
    await page.waitForFunction((expected) => document.title === expected, NEW_NAME, WAIT);
    await page.screenshot({ path: join(SHOTS, 'settings-1-renamed.png') });

    // …and after one, the field holds the saved name.
    await page.reload();
    await header.getByText(NEW_NAME, { exact: true }).waitFor(WAIT);
    expect(await page.title()).toBe(NEW_NAME);
    expect(await page.getByRole('region', { name: '个性化设置' }).getByLabel('系统名称').inputValue()).toBe(NEW_NAME);

    // A visitor who was never logged in sees it too.
    const visitor = await freshPage();
    await visitor.page.goto(`${tg.url}/login`);
    await visitor.page.getByRole('banner').getByText(NEW_NAME, { exact: true }).waitFor(WAIT);
    expect(errors).toEqual([]);
    expect(visitor.errors).toEqual([]);
  });

  it('turns registration off: /register stops offering it and the server refuses it', async () => {
    // Open to begin with.
    const visitor = await freshPage();
    await visitor.page.goto(`${tg.url}/register`);
    await visitor.page.getByLabel('确认密码').waitFor(WAIT);
    await visitor.page.getByRole('button', { name: '注册', exact: true }).waitFor(WAIT);

    const { page, errors } = await freshPage();
    await loginInBrowser(page, tg.url, ROOT.username, ROOT.password);
    await page.goto(`${tg.url}/setting?tab=system`);
    const section = page.getByRole('region', { name: '配置登录注册' });
    const register = section.getByRole('switch', { name: '允许新用户注册' });
    await register.waitFor(WAIT);
    expect(await register.isChecked()).toBe(true);
    await register.uncheck();
    await section.getByRole('button', { name: '保存设置' }).click();
    await page.getByText('保存成功').waitFor(WAIT);
    expect((await status()).register_enabled).toBe(false);
    await page.screenshot({ path: join(SHOTS, 'settings-2-register-off.png') });

    // The switch stays off after a reload.
    await page.reload();
    const reloaded = page.getByRole('region', { name: '配置登录注册' }).getByRole('switch', { name: '允许新用户注册' });
    await reloaded.waitFor(WAIT);
    expect(await reloaded.isChecked()).toBe(false);

    // A new visitor finds registration closed, with no form to fill…
    const late = await freshPage();
    await late.page.goto(`${tg.url}/register`);
    await late.page.getByText('管理员关闭了新用户注册。').waitFor(WAIT);
    expect(await late.page.getByLabel('确认密码').count()).toBe(0);
    expect(await late.page.getByRole('button', { name: '注册', exact: true }).count()).toBe(0);
    await late.page.screenshot({ path: join(SHOTS, 'settings-3-register-closed.png') });

    // …and the server refuses a registration sent anyway.
    const direct = await tg.client().post('/api/user/register', {
      username: 'sneaky',
      password: 'sneaky-pass-1',
      password2: 'sneaky-pass-1',
    });
    expect(direct.body).toMatchObject({ success: false, message: '管理员关闭了新用户注册' });
    const found = must<{ items: unknown[] }>(await root.get('/api/user/search?keyword=sneaky'), 'search');
    expect(found.items).toHaveLength(0);
    expect(errors).toEqual([]);
    expect(visitor.errors).toEqual([]);
    expect(late.errors).toEqual([]);
  });
});
