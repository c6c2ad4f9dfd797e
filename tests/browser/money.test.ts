/**
 * The money screens in real Chromium against the real gateway on SQLite: redeeming a code on the
 * wallet, an online top-up paid at the EPay stand-in and credited by its signed callback, the
 * pricing page of an anonymous visitor, and a streamed playground answer from the OpenAI stand-in.
 * Needs the built console (`npm run build`; `npm test` builds first).
 */
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { ApiClient, TestGateway } from '../helpers/gateway.js';
import { startPaymentStandIn, type PaymentStandIn } from '../helpers/payment-standin.js';
import { startOpenAIStandIn, type OpenAIStandIn } from '../helpers/upstreams/openai.js';
import {
  createUser,
  dollars,
  launch,
  loginInBrowser,
  missing,
  must,
  pageErrors,
  quotaOf,
  SHOTS,
  startConsoleGateway,
  WAIT,
  waitForText,
} from './helpers.js';

const PASSWORD = 'money-pass-123';
/** Streams 250 chunks 20 ms apart: about five seconds of "正在输出…". */
const DRIP = 'drip-250';
const DRIP_CHUNKS = 250;

describe.skipIf(missing !== null)('money screens in Chromium', () => {
  let tg: TestGateway;
  let root: ApiClient;
  let payments: PaymentStandIn;
  let upstream: OpenAIStandIn;
  let browser: Browser;
  let context: BrowserContext | null = null;

  /** A page in a fresh browser context (no cookies, no localStorage), closed after the test. */
  async function freshPage(): Promise<{ page: Page; errors: string[] }> {
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    return { page, errors: pageErrors(page) };
  }

  async function setOption(key: string, value: string): Promise<void> {
    must(await root.put('/api/option/', { key, value }), `option ${key}`);
  }

  async function mergeJsonOption(key: string, entries: Record<string, number>): Promise<void> {
    const rows = must<Array<{ key: string; value: string }>>(await root.get('/api/option/'), 'options');
    const current = JSON.parse(rows.find((row) => row.key === key)?.value || '{}') as Record<string, number>;
    await setOption(key, JSON.stringify({ ...current, ...entries }));
  }

  beforeAll(async () => {
    payments = await startPaymentStandIn();
    upstream = await startOpenAIStandIn();
    ({ tg, root } = await startConsoleGateway());
    // One channel at the OpenAI stand-in: a slow-streaming model and two priced ones for the pricing page.
    await mergeJsonOption('ModelRatio', { [DRIP]: 1, 'price-a': 1.5 });
    await mergeJsonOption('CompletionRatio', { 'price-a': 2 });
    await mergeJsonOption('ModelPrice', { 'price-b': 0.05 });
    must(
      await root.post('/api/channel/', {
        type: 1,
        name: 'stand-in',
        key: 'sk-upstream-good',
        base_url: upstream.url,
        models: `${DRIP},price-a,price-b`,
        group: 'default',
      }),
      'create channel',
    );
    await tg.gateway.ctx.channels.reload();
    browser = await launch();
  });

  afterEach(async () => {
    await context?.close();
    context = null;
  });

  afterAll(async () => {
    await browser?.close();
    await tg?.close();
    await payments?.close();
    await upstream?.close();
  });

  it('redeems a code on the wallet and shows the new balance', async () => {
    const id = await createUser(root, 'carol', PASSWORD);
    const before = await quotaOf(root, id);
    const [code] = must<string[]>(await root.post('/api/redemption/', { name: 'gift', quota: 1_500_000, count: 1 }), 'code');
    expect(code).toBeTruthy();

    const { page, errors } = await freshPage();
    await loginInBrowser(page, tg.url, 'carol', PASSWORD);
    await page.goto(`${tg.url}/topup`);
    const balance = page.getByLabel('当前余额');
    await waitForText(balance, dollars(before));

    await page.getByLabel('兑换码').fill(code!);
    await page.getByRole('button', { name: '兑换', exact: true }).click();
    await page.getByText(`兑换成功！充值额度：${dollars(1_500_000)}`).waitFor(WAIT);
    await waitForText(balance, dollars(before + 1_500_000));
    await page.screenshot({ path: join(SHOTS, 'money-1-redeemed.png') });
    expect(await quotaOf(root, id)).toBe(before + 1_500_000);

    // The same code a second time is refused and the balance stays.
    await page.getByLabel('兑换码').fill(code!);
    await page.getByRole('button', { name: '兑换', exact: true }).click();
    await page.getByText('该兑换码已被使用').waitFor(WAIT);
    expect(await quotaOf(root, id)).toBe(before + 1_500_000);
    await waitForText(balance, dollars(before + 1_500_000));
    expect(errors).toEqual([]);
  });

  it('tops up online: pays at the provider, and the signed callback credits the wallet', async () => {
    await setOption('PayAddress', `${payments.url}/`);
    await setOption('EpayId', payments.pid);
    await setOption('EpayKey', payments.key);
    await setOption('ServerAddress', `${tg.url}/`);
    await setOption('Price', '7.3');
    await setOption('MinTopUp', '2');
    const id = await createUser(root, 'dave', PASSWORD);
    const before = await quotaOf(root, id);

    const { page, errors } = await freshPage();
    await loginInBrowser(page, tg.url, 'dave', PASSWORD);
    await page.goto(`${tg.url}/topup`);
    // The minimum comes from the site status: once shown, the card knows top-up is on.
    await page.getByText('最低充值 2').waitFor(WAIT);
    await page.getByLabel('充值金额（美元）').fill('3');
    await page.getByText('实付金额：¥21.90').waitFor(WAIT);
    await page.getByRole('button', { name: '支付宝' }).click();

    const confirm = page.getByRole('dialog', { name: '充值确认' });
    await confirm.waitFor(WAIT);
    await confirm.getByText('实付金额: ¥21.90').waitFor(WAIT);
    await confirm.getByText('支付方式: 支付宝').waitFor(WAIT);
    await page.screenshot({ path: join(SHOTS, 'money-2-confirm.png') });
    await confirm.getByRole('button', { name: '确认支付' }).click();

    // The browser posts the signed form to the provider, which takes it (it checks the signature).
    await page.waitForURL(`${payments.url}/submit.php`, WAIT);
    await page.getByRole('heading', { name: /Pay ¥21\.90/ }).waitFor(WAIT);
    const orders = [...payments.orders.entries()].filter(([, order]) => order.fields.name === 'TUC3');
    expect(orders).toHaveLength(1);
    const [tradeNo, order] = orders[0]!;
    expect(order.fields).toMatchObject({ type: 'alipay', money: '21.90', return_url: `${tg.url}/topup` });
    expect(await quotaOf(root, id)).toBe(before);

    // The provider tells the gateway the order is paid, and sends the person back to the wallet.
    expect(await payments.pay(tradeNo)).toBe('success');
    await page.goto(order.fields.return_url!);
    await waitForText(page.getByLabel('当前余额'), dollars(before + 3 * 500_000));
    await page.screenshot({ path: join(SHOTS, 'money-3-credited.png') });
    expect(await quotaOf(root, id)).toBe(before + 3 * 500_000);
    expect(errors).toEqual([]);
  });

  it('shows an anonymous visitor the served models with their prices', async () => {
    const { page, errors } = await freshPage();
    await page.goto(`${tg.url}/pricing`);
    await page.getByText('未登录，价格按默认分组（倍率 1）显示。').waitFor(WAIT);
    const table = page.getByRole('table', { name: '模型价格' });
    const row = (model: string) => table.getByRole('row').filter({ has: page.getByRole('cell', { name: model, exact: true }) });

    await row('price-a').getByText('输入 $3 / 1M tokens').waitFor(WAIT);
    await row('price-a').getByText('输出 $6 / 1M tokens').waitFor(WAIT);
    await row('price-a').getByText('按量计费').waitFor(WAIT);
    await row('price-b').getByText('$0.05 / 次').waitFor(WAIT);
    await row('price-b').getByText('按次计费').waitFor(WAIT);
    await row(DRIP).getByText('输入 $2 / 1M tokens').waitFor(WAIT);
    await page.screenshot({ path: join(SHOTS, 'money-4-pricing.png') });
    // Only what the channel serves: the header row and three models.
    expect(await table.getByRole('row').count()).toBe(4);
    // Nobody is logged in.
    await page.getByRole('link', { name: '登录' }).first().waitFor(WAIT);
    expect(errors).toEqual([]);
  });

  it('streams a playground answer from the upstream into the chat', async () => {
    await createUser(root, 'erin', PASSWORD, 50_000_000);
    const { page, errors } = await freshPage();
    await loginInBrowser(page, tg.url, 'erin', PASSWORD);
    await page.goto(`${tg.url}/playground`);

    const model = page.getByRole('combobox', { name: '模型' });
    await model.click();
    await model.fill('drip');
    await page.getByRole('option', { name: DRIP, exact: true }).click(WAIT);
    expect(await model.inputValue()).toBe(DRIP);
    await page.getByLabel('消息').fill('你好，流式输出');
    await page.getByRole('button', { name: '发送' }).click();

    const chat = page.getByRole('log', { name: '对话' });
    await chat.getByText('你好，流式输出').waitFor(WAIT);
    // Part of the answer is on the page while the rest is still coming.
    await chat.getByText('正在输出…').waitFor(WAIT);
    await chat.getByText(/tick/).waitFor(WAIT);
    await page.screenshot({ path: join(SHOTS, 'money-5-streaming.png') });
    await chat.getByText('正在输出…').waitFor({ state: 'detached', timeout: 60_000 });
    await page.getByRole('button', { name: '发送' }).waitFor(WAIT);

    const answer = (await chat.getByText(/tick/).textContent()) ?? '';
    expect(answer.match(/tick/g)?.length).toBe(DRIP_CHUNKS);
    expect(await chat.getByRole('alert').count()).toBe(0);
    await page.screenshot({ path: join(SHOTS, 'money-6-answered.png') });

    const call = upstream.requests.find((r) => r.body?.model === DRIP);
    expect(call?.body).toMatchObject({ stream: true });
    expect(JSON.stringify(call?.body.messages)).toContain('你好，流式输出');
    expect(errors).toEqual([]);
  });
});
