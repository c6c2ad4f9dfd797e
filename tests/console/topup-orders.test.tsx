/**
 * Top-up orders in the console against msw: the admins' list (/topup_order, a schema resource
 * over GET /api/user/topup, searchable by order number) and the wallet's list of one's own orders
 * (GET /api/user/topup/self, paged).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type { TopUpView } from '../../server/topup/schemas';
import type { SelfUser } from '../../server/users/schemas';
import TopUpPage from '../../src/customPages/topup/TopUpPage';
import { ResourceList } from '../../src/resources/schema';
import topupOrderSchema from '../../src/resources/topup_order/schema';
import { api, callsTo, rowOf } from './harness';
import { ok, received, renderPage, sentTo, siteStatus } from './pages-harness';
import { renderList, setUpSelectableList } from './selectable-list-harness';

const order = (id: number, fields: Partial<TopUpView>): TopUpView => ({
  id,
  user_id: 5,
  username: 'carol',
  amount: 5_000_000,
  money: 73,
  trade_no: `USR5NO${id}`,
  payment_method: 'alipay',
  status: 'pending',
  create_time: 1_700_000_000,
  complete_time: 0,
  ...fields,
});

const orders = [
  order(2, {
    trade_no: 'USR7NOpaid',
    user_id: 7,
    username: 'dave',
    payment_method: 'wxpay',
    status: 'success',
    complete_time: 1_700_000_600,
  }),
  order(1, {}),
];
const page = (items: TopUpView[], total = items.length, p = 1) => ({ items, total, page: p, page_size: 10 });

describe('admin: top-up orders', () => {
  const server = setupServer(
    api('get', '/api/user/topup/', (call) => page(orders.filter((o) => o.trade_no.includes(call.query.keyword ?? '')))),
  );
  setUpSelectableList(server, { user: { id: 1, role: 10, username: 'ada' }, reset: () => undefined });
  const renderOrders = () => renderList(<ResourceList schema={topupOrderSchema} />, 'topup_order');

  it('lists every user’s orders with quota, money, method, state and times', async () => {
    renderOrders();
    const paid = await rowOf('USR7NOpaid');
    expect(within(paid).getByText('dave (7)')).toBeTruthy();
    expect(within(paid).getByText('$10.00')).toBeTruthy();
    expect(within(paid).getByText('¥73.00')).toBeTruthy();
    expect(within(paid).getByText('微信')).toBeTruthy();
    expect(within(paid).getByText('已支付')).toBeTruthy();
    const pending = await rowOf('USR5NO1');
    expect(within(pending).getByText('支付宝')).toBeTruthy();
    expect(within(pending).getByText('待支付')).toBeTruthy();
    expect(within(pending).getByText('—')).toBeTruthy();
    expect(callsTo('GET', '/api/user/topup/')[0]?.query).toEqual({ p: '1', page_size: '10' });
  });

  it('searches by order number', async () => {
    renderOrders();
    await rowOf('USR5NO1');
    await userEvent.type(screen.getByLabelText('搜索订单号'), 'paid');
    await waitFor(() => expect(callsTo('GET', '/api/user/topup/').at(-1)?.query).toMatchObject({ keyword: 'paid' }), {
      timeout: 5000,
    });
    await waitFor(() => expect(screen.queryByText('USR5NO1')).toBeNull());
    expect(screen.getByText('USR7NOpaid')).toBeTruthy();
  });
});

describe('admin: completing an order by hand', () => {
  const server = setupServer(
    api('get', '/api/user/topup/', () =>
      page([order(3, { trade_no: 'USR5NOcard', payment_method: 'stripe', money: 10 }), ...orders]),
    ),
    api('post', '/api/user/topup/complete', () => null),
  );
  setUpSelectableList(server, { user: { id: 1, role: 10, username: 'ada' }, reset: () => undefined });

  it('offers it on pending orders only, asks first, and sends the order number', async () => {
    renderList(<ResourceList schema={topupOrderSchema} />, 'topup_order');
    const card = await rowOf('USR5NOcard');
    expect(within(card).getByText('Stripe')).toBeTruthy();
    expect(within(card).getByText('10.00')).toBeTruthy();
    expect(within(await rowOf('USR7NOpaid')).queryByRole('button', { name: '补单' })).toBeNull();
    await userEvent.click(within(card).getByRole('button', { name: '补单' }));
    await userEvent.click(await screen.findByRole('button', { name: /确认|Confirm/ }));
    await waitFor(() => expect(callsTo('POST', '/api/user/topup/complete')).toHaveLength(1));
    expect(callsTo('POST', '/api/user/topup/complete')[0]?.body).toEqual({ trade_no: 'USR5NOcard' });
  });
});

describe('wallet: my top-up orders', () => {
  const mine = Array.from({ length: 12 }, (_, i) => order(12 - i, { trade_no: `USR5NOmine${12 - i}` }));
  const server = setupServer(
    ok('get', '/api/status', siteStatus()),
    ok('get', '/api/user/self', { id: 5, username: 'carol', role: 1, quota: 0, group: 'default' } as SelfUser),
    ok('get', '/api/user/topup/info', { enable_stripe_topup: false, enable_creem_topup: false }),
    http.get('/api/user/topup/self', ({ request }) => {
      const url = new URL(request.url);
      received.push({ method: 'GET', path: url.pathname, search: url.search, body: undefined });
      const p = Number(url.searchParams.get('p'));
      return HttpResponse.json({ success: true, message: '', data: page(mine.slice((p - 1) * 10, p * 10), mine.length, p) });
    }),
  );
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  beforeEach(() => localStorage.setItem('user', JSON.stringify({ id: 5, username: 'carol', role: 1 })));
  afterEach(() => {
    server.resetHandlers();
    received.length = 0;
  });
  afterAll(() => server.close());

  it('shows one’s own orders ten a page, and pages on', async () => {
    renderPage(<TopUpPage />, '/topup');
    const table = await screen.findByRole('table', { name: '我的充值订单' });
    expect(within(table).getByText('USR5NOmine12')).toBeTruthy();
    expect(within(table).queryByText('USR5NOmine2')).toBeNull();
    expect(screen.getByText('1 / 2')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '下一页' }));
    expect(await within(table).findByText('USR5NOmine2')).toBeTruthy();
    expect(sentTo('GET', '/api/user/topup/self').map((r) => r.search)).toEqual(['?p=1&page_size=10', '?p=2&page_size=10']);
  });

  it('says so when there are no orders', async () => {
    server.use(ok('get', '/api/user/topup/self', page([])));
    renderPage(<TopUpPage />, '/topup');
    expect(await screen.findByText('暂无充值订单')).toBeTruthy();
  });
});
