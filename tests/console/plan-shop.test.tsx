/**
 * The wallet's plans for sale against msw: each plan with what it gives, a dialog offering only
 * the payment methods the admin turned on (Creem only for a plan with a Creem product), the exact
 * body each /api/subscription/<provider>/pay route receives and where the person is sent, and a
 * refusal shown in the server's words.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type { PlanView } from '../../server/subscriptions/schemas';
import { PlanShopCard } from '../../src/customPages/topup/PlanShopCard';
import { ok, received, renderPage, sentTo } from './pages-harness';

vi.setConfig({ testTimeout: 60_000 });
const SLOW = { timeout: 15_000 };

const plan = (id: number, title: string, fields: Partial<PlanView> = {}): PlanView => ({
  id,
  title,
  subtitle: '',
  price_amount: 20,
  currency: 'USD',
  duration_unit: 'month',
  duration_value: 1,
  custom_seconds: 0,
  enabled: true,
  sort_order: 0,
  stripe_price_id: '',
  creem_product_id: '',
  max_purchase_per_user: 0,
  total_amount: 5_000_000,
  upgrade_group: 'vip',
  quota_reset_period: 'daily',
  quota_reset_custom_seconds: 0,
  created_at: 1700000000,
  updated_at: 1700000000,
  ...fields,
});

const PLANS = [
  plan(1, 'Pro', { subtitle: 'For teams', max_purchase_per_user: 2 }),
  plan(2, 'Year', {
    price_amount: 199.5,
    duration_unit: 'year',
    quota_reset_period: 'monthly',
    upgrade_group: '',
    creem_product_id: 'prod_9',
  }),
];

/** GET /api/user/topup/info with every method on unless `extra` turns some off. */
function topUpInfo(extra: object = {}) {
  return {
    enable_online_topup: true,
    enable_stripe_topup: true,
    enable_creem_topup: true,
    pay_methods: [
      { name: '支付宝', type: 'alipay' },
      { name: '微信', type: 'wxpay' },
      { name: 'Stripe', type: 'stripe', min_topup: '1' },
    ],
    min_topup: 1,
    stripe_min_topup: 1,
    creem_products: '[]',
    amount_options: [],
    discount: {},
    ...extra,
  };
}

/** A route answering as the family does: the fields beside `success`, not wrapped. */
function answer(path: string, body: object) {
  return http.post(path, async ({ request }) => {
    received.push({ method: 'POST', path, search: '', body: await request.json() });
    return HttpResponse.json(body);
  });
}

const epayForm = { pid: '1001', type: 'wxpay', out_trade_no: 'USR5NOsub1', money: '146.00', sign: 'f'.repeat(32) };
const server = setupServer(
  ok(
    'get',
    '/api/subscription/plans',
    PLANS.map((p) => ({ plan: p })),
  ),
  ok('get', '/api/user/topup/info', topUpInfo()),
  answer('/api/subscription/epay/pay', {
    success: true,
    message: 'success',
    data: epayForm,
    url: 'https://pay.example.com/submit.php',
    trade_no: 'USR5NOsub1',
  }),
  answer('/api/subscription/stripe/pay', {
    success: true,
    message: 'success',
    data: { pay_link: 'https://checkout.stripe.com/c/pay/cs_1' },
  }),
  answer('/api/subscription/creem/pay', {
    success: true,
    message: 'success',
    data: { checkout_url: 'https://checkout.creem.io/ch_2', order_id: 'USR5NOsub2' },
  }),
);

let submitted: HTMLFormElement[];
let assign: ReturnType<typeof vi.fn>;
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  localStorage.setItem('user', JSON.stringify({ id: 5, username: 'carol', role: 1 }));
  submitted = [];
  vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(function (this: HTMLFormElement) {
    submitted.push(this);
  });
  assign = vi.fn();
  vi.stubGlobal('location', { ...window.location, assign, href: window.location.href });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  server.resetHandlers();
  received.length = 0;
  document.querySelectorAll('form[action]').forEach((form) => form.remove());
});
afterAll(() => server.close());

async function openShop() {
  renderPage(<PlanShopCard quotaPerUnit={500000} />, '/topup');
  await screen.findByRole('heading', { name: '可购买的套餐' }, SLOW);
}

async function buy(title: string) {
  await userEvent.click(within(await screen.findByRole('group', { name: title }, SLOW)).getByRole('button', { name: '购买' }));
  return screen.findByRole('dialog', { name: '购买套餐' }, SLOW);
}

describe('wallet: plans for sale', () => {
  it('is hidden when no plan is on sale', async () => {
    server.use(ok('get', '/api/subscription/plans', []));
    renderPage(<PlanShopCard />, '/topup');
    await waitFor(() => expect(sentTo('GET', '/api/subscription/plans')).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('heading', { name: '可购买的套餐' })).toBeNull();
  });

  it('lists each plan with its price, duration, quota, reset period, group and limit', async () => {
    await openShop();
    const pro = screen.getByRole('group', { name: 'Pro' });
    for (const text of [
      'For teams',
      '20.00 USD',
      '有效期: 1 个月',
      '每周期额度: $10.00',
      '额度重置: 每天',
      '升级分组: vip',
      '每人限购 2 次',
    ])
      expect(within(pro).getByText(text)).toBeTruthy();
    const year = screen.getByRole('group', { name: 'Year' });
    for (const text of ['199.50 USD', '有效期: 1 年', '额度重置: 每月']) expect(within(year).getByText(text)).toBeTruthy();
    expect(within(year).queryByText(/升级分组/)).toBeNull();
  });

  it('offers only the enabled methods, Creem only for a plan with a Creem product', async () => {
    await openShop();
    let dialog = await buy('Pro');
    const names = () =>
      within(dialog)
        .getAllByRole('button')
        .map((b) => b.textContent);
    expect(names()).toEqual(['支付宝', '微信', 'Stripe', '取消']);
    await userEvent.click(within(dialog).getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    dialog = await buy('Year');
    expect(names()).toEqual(['支付宝', '微信', 'Stripe', 'Creem', '取消']);
  });

  it('says so when no method is on', async () => {
    server.use(
      ok(
        'get',
        '/api/user/topup/info',
        topUpInfo({ enable_online_topup: false, enable_stripe_topup: false, enable_creem_topup: false, pay_methods: [] }),
      ),
    );
    await openShop();
    const dialog = await buy('Year');
    expect(within(dialog).getByText('管理员未开启可用于该套餐的支付方式')).toBeTruthy();
    expect(
      within(dialog)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['取消']);
  });

  it('posts the signed EPay form to the provider', async () => {
    await openShop();
    await userEvent.click(within(await buy('Pro')).getByRole('button', { name: '微信' }));
    await waitFor(() => expect(submitted).toHaveLength(1));
    expect(sentTo('POST', '/api/subscription/epay/pay').map((r) => r.body)).toEqual([{ plan_id: 1, payment_method: 'wxpay' }]);
    const form = submitted[0]!;
    expect(form.action).toBe('https://pay.example.com/submit.php');
    expect(Object.fromEntries([...form.querySelectorAll('input')].map((i) => [i.name, i.value]))).toEqual(epayForm);
  });

  it('sends the person to Stripe’s and Creem’s checkout pages', async () => {
    await openShop();
    await userEvent.click(within(await buy('Pro')).getByRole('button', { name: 'Stripe' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_1'));
    expect(sentTo('POST', '/api/subscription/stripe/pay').map((r) => r.body)).toEqual([{ plan_id: 1 }]);
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await userEvent.click(within(await buy('Year')).getByRole('button', { name: 'Creem' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.creem.io/ch_2'));
    expect(sentTo('POST', '/api/subscription/creem/pay').map((r) => r.body)).toEqual([{ plan_id: 2 }]);
    expect(submitted).toHaveLength(0);
  });

  it('shows a refusal in the server’s words (by its code, else its text) and goes nowhere', async () => {
    const refusal = (data: string, code: string, params?: object) => ({ success: false, message: 'error', data, code, params });
    server.use(
      answer(
        '/api/subscription/stripe/pay',
        refusal('currency differs', 'subscription.currency_mismatch', { plan: 'CNY', method: 'usd' }),
      ),
      answer('/api/subscription/epay/pay', refusal('limit reached', 'subscription.purchase_limit', { max: 2 })),
      answer('/api/subscription/creem/pay', refusal('Creem 暂时不可用', 'creem.some_new_reason')),
    );
    await openShop();
    let dialog = await buy('Pro');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Stripe' }));
    expect(await within(dialog).findByText('套餐币种（CNY）与该支付方式的币种（usd）不一致', {}, SLOW)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: '支付宝' }));
    expect(await within(dialog).findByText('已达到该套餐的购买上限 2 次', {}, SLOW)).toBeTruthy();
    expect(sentTo('POST', '/api/subscription/epay/pay').map((r) => r.body)).toEqual([{ plan_id: 1, payment_method: 'alipay' }]);
    await userEvent.click(within(dialog).getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    dialog = await buy('Year');
    expect(within(dialog).queryByRole('alert')).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Creem' }));
    expect(await within(dialog).findByText('Creem 暂时不可用', {}, SLOW)).toBeTruthy();
    expect(assign).not.toHaveBeenCalled();
    expect(submitted).toHaveLength(0);
  });
});
