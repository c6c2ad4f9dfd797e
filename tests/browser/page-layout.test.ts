/**
 * The self-service and settings pages in real Chromium on a phone (390×844) and a wide screen
 * (1440×900), in Chinese and English: every settings tab, the wallet, personal settings, the
 * playground and the dashboard. None may widen the page (`scrollWidth ≤ innerWidth`), every button
 * must be on screen (or inside a box that scrolls sideways on purpose, like a tab strip), and no
 * English may be left in the Chinese pages' text. Screenshots go to tests/browser/artifacts/
 * (gitignored) for a person to look at. Needs the built console (`npm run build`).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ROOT, type ApiClient, type TestGateway } from '../helpers/gateway.js';
import { launch, loginInBrowser, missing, must, pageErrors, startConsoleGateway, WAIT } from './helpers.js';

const ARTIFACTS = join(process.cwd(), 'tests', 'browser', 'artifacts');

const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'wide', width: 1440, height: 900 },
] as const;

const PAGES = [
  ...['operation', 'ratelimit', 'models', 'system', 'other'].map((tab) => ({
    name: `setting-${tab}`,
    path: `/setting?tab=${tab}`,
  })),
  { name: 'topup', path: '/topup' },
  { name: 'personal', path: '/personal' },
  { name: 'playground', path: '/playground' },
  { name: 'detail', path: '/detail' },
];

/** What breaks the layout: page overflow, and buttons that cannot be seen or reached. */
interface LayoutReport {
  scrollWidth: number;
  innerWidth: number;
  offscreen: string[];
}

/** Measured in the page: a button counts as reachable when it is on screen or inside a box that scrolls sideways. */
function measure(): LayoutReport {
  const width = window.innerWidth;
  const scrollsSideways = (el: Element | null): boolean => {
    for (let node = el?.parentElement; node; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (/(auto|scroll)/.test(style.overflowX) && node.scrollWidth > node.clientWidth) return true;
    }
    return false;
  };
  const offscreen: string[] = [];
  for (const el of document.querySelectorAll('button, a[role="button"], [role="tab"]')) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || el.closest('[aria-hidden="true"]')) continue;
    if ((box.left < -1 || box.right > width + 1) && !scrollsSideways(el)) {
      offscreen.push(
        `${el.textContent?.trim() || el.getAttribute('aria-label') || el.tagName} @${Math.round(box.left)}–${Math.round(box.right)}`,
      );
    }
  }
  return { scrollWidth: document.documentElement.scrollWidth, innerWidth: width, offscreen };
}

/** Latin words in the page's visible text that are neither names, units nor code (the English a Chinese page must not show). */
function englishLeftovers(): string[] {
  // Product and protocol names, the labels other sites show (GitHub's "OAuth App", "Homepage URL"),
  // parameter and mode names (Midjourney's fast/relax/turbo, model suffixes) and example values.
  const allowed =
    /^(AI|API|ID|IP|URL|USD|JSON|HTTP|Token|tokens?|Tokens|OpenAI|Claude|Gemini|GitHub|github|OIDC|oidc|OAuth|oauth|Okta|Auth|App|Homepage|Authorization|callback|well-known|openid-configuration|LinuxDO|linuxdo|Linux|DO|Telegram|Turnstile|SMTP|SSL|Webhook|Stripe|Creem|Redis|HTML|Markdown|Logo|Bot|Client|Secret|Key|Well-Known|Worker|EPay|Epay|QPS|RPM|TPM|CSV|Midjourney|AccountFilter|fast|relax|turbo|beta|thinking|nothinking|vip|Suno|UTC|Root|root|Chat|Gateway|Base|sk|gpt|mini|default|https?|www|com|[A-Za-z]*\d[\w.-]*|[a-z]+(_[a-z]+)+|[a-z]+[A-Z]\w*|[A-Za-z]+(\.[a-z_]+)+)$/;
  // Code is not prose: addresses, quoted values, JSON fragments and a key explained in parentheses.
  let text = (document.querySelector('main') ?? document.body).innerText
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/"[^"\n]*"/g, ' ');
  for (let before = ''; before !== text;) {
    before = text;
    text = text.replace(/\{[^{}]*\}|\[[^[\]]*\]/g, ' ');
  }
  text = text.replace(/[A-Za-z_]+（/g, '（');
  const words = text.match(/[A-Za-z][A-Za-z.\-_]{2,}/g) ?? [];
  return [...new Set(words.filter((w) => !allowed.test(w)))];
}

describe.skipIf(missing !== null)('page layout on a phone and a wide screen', () => {
  let tg: TestGateway;
  let root: ApiClient;
  let browser: Browser;

  beforeAll(async () => {
    ({ tg, root } = await startConsoleGateway());
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await launch();
    // Some traffic for the dashboard and the personal page to show.
    must(await root.put('/api/option/', { key: 'DataExportEnabled', value: 'true' }), 'data export');
  });

  afterAll(async () => {
    await browser?.close();
    await tg?.close();
  });

  async function settle(page: Page): Promise<void> {
    await page.waitForLoadState('networkidle', WAIT);
    await page
      .locator('[role="progressbar"]')
      .first()
      .waitFor({ state: 'detached', timeout: WAIT.timeout })
      .catch(() => undefined);
  }

  it('checks for updates from the other-settings tab and says when the release feed is unreachable', async () => {
    // `.invalid` never resolves: the check must say so, not invent an answer.
    must(await root.put('/api/option/', { key: 'UpdateCheckUrl', value: 'https://releases.invalid/latest' }), 'feed');
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    try {
      await loginInBrowser(page, tg.url, ROOT.username, ROOT.password);
      await page.evaluate(() => localStorage.setItem('i18nextLng', 'en'));
      await page.goto(`${tg.url}/setting?tab=other`);
      const section = page.getByRole('region', { name: 'System information' });
      await section.getByRole('button', { name: 'Check for updates' }).click(WAIT);
      await section.getByText(/Update check failed, please try again later: The release feed is unreachable/).waitFor(WAIT);
      await page.screenshot({ path: join(ARTIFACTS, 'update-check-unreachable.png') });
    } finally {
      await context.close();
      must(await root.put('/api/option/', { key: 'UpdateCheckUrl', value: '' }), 'feed');
    }
  }, 120_000);

  for (const viewport of VIEWPORTS) {
    for (const locale of ['zh', 'en'] as const) {
      it(`${viewport.name} ${viewport.width}×${viewport.height}, ${locale}: no overflow, every action on screen`, async () => {
        const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
        const page = await context.newPage();
        const errors = pageErrors(page);
        try {
          await loginInBrowser(page, tg.url, ROOT.username, ROOT.password);
          await page.evaluate((l) => localStorage.setItem('i18nextLng', l), locale);
          const problems: string[] = [];
          for (const target of PAGES) {
            await page.goto(`${tg.url}${target.path}`);
            await page.locator('main, #main-content, [role="main"]').first().waitFor(WAIT);
            await settle(page);
            const report = await page.evaluate(measure);
            await page.screenshot({
              path: join(ARTIFACTS, `${viewport.width}x${viewport.height}-${locale}-${target.name}.png`),
              fullPage: true,
            });
            if (report.scrollWidth > report.innerWidth) {
              problems.push(`${target.path}: page is ${report.scrollWidth}px wide in ${report.innerWidth}px`);
            }
            for (const button of report.offscreen) problems.push(`${target.path}: off screen: ${button}`);
            if (locale === 'zh') {
              const english = await page.evaluate(englishLeftovers);
              if (english.length > 0) problems.push(`${target.path}: English in the Chinese page: ${english.join(', ')}`);
            }
          }
          expect(problems).toEqual([]);
          expect(errors).toEqual([]);
        } finally {
          await context.close();
        }
      }, 240_000);
    }
  }
});
