/**
 * The family's wallet and admin reads of online top-up, against a local EPay stand-in:
 * GET /api/user/topup/info (on/off, methods, least amount), orders made by POST /api/user/pay with
 * the family's method names (alipay, wxpay) as well as ours, GET /api/user/topup/self (one's own
 * orders) and GET /api/user/topup (every order, admins, searchable by order number).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { setupRoot, startTestGateway, type ApiClient, type TestGateway } from '../helpers/gateway.js';
import { startPaymentStandIn, type PaymentStandIn } from '../helpers/payment-standin.js';
import { loginAs, PASSWORD } from '../helpers/users.js';
import { createUser } from '../../server/users/repository.js';

interface Order {
  id: number;
  user_id: number;
  username: string;
  trade_no: string;
  amount: number;
  money: number;
  payment_method: string;
  status: string;
  complete_time: number;
}

await forEachDatabase('top-up info and orders', (kind) => {
  let tg: TestGateway;
  let standIn: PaymentStandIn;
  let root: ApiClient;
  let alice: ApiClient;
  let bob: ApiClient;
  let aliceId: number;

  const setOption = async (key: string, value: string) =>
    expect((await root.put('/api/option/', { key, value })).body.success).toBe(true);
  const pay = async (client: ApiClient, amount: number, method: string): Promise<string> => {
    const res = await client.post('/api/user/pay', { amount, payment_method: method });
    expect(res.body.success, res.body.message).toBe(true);
    await standIn.submit(res.body.url, res.body.data);
    return res.body.trade_no;
  };
  const page = async (client: ApiClient, path: string) => {
    const res = await client.get(path);
    expect(res.body.success, res.body.message).toBe(true);
    return res.body.data as { items: Order[]; total: number; page: number; page_size: number };
  };

  beforeAll(async () => {
    standIn = await startPaymentStandIn();
    tg = await startTestGateway(kind);
    root = await setupRoot(tg);
    const { db, dbKind } = tg.gateway.ctx;
    aliceId = await createUser(db, dbKind, { username: 'alice', password: PASSWORD });
    await createUser(db, dbKind, { username: 'bob', password: PASSWORD });
    alice = await loginAs(tg, 'alice');
    bob = await loginAs(tg, 'bob');
  });
  afterAll(async () => {
    await tg?.close();
    await standIn?.close();
  });

  it('says online top-up is off, with no methods, until the provider is configured', async () => {
    expect((await alice.get('/api/user/topup/info')).body.data).toEqual({
      enable_online_topup: false,
      enable_stripe_topup: false,
      enable_creem_topup: false,
      pay_methods: [],
      min_topup: 1,
      stripe_min_topup: 1,
      creem_products: '[]',
      amount_options: [],
      discount: {},
    });
    expect((await tg.client().get('/api/user/topup/info')).status).toBe(401);
  });

  it('offers the methods by the type POST /api/user/pay takes, and takes the family’s names', async () => {
    await setOption('PayAddress', `${standIn.url}/`);
    await setOption('EpayId', standIn.pid);
    await setOption('EpayKey', standIn.key);
    await setOption('ServerAddress', `${tg.url}/`);
    await setOption('MinTopUp', '2');
    const info = (await alice.get('/api/user/topup/info')).body.data;
    expect(info).toMatchObject({ enable_online_topup: true, min_topup: 2 });
    expect(info.pay_methods).toEqual([
      { name: '支付宝', type: 'alipay' },
      { name: '微信', type: 'wxpay' },
    ]);
    for (const method of info.pay_methods as Array<{ type: string }>) await pay(alice, 3, method.type);
    await pay(alice, 4, 'zfb');
    const paid = await pay(bob, 5, 'wx');
    expect(await standIn.pay(paid)).toBe('success');
    expect((await alice.post('/api/user/pay', { amount: 3, payment_method: 'paypal' })).body.code).toBe('topup.method_unknown');
  });

  it("lists a user's own orders, newest first, and never another's", async () => {
    const mine = await page(alice, '/api/user/topup/self?p=1&page_size=10');
    expect(mine.total).toBe(3);
    expect(mine.items.map((o) => o.payment_method)).toEqual(['alipay', 'wxpay', 'alipay']);
    expect(mine.items.every((o) => o.user_id === aliceId && o.username === 'alice' && o.status === 'pending')).toBe(true);
    expect(mine.items[0]).toMatchObject({ amount: 2_000_000, complete_time: 0 });
    const bobs = await page(bob, '/api/user/topup/self');
    expect(bobs.items).toHaveLength(1);
    expect(bobs.items[0]).toMatchObject({ username: 'bob', status: 'success', payment_method: 'wxpay' });
    expect(bobs.items[0]!.complete_time).toBeGreaterThan(0);
    const paged = await page(alice, '/api/user/topup/self?p=2&page_size=2');
    expect(paged).toMatchObject({ total: 3, page: 2, page_size: 2 });
    expect(paged.items).toHaveLength(1);
  });

  it('lists every order for admins, searchable by part of the order number, wildcards literal', async () => {
    const all = await page(root, '/api/user/topup?p=1&page_size=10');
    expect(all.total).toBe(4);
    expect(new Set(all.items.map((o) => o.username))).toEqual(new Set(['alice', 'bob']));
    const bobsOrder = all.items.find((o) => o.username === 'bob')!;
    const part = bobsOrder.trade_no.slice(3, 12);
    const found = await page(root, `/api/user/topup/?keyword=${encodeURIComponent(part)}`);
    expect(found.items.map((o) => o.trade_no)).toEqual([bobsOrder.trade_no]);
    expect((await page(root, '/api/user/topup?keyword=%25')).total).toBe(0);
    expect((await alice.get('/api/user/topup')).body).toMatchObject({ success: false, code: 'auth.forbidden' });
  });
});
