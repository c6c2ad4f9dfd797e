/**
 * Every list page of the console in real Chromium, on a phone (390×844) and a wide screen
 * (1440×900), in Chinese and English: the page never scrolls sideways, the create button and the
 * first row's actions are on screen, and on the phone every sidebar destination is in the menu
 * drawer and leads to its page. Screenshots go to tests/browser/artifacts/ (not committed).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { ROOT, type ApiClient, type TestGateway } from '../helpers/gateway.js';
import { createUser, launch, loginInBrowser, missing, must, pageErrors, startConsoleGateway, WAIT } from './helpers.js';

const ARTIFACTS = join(process.cwd(), 'tests', 'browser', 'artifacts');
const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1440, height: 900 };

/** Each list page, whether it has a create button, and a row action every row shows. */
const LISTS = [
  { path: '/user', create: true, action: { zh: '编辑', en: 'Edit' } },
  { path: '/token', create: true, action: { zh: '编辑', en: 'Edit' } },
  { path: '/redemption', create: true, action: { zh: '编辑', en: 'Edit' } },
  { path: '/channel', create: true, action: { zh: '测试', en: 'Test' } },
  { path: '/log', create: false },
  { path: '/task', create: false },
  { path: '/midjourney', create: false },
] as const;

type Lang = 'zh' | 'en';

describe.skipIf(missing !== null)('list pages on a phone and a wide screen', () => {
  let tg: TestGateway;
  let root: ApiClient;
  let browser: Browser;
  let context: BrowserContext | null = null;

  async function rootPage(viewport: { width: number; height: number }, lang: Lang): Promise<{ page: Page; errors: string[] }> {
    context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const errors = pageErrors(page);
    await loginInBrowser(page, tg.url, ROOT.username, ROOT.password);
    if (lang === 'en') await page.evaluate(() => localStorage.setItem('i18nextLng', 'en'));
    return { page, errors };
  }

  /** The page is as wide as the window: nothing pushes it sideways. */
  async function expectNoOverflow(page: Page, what: string): Promise<void> {
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(scrollWidth, `${what}: page ${scrollWidth}px wide in a ${innerWidth}px window`).toBeLessThanOrEqual(innerWidth);
  }

  /** The element is inside the window, left to right. */
  async function expectOnScreen(locator: Locator, page: Page, what: string): Promise<void> {
    await locator.scrollIntoViewIfNeeded();
    const box = await locator.boundingBox();
    const width = page.viewportSize()?.width ?? 0;
    expect(box, `${what} is not rendered`).not.toBeNull();
    expect(box!.x, `${what} starts left of the window`).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width, `${what} ends right of the window`).toBeLessThanOrEqual(width);
  }

  async function openList(page: Page, path: string): Promise<void> {
    await page.goto(`${tg.url}${path}`);
    // A row (table or card) or the empty-list message: the list has answered.
    await page
      .locator('[data-id]')
      .or(page.getByText(/结果为空|未找到|No results|No .+ found|not found/i))
      .first()
      .waitFor(WAIT);
  }

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    ({ tg, root } = await startConsoleGateway());
    for (const key of ['DrawingEnabled', 'TaskEnabled', 'DataExportEnabled']) {
      must(await root.put('/api/option/', { key, value: 'true' }), `option ${key}`);
    }
    // Something in every list that can hold it: a user, a token, a channel, a code redeemed (a log row).
    await createUser(root, 'dora', 'dora-pass-1234');
    must(await root.post('/api/token/', { name: 'my-first-token', remain_quota: 500000, expired_time: -1 }), 'token');
    must(
      await root.post('/api/channel/', {
        type: 1,
        name: 'upstream-with-a-rather-long-name',
        key: 'sk-x',
        models: 'gpt-4o-mini,gpt-4o',
        group: 'default',
      }),
      'channel',
    );
    const [code] = must<string[]>(await root.post('/api/redemption/', { name: 'gift', quota: 100000, count: 2 }), 'codes');
    const dora = tg.client();
    must(await dora.login('dora', 'dora-pass-1234'), 'dora login');
    must(await dora.post('/api/user/topup', { key: code }), 'redeem');
    browser = await launch();
  });

  afterEach(async () => {
    await context?.close();
    context = null;
  });

  afterAll(async () => {
    await browser?.close();
    await tg?.close();
  });

  for (const [size, viewport] of [
    ['phone', PHONE],
    ['wide', WIDE],
  ] as const) {
    for (const lang of ['zh', 'en'] as const) {
      it(`${size} (${viewport.width}×${viewport.height}, ${lang}): no sideways scroll, create and row actions on screen`, async () => {
        const { page, errors } = await rootPage(viewport, lang);
        for (const list of LISTS) {
          await openList(page, list.path);
          await expectNoOverflow(page, list.path);
          if (list.create) {
            await expectOnScreen(
              page.getByRole('link', { name: lang === 'zh' ? '新建' : 'Create' }).first(),
              page,
              `${list.path} create`,
            );
          }
          if ('action' in list) {
            const row = page.locator('[data-id]').first();
            await expectOnScreen(
              row
                .getByRole('button', { name: list.action[lang], exact: true })
                .or(row.getByRole('link', { name: list.action[lang], exact: true }))
                .first(),
              page,
              `${list.path} row action`,
            );
          }
          await page.screenshot({
            path: join(ARTIFACTS, `list-${size}-${lang}${list.path.replace('/', '-')}.png`),
            fullPage: true,
          });
        }
        expect(errors).toEqual([]);
      });
    }
  }

  it.each(['zh', 'en'] as const)(
    'usage logs fit a wide screen (%s): every column in view, every header on one line',
    async (lang) => {
      const { page, errors } = await rootPage(WIDE, lang);
      await openList(page, '/log');
      await expectNoOverflow(page, '/log');
      // The table's own frame does not scroll either: the details column is in view, not behind a scroll.
      const frame = await page
        .locator('table')
        .first()
        .evaluate((table) => {
          let el = table.parentElement;
          while (el && !['auto', 'scroll'].includes(getComputedStyle(el).overflowX)) el = el.parentElement;
          return el ? { scroll: el.scrollWidth, client: el.clientWidth } : null;
        });
      if (frame)
        expect(frame.scroll, `log table ${frame.scroll}px in a ${frame.client}px frame`).toBeLessThanOrEqual(frame.client + 1);
      const headers = page.getByRole('columnheader');
      for (const header of await headers.all()) {
        const box = await header.boundingBox();
        // One line of 14 px text is about 20–24 px tall; a header broken character by character is far taller.
        if (box) expect(box.height, `header ${await header.textContent()}`).toBeLessThan(60);
      }
      expect(errors).toEqual([]);
    },
  );

  it('phone: every sidebar destination is in the menu drawer and opens its page', async () => {
    const wide = await rootPage(WIDE, 'zh');
    await wide.page.goto(`${tg.url}/token`);
    const sidebar = wide.page.getByRole('navigation', { name: '控制台' });
    await sidebar.getByRole('link').first().waitFor(WAIT);
    const destinations = await sidebar.getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(destinations).toEqual(expect.arrayContaining(['/topup', '/personal', '/log', '/channel', '/setting']));
    await context?.close();

    const { page, errors } = await rootPage(PHONE, 'zh');
    await page.goto(`${tg.url}/token`);
    // The sidebar itself is hidden on a phone.
    await page.getByRole('button', { name: '打开菜单' }).waitFor(WAIT);
    expect(await page.getByRole('navigation', { name: '控制台' }).count()).toBe(0);
    for (const href of destinations) {
      await page.getByRole('button', { name: '打开菜单' }).click();
      const drawer = page.getByRole('navigation', { name: '导航' });
      const link = drawer.locator(`a[href="${href}"]`).last();
      await link.waitFor(WAIT);
      await expectOnScreen(link, page, `menu entry ${href}`);
      await link.click();
      await page.waitForURL(
        (url) => url.pathname === href || url.pathname.startsWith(`${href}/`) || href!.startsWith('/new'),
        WAIT,
      );
      await expect.poll(() => drawer.count()).toBe(0);
    }
    await page.getByRole('button', { name: '打开菜单' }).click();
    await page.screenshot({ path: join(ARTIFACTS, 'menu-phone-zh.png') });
    expect(errors).toEqual([]);
  });
});
