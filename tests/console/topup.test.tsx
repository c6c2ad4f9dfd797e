/**
 * The wallet page (/topup) against msw: the balance, redeeming a code, the top-up link, and online
 * top-up (price by amount, the minimum and "below 1 becomes 1", the confirmation, the signed form
 * posted to the provider), with the spec's messages when things are off.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type { SelfUser } from '../../server/users/schemas';
import TopUpPage from '../../src/customPages/topup/TopUpPage';
import { creditedQuota, normalizeAmount } from '../../src/customPages/topup/topupForm';
import { ok, received, renderPage, sentTo, siteStatus } from './pages-harness';

const self = { id: 5, username: 'carol', role: 1, quota: 1_000_000, group: 'default' } as SelfUser;

const payForm = {
  url: 'https://pay.example.com/submit.php',
  fields: { pid: '1001', type: 'wxpay', out_trade_no: 'USR5NOabc1', money: '73.00', sign: 'f'.repeat(32), sign_type: 'MD5' },
  trade_no: 'USR5NOabc1',
};

function refuse(method: 'post' | 'get', path: string, message: string) {
  return http[method](path, async ({ request }) => {
    received.push({ method: method.toUpperCase(), path: new URL(request.url).pathname, search: '', body: await request.json() });
    return HttpResponse.json({ success: false, message });
  });
}

const server = setupServer(
  ok('get', '/api/status', siteStatus()),
  ok('get', '/api/user/self', self),
  ok('post', '/api/user/topup', 100000),
  http.post('/api/user/amount', async ({ request }) => {
    const body = (await request.json()) as { amount: number };
    received.push({ method: 'POST', path: '/api/user/amount', search: '', body });
    return HttpResponse.json({ success: true, message: 'success', data: (Math.round(body.amount * 730) / 100).toFixed(2) });
  }),
  // The family's shape: the signed fields as `data`, the provider's address and the order beside them.
  http.post('/api/user/pay', async ({ request }) => {
    received.push({ method: 'POST', path: '/api/user/pay', search: '', body: await request.json() });
    return HttpResponse.json({
      success: true,
      message: 'success',
      data: payForm.fields,
      url: payForm.url,
      trade_no: payForm.trade_no,
    });
  }),
  ok('get', '/api/user/topup/self', { items: [], total: 0, page: 1, page_size: 10 }),
  ok('get', '/api/user/topup/info', topUpInfo()),
  ok('get', '/api/subscription/self', { billing_preference: 'subscription_first', subscriptions: [], all_subscriptions: [] }),
  ok('get', '/api/subscription/plans', []),
);

/** GET /api/user/topup/info with the card methods off unless `extra` turns them on. */
function topUpInfo(extra: object = {}) {
  return {
    enable_online_topup: false,
    enable_stripe_topup: false,
    enable_creem_topup: false,
    pay_methods: [],
    min_topup: 1,
    stripe_min_topup: 1,
    creem_products: '[]',
    amount_options: [],
    discount: {},
    ...extra,
  };
}

let submitted: HTMLFormElement[];

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  localStorage.setItem('user', JSON.stringify({ id: 5, username: 'carol', role: 1 }));
  submitted = [];
  vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(function (this: HTMLFormElement) {
    submitted.push(this);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  server.resetHandlers();
  received.length = 0;
  document.querySelectorAll('form[action]').forEach((form) => form.remove());
});
afterAll(() => server.close());

async function openWallet() {
  renderPage(<TopUpPage />, '/topup');
  await screen.findByRole('heading', { name: '钱包' });
  await waitFor(() => expect(screen.getByLabelText('当前余额').textContent).toBe('$2.00'));
}

const online = () => siteStatus({ enable_online_topup: true, min_topup: 2 });

describe('wallet: balance and redemption codes', () => {
  it('asks for a code before calling the server', async () => {
    await openWallet();
    await userEvent.click(screen.getByRole('button', { name: '兑换' }));
    expect(await screen.findByText('请输入兑换码！')).toBeTruthy();
    expect(sentTo('POST', '/api/user/topup')).toHaveLength(0);
  });

  it('redeems a code, says how much it added and shows the new balance', async () => {
    await openWallet();
    server.use(ok('get', '/api/user/self', { ...self, quota: 1_100_000 }));
    const input = screen.getByLabelText('兑换码');
    await userEvent.type(input, ' abc123 {enter}');
    expect(await screen.findByText('兑换成功！充值额度：$0.20')).toBeTruthy();
    expect(sentTo('POST', '/api/user/topup').map((r) => r.body)).toEqual([{ key: 'abc123' }]);
    await waitFor(() => expect(screen.getByLabelText('当前余额').textContent).toBe('$2.20'));
    expect((input as HTMLInputElement).value).toBe('');
  });

  it('shows the server’s reason when a code is refused', async () => {
    server.use(refuse('post', '/api/user/topup', '该兑换码已被使用'));
    await openWallet();
    await userEvent.type(screen.getByLabelText('兑换码'), 'used-code');
    await userEvent.click(screen.getByRole('button', { name: '兑换' }));
    expect(await screen.findByText('该兑换码已被使用')).toBeTruthy();
    expect(screen.getByLabelText('当前余额').textContent).toBe('$2.00');
  });

  it('opens the top-up link to buy codes, or says it is not set', async () => {
    const open = vi.fn();
    vi.stubGlobal('open', open);
    await openWallet();
    await userEvent.click(screen.getByRole('button', { name: '购买兑换码' }));
    expect(await screen.findByText('超级管理员未设置充值链接！')).toBeTruthy();
    expect(open).not.toHaveBeenCalled();
  });

  it('opens a set top-up link in a new tab', async () => {
    const open = vi.fn();
    vi.stubGlobal('open', open);
    server.use(ok('get', '/api/status', siteStatus({ top_up_link: 'https://shop.example.com/codes' })));
    await openWallet();
    await userEvent.click(screen.getByRole('button', { name: '购买兑换码' }));
    await waitFor(() => expect(open).toHaveBeenCalledWith('https://shop.example.com/codes', '_blank', 'noopener,noreferrer'));
  });
});

describe('wallet: online top-up', () => {
  it('says online top-up is off and calls nothing', async () => {
    await openWallet();
    expect(screen.getByText('管理员未开启在线充值！')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '支付宝' }));
    await waitFor(() => expect(screen.getAllByText('管理员未开启在线充值！')).toHaveLength(2));
    expect(sentTo('POST', '/api/user/amount')).toHaveLength(0);
    expect(sentTo('POST', '/api/user/pay')).toHaveLength(0);
  });

  it('starts at the minimum, prices the amount, and turns an amount below 1 into 1', async () => {
    server.use(ok('get', '/api/status', online()));
    await openWallet();
    const amount = screen.getByLabelText('充值金额（美元）') as HTMLInputElement;
    await waitFor(() => expect(amount.value).toBe('2'));
    expect(await screen.findByText('实付金额：¥14.60')).toBeTruthy();
    expect(sentTo('POST', '/api/user/amount').at(-1)?.body).toEqual({ amount: 2, top_up_code: '' });
    expect(screen.getByText('到账额度：$2.00')).toBeTruthy();
    await userEvent.clear(amount);
    await userEvent.type(amount, '0');
    await userEvent.tab();
    expect(amount.value).toBe('1');
    await userEvent.click(screen.getByRole('button', { name: '支付宝' }));
    expect(await screen.findByText('充值数量不能小于 2')).toBeTruthy();
    expect(sentTo('POST', '/api/user/pay')).toHaveLength(0);
  });

  it('confirms, then posts the signed form to the provider', async () => {
    server.use(ok('get', '/api/status', online()));
    await openWallet();
    const amount = screen.getByLabelText('充值金额（美元）');
    await userEvent.clear(amount);
    await userEvent.type(amount, '10');
    expect(await screen.findByText('实付金额：¥73.00')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '微信' }));
    const dialog = await screen.findByRole('dialog', { name: '充值确认' });
    expect(within(dialog).getByText('充值数量: 10')).toBeTruthy();
    expect(within(dialog).getByText('到账额度: $10.00')).toBeTruthy();
    expect(within(dialog).getByText('实付金额: ¥73.00')).toBeTruthy();
    expect(within(dialog).getByText('支付方式: 微信')).toBeTruthy();
    expect(sentTo('POST', '/api/user/pay')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: '确认支付' }));
    await waitFor(() => expect(submitted).toHaveLength(1));
    expect(sentTo('POST', '/api/user/pay').map((r) => r.body)).toEqual([{ amount: 10, top_up_code: '', payment_method: 'wx' }]);
    const form = submitted[0]!;
    expect(form.method.toUpperCase()).toBe('POST');
    expect(form.action).toBe(payForm.url);
    const fields = Object.fromEntries([...form.querySelectorAll('input')].map((input) => [input.name, input.value]));
    expect(fields).toEqual(payForm.fields);
  });

  it('cancels at the confirmation without ordering', async () => {
    server.use(ok('get', '/api/status', online()));
    await openWallet();
    await userEvent.click(screen.getByRole('button', { name: '支付宝' }));
    const dialog = await screen.findByRole('dialog', { name: '充值确认' });
    await userEvent.click(within(dialog).getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '充值确认' })).toBeNull());
    expect(sentTo('POST', '/api/user/pay')).toHaveLength(0);
    expect(submitted).toHaveLength(0);
  });

  it('shows the server’s refusal and posts nothing', async () => {
    server.use(ok('get', '/api/status', online()), refuse('post', '/api/user/pay', '当前管理员未配置支付信息'));
    await openWallet();
    await userEvent.click(screen.getByRole('button', { name: '支付宝' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: '充值确认' })).getByRole('button', { name: '确认支付' }),
    );
    expect(await screen.findByText('当前管理员未配置支付信息')).toBeTruthy();
    expect(submitted).toHaveLength(0);
  });

  it('refuses to post the form anywhere but an http(s) address', async () => {
    server.use(
      ok('get', '/api/status', online()),
      http.post('/api/user/pay', () =>
        HttpResponse.json({ success: true, message: 'success', data: payForm.fields, url: 'javascript:alert(1)', trade_no: 'x' }),
      ),
    );
    await openWallet();
    await userEvent.click(screen.getByRole('button', { name: '支付宝' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: '充值确认' })).getByRole('button', { name: '确认支付' }),
    );
    expect(await screen.findByText('支付地址无效，请联系管理员')).toBeTruthy();
    expect(submitted).toHaveLength(0);
  });
});

describe('wallet helpers', () => {
  it('makes amounts whole and at least 1, and credits dollars or points', () => {
    expect([0, -3, 0.5, '', 'abc', 2.9, 7].map(normalizeAmount)).toEqual([1, 1, 1, 1, 1, 2, 7]);
    expect(creditedQuota(3, true, 500000)).toBe(1_500_000);
    expect(creditedQuota(3000, false, 500000)).toBe(3000);
  });
});

describe('wallet: card top-up', () => {
  it('is hidden while Stripe and Creem are off', async () => {
    await openWallet();
    expect(screen.queryByText('银行卡支付')).toBeNull();
  });

  it('prices a Stripe amount, starts its checkout, and buys a Creem product', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign, href: window.location.href });
    const products = [{ productId: 'prod_small', name: 'Small', price: 4.99, currency: 'USD', quota: 2500000 }];
    server.use(
      ok(
        'get',
        '/api/user/topup/info',
        topUpInfo({
          enable_stripe_topup: true,
          enable_creem_topup: true,
          stripe_min_topup: 2,
          creem_products: JSON.stringify(products),
        }),
      ),
      http.post('/api/user/stripe/amount', async ({ request }) => {
        const body = (await request.json()) as { amount: number };
        received.push({ method: 'POST', path: '/api/user/stripe/amount', search: '', body });
        return HttpResponse.json({ success: true, message: 'success', data: (body.amount * 8).toFixed(2) });
      }),
      ok('post', '/api/user/stripe/pay', { pay_link: 'https://checkout.stripe.com/c/pay/cs_test_1' }, 'success'),
      ok('post', '/api/user/creem/pay', { checkout_url: 'https://checkout.creem.io/ch_1', order_id: 'USR5NOx' }, 'success'),
    );
    await openWallet();
    expect(await screen.findByText('银行卡支付')).toBeTruthy();
    const amount = screen.getByLabelText('充值数量');
    await userEvent.clear(amount);
    await userEvent.type(amount, '5');
    expect(await screen.findByText('实付：40.00')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '使用 Stripe 支付' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_test_1'));
    expect(sentTo('POST', '/api/user/stripe/pay').map((r) => r.body)).toEqual([{ amount: 5, payment_method: 'stripe' }]);
    await userEvent.click(screen.getByRole('button', { name: 'Small（4.99 USD）' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.creem.io/ch_1'));
    expect(sentTo('POST', '/api/user/creem/pay').map((r) => r.body)).toEqual([
      { product_id: 'prod_small', payment_method: 'creem' },
    ]);
  });
});
