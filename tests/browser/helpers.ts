/**
 * Shared by the browser tests: whether Chromium and the built console are there (skip with a
 * message, or fail under CI=true), launching Chromium, a gateway serving the built console on a
 * fresh SQLite database with root set up, users made through the API, logging in on /login, and
 * waiting for an element's exact text.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { isCI } from '../helpers/databases.js';
import { must, setupRoot, startTestGateway, type ApiClient, type TestGateway } from '../helpers/gateway.js';

export { must };

const CHROMIUM = '/usr/bin/chromium';
export const CONSOLE_DIR = join(process.cwd(), 'dist', 'console');
export const SHOTS = join(process.cwd(), 'tests', 'browser', '.shots');

/** Why the browser tests cannot run here, or null when they can. */
export const missing = !existsSync(CHROMIUM)
  ? `${CHROMIUM} not installed`
  : !existsSync(join(CONSOLE_DIR, 'index.html'))
    ? 'console not built'
    : null;
if (missing && isCI) throw new Error(`browser test cannot run under CI=true: ${missing}`);
if (missing) console.warn(`[skip] browser test skipped: ${missing}`);

export async function launch(): Promise<Browser> {
  mkdirSync(SHOTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-quic',
      '--no-first-run',
      '--disable-sync',
    ],
  });
}

/** Waits for the loaded machine: every wait is on a specific element, none is a fixed sleep. */
export const WAIT = { timeout: 30_000 };

/** The gateway serving the built console, with the setup wizard done and root logged in through the API. */
export async function startConsoleGateway(): Promise<{ tg: TestGateway; root: ApiClient }> {
  const tg = await startTestGateway('sqlite', { CONSOLE_DIR });
  return { tg, root: await setupRoot(tg) };
}

/** A normal user made by root (POST /api/user/), with `quota` set when given; answers its id. */
export async function createUser(root: ApiClient, username: string, password: string, quota?: number): Promise<number> {
  const { id } = must<{ id: number }>(
    await root.post('/api/user/', { username, password, display_name: username }),
    `create ${username}`,
  );
  if (quota !== undefined) {
    must(await root.put('/api/user/', { id, username, display_name: username, quota, group: 'default' }), `quota of ${username}`);
  }
  return id;
}

/** A user's quota as the admin API reads it. */
export async function quotaOf(root: ApiClient, id: number): Promise<number> {
  return Number(must<{ quota: number }>(await root.get(`/api/user/${id}`), `user ${id}`).quota);
}

/** Logs in on the /login page the way a person does, and waits for the welcome and the landing page. */
export async function loginInBrowser(page: Page, baseUrl: string, username: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel(/用户名/).fill(username);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await page.getByText('登录成功').waitFor(WAIT);
  await page.waitForURL((url) => !url.pathname.startsWith('/login'), WAIT);
}

/** Waits until `locator` shows exactly `text` (surrounding whitespace aside). */
export async function waitForText(locator: Locator, text: string): Promise<void> {
  const exact = new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
  await locator.filter({ hasText: exact }).first().waitFor(WAIT);
}

/** Dollars as the console shows a quota: quota ÷ 500000, two decimals. */
export function dollars(quota: number): string {
  return `$${(quota / 500000).toFixed(2)}`;
}

/** Collects uncaught errors of the page, to check at the end that there were none. */
export function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  return errors;
}
