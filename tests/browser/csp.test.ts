/**
 * The built console under its own Content-Security-Policy in real Chromium: every page a person
 * visits (public, user and admin), with admin-authored HTML holding images from another host, the
 * Turnstile and Telegram login widgets switched on, and an address as the about page, runs without
 * a single CSP violation — and another site cannot frame it. Needs the built console.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ROOT, type ApiClient, type TestGateway } from '../helpers/gateway.js';
import { launch, loginInBrowser, missing, must, pageErrors, startConsoleGateway, WAIT } from './helpers.js';

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

/** Violations as the page reports them (event) and as Chromium logs them (console). */
async function watchCsp(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (msg) => {
    if (/Content Security Policy|Refused to/i.test(msg.text())) violations.push(`console: ${msg.text()}`);
  });
  await page.exposeFunction('reportCspViolation', (text: string) => violations.push(`event: ${text}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { reportCspViolation(t: string): void }).reportCspViolation(
        `${e.violatedDirective} blocked ${e.blockedURI} on ${location.pathname}`,
      );
    });
  });
  return violations;
}

describe.skipIf(missing !== null)('the console under its Content-Security-Policy', () => {
  let tg: TestGateway;
  let root: ApiClient;
  let browser: Browser;
  let images: Server;
  let imageUrl: string;
  let imageHits = 0;
  const contexts: BrowserContext[] = [];

  async function freshPage(): Promise<{ page: Page; violations: string[]; errors: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    contexts.push(context);
    const page = await context.newPage();
    return { page, violations: await watchCsp(page), errors: pageErrors(page) };
  }

  const setOption = async (key: string, value: string) => must(await root.put('/api/option/', { key, value }), key);

  beforeAll(async () => {
    images = createServer((_req, res) => {
      imageHits++;
      res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    });
    await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
    imageUrl = `http://127.0.0.1:${(images.address() as AddressInfo).port}/pic.png`;
    ({ tg, root } = await startConsoleGateway());
    browser = await launch();
    // Admin-authored content with images from another host, a styled element, and the notice.
    await setOption('Footer', `<p style="color: gray">Footer <img src="${imageUrl}?footer" alt="f"></p>`);
    await setOption('HomePageContent', `# Welcome\n\n![banner](${imageUrl}?home)\n\n<span style="font-weight:bold">bold</span>`);
    await setOption('Notice', 'Maintenance **tonight**');
    await setOption('About', 'https://about.example.invalid/');
  });

  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close()));
    await browser?.close();
    await tg?.close();
    await new Promise((resolve) => images?.close(resolve));
  });

  it('sends the policy with the page', async () => {
    const res = await fetch(`${tg.url}/login`);
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it('runs every page a person visits without a violation', async () => {
    const { page, violations, errors } = await freshPage();
    await page.goto(`${tg.url}/`);
    await page.getByRole('heading', { name: 'Welcome' }).waitFor(WAIT);
    await page.locator(`img[src^="${imageUrl}"]`).first().waitFor(WAIT);
    await page.goto(`${tg.url}/about`);
    await page.locator('iframe').first().waitFor(WAIT);
    await page.goto(`${tg.url}/pricing`);
    await page.waitForLoadState('networkidle');

    await loginInBrowser(page, tg.url, ROOT.username, ROOT.password);
    const pages = [
      '/detail',
      '/token',
      '/log',
      '/channel',
      '/redemption',
      '/user',
      '/setting',
      '/setting?tab=system',
      '/setting?tab=operation',
      '/setting?tab=other',
      '/personal',
      '/topup',
      '/playground',
    ];
    for (const path of pages) {
      await page.goto(tg.url + path);
      await page.getByRole('banner').waitFor(WAIT);
      await page.waitForLoadState('networkidle');
    }
    expect(imageHits).toBeGreaterThanOrEqual(2);
    expect(violations).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('loads the Turnstile and Telegram login widgets without a violation', async () => {
    await setOption('TelegramBotName', 'gateway_test_bot');
    await setOption('TelegramBotToken', '123456:stand-in-token');
    await setOption('TelegramOAuthEnabled', 'true');
    await setOption('TurnstileSiteKey', '1x00000000000000000000AA');
    await setOption('TurnstileSecretKey', '1x0000000000000000000000000000000AA');
    await setOption('TurnstileCheckEnabled', 'true');
    try {
      const { page, violations } = await freshPage();
      const requested: string[] = [];
      page.on('request', (r) => requested.push(r.url()));
      await page.goto(`${tg.url}/login`);
      await page.getByRole('button', { name: '登录', exact: true }).waitFor(WAIT);
      await page.waitForLoadState('networkidle');
      // Both scripts were asked for (whether this machine reaches those hosts or not).
      expect(requested.some((u) => u.startsWith('https://challenges.cloudflare.com/'))).toBe(true);
      expect(requested.some((u) => u.startsWith('https://telegram.org/'))).toBe(true);
      expect(violations).toEqual([]);
    } finally {
      await setOption('TurnstileCheckEnabled', 'false');
      await setOption('TelegramOAuthEnabled', 'false');
    }
  });

  it('cannot be framed by another site', async () => {
    const { page } = await freshPage();
    const blocked: string[] = [];
    page.on('console', (msg) => {
      if (/frame-ancestors|X-Frame-Options/i.test(msg.text())) blocked.push(msg.text());
    });
    await page.setContent(`<iframe id="victim" src="${tg.url}/login" width="800" height="600"></iframe>`);
    const frame = page.frameLocator('#victim');
    await expect.poll(() => blocked.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await frame.locator('button').count()).toBe(0);
  });
});
