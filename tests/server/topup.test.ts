/**
 * Online top-up against a local EPay stand-in, on every database: the price (POST /api/user/amount),
 * the signed checkout form (POST /api/user/pay) that the stand-in accepts, and the notification,
 * which credits a paid order exactly once — forged, tampered, replayed, unknown and mismatched
 * notifications credit nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { setupRoot, startTestGateway, type ApiClient, type ApiResponse, type TestGateway } from '../helpers/gateway.js';
import { loginAs, PASSWORD } from '../helpers/users.js';
import { startPaymentStandIn, standInSign, type PaymentStandIn } from '../helpers/payment-standin.js';
import { createUser } from '../../server/users/repository.js';

const QUOTA_PER_DOLLAR = 500000;

const MSG = {
  disabled: '管理员未开启在线充值！',
  method: '支付方式不存在',
  notInteger: '充值数量必须是整数',
  noAddress: '未设置服务器地址，请联系管理员',
};

function expectOk<T = any>(res: ApiResponse): T {
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ success: true });
  return res.body.data as T;
}

/** The family's wallet refusal: `message` "error", the words in `data` (its console shows "错误：" + data). */
function expectWalletFail(res: ApiResponse, words: string): void {
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ success: false, message: 'error', data: words });
}

/** POST /api/user/pay as the family answers it: the signed fields as `data`, `url` and `trade_no` beside. */
function payForm(res: ApiResponse): PayForm {
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ success: true, message: 'success' });
  return { url: res.body.url, fields: res.body.data, trade_no: res.body.trade_no };
}

interface PayForm {
  url: string;
  fields: Record<string, string>;
  trade_no: string;
}

await forEachDatabase('online top-up', (kind) => {
  let tg: TestGateway;
  let standIn: PaymentStandIn;
  let root: ApiClient;
  let alice: ApiClient;
  let bob: ApiClient;
  let aliceId: number;
  let bobId: number;

  const db = () => tg.gateway.ctx.db;
  const notifyUrl = () => `${tg.url}/api/user/epay/notify`;
  const quotaOf = async (id: number) =>
    Number((await db().selectFrom('users').select('quota').where('id', '=', id).executeTakeFirstOrThrow()).quota);
  const order = (tradeNo: string) =>
    db().selectFrom('top_ups').selectAll().where('trade_no', '=', tradeNo).executeTakeFirstOrThrow();
  const topUpLogs = (userId: number) =>
    db().selectFrom('logs').selectAll().where('user_id', '=', userId).where('type', '=', 1).orderBy('id').execute();

  async function setOption(key: string, value: string): Promise<void> {
    expectOk(await root.put('/api/option/', { key, value }));
  }

  /** An order made by `client` and submitted to the stand-in, as the wallet page does. */
  async function checkout(client: ApiClient, amount: number, method = 'zfb'): Promise<PayForm> {
    const form = payForm(await client.post('/api/user/pay', { amount, top_up_code: '', payment_method: method }));
    const submitted = await standIn.submit(form.url, form.fields);
    expect(submitted.body).toContain(`Pay ¥${form.fields.money}`);
    return form;
  }

  beforeAll(async () => {
    standIn = await startPaymentStandIn();
    tg = await startTestGateway(kind);
    root = await setupRoot(tg);
    const { db: database, dbKind } = tg.gateway.ctx;
    aliceId = await createUser(database, dbKind, { username: 'alice', password: PASSWORD });
    bobId = await createUser(database, dbKind, { username: 'bob', password: PASSWORD, group: 'vip' });
    alice = await loginAs(tg, 'alice');
    bob = await loginAs(tg, 'bob');
  });
  afterAll(async () => {
    await tg?.close();
    await standIn?.close();
  });

  it('is off until the provider is configured, and needs a session', async () => {
    expect((await tg.client().post('/api/user/amount', { amount: 10 })).status).toBe(401);
    expect((await tg.client().post('/api/user/pay', { amount: 10, payment_method: 'zfb' })).status).toBe(401);
    expect(expectOk(await tg.client().get('/api/status')).enable_online_topup).toBe(false);
    expectWalletFail(await alice.post('/api/user/amount', { amount: 10, top_up_code: '' }), MSG.disabled);
    expectWalletFail(await alice.post('/api/user/pay', { amount: 10, top_up_code: '', payment_method: 'zfb' }), MSG.disabled);
    expect(
      await standIn.notify(notifyUrl(), { pid: standIn.pid, out_trade_no: 'x', money: '1.00', trade_status: 'TRADE_SUCCESS' }),
    ).toBe('fail');
  });

  describe('configured', () => {
    beforeAll(async () => {
      await setOption('PayAddress', `${standIn.url}/`);
      await setOption('EpayId', standIn.pid);
      await setOption('EpayKey', standIn.key);
      await setOption('ServerAddress', `${tg.url}/`);
      await setOption('Price', '7.3');
      await setOption('MinTopUp', '2');
      await setOption('TopupGroupRatio', JSON.stringify({ default: 1, vip: 2 }));
    });

    it('prices an amount as price × amount × the top-up ratio of the group', async () => {
      expect(expectOk(await tg.client().get('/api/status'))).toMatchObject({ enable_online_topup: true, min_topup: 2 });
      expect(expectOk(await alice.post('/api/user/amount', { amount: 10, top_up_code: '' }))).toBe('73.00');
      expect(expectOk(await bob.post('/api/user/amount', { amount: 10, top_up_code: '' }))).toBe('146.00');
      expect(expectOk(await alice.post('/api/user/amount', { amount: 3 }))).toBe('21.90');
      expectWalletFail(await alice.post('/api/user/amount', { amount: 1 }), '充值数量不能小于 2');
      expectWalletFail(await alice.post('/api/user/amount', { amount: -5 }), '充值数量不能小于 2');
      expectWalletFail(await alice.post('/api/user/amount', { amount: 2.5 }), MSG.notInteger);
    });

    it('answers a signed EPay form to post to submit.php and records a pending order', async () => {
      expectWalletFail(await alice.post('/api/user/pay', { amount: 10, payment_method: 'paypal' }), MSG.method);
      expectWalletFail(await alice.post('/api/user/pay', { amount: 1, payment_method: 'zfb' }), '充值数量不能小于 2');
      const res = await alice.post('/api/user/pay', { amount: 10, top_up_code: '', payment_method: 'zfb' });
      expect(JSON.stringify(res.body)).not.toContain(standIn.key);
      const form = payForm(res);
      expect(form.url).toBe(`${standIn.url}/submit.php`);
      expect(form.trade_no).toMatch(new RegExp(`^USR${aliceId}NO[0-9a-f]{12}\\d+$`));
      expect(form.fields).toEqual({
        pid: standIn.pid,
        type: 'alipay',
        out_trade_no: form.trade_no,
        notify_url: notifyUrl(),
        return_url: `${tg.url}/topup`,
        name: 'TUC10',
        money: '73.00',
        sign_type: 'MD5',
        sign: standInSign(form.fields, standIn.key),
      });
      expect(await order(form.trade_no)).toMatchObject({
        user_id: aliceId,
        amount: 10 * QUOTA_PER_DOLLAR,
        money: 73,
        payment_method: 'alipay',
        status: 'pending',
      });
      const wx = payForm(await bob.post('/api/user/pay', { amount: 2, payment_method: 'wx' }));
      expect(wx.fields).toMatchObject({ type: 'wxpay', money: '29.20', name: 'TUC2' });
      // The stand-in takes the form as the browser would post it.
      expect((await standIn.submit(wx.url, wx.fields)).body).toContain('Pay ¥29.20');
      expect((await standIn.submit(wx.url, { ...wx.fields, money: '0.01' })).body).toContain('签名验证失败');
    });

    it('credits a paid order once, writes the top-up record and log, and acknowledges replays', async () => {
      const form = await checkout(alice, 10);
      const before = await quotaOf(aliceId);
      const logsBefore = (await topUpLogs(aliceId)).length;
      expect(await standIn.pay(form.trade_no)).toBe('success');
      expect(await quotaOf(aliceId)).toBe(before + 10 * QUOTA_PER_DOLLAR);
      const done = await order(form.trade_no);
      expect(done.status).toBe('success');
      expect(Number(done.complete_time)).toBeGreaterThan(0);
      const logs = await topUpLogs(aliceId);
      expect(logs).toHaveLength(logsBefore + 1);
      expect(logs.at(-1)).toMatchObject({
        username: 'alice',
        quota: 10 * QUOTA_PER_DOLLAR,
        content: '使用在线充值成功，充值金额: $10.00，支付金额：¥73.00',
      });

      // The provider retries until it reads "success": the same notice again changes nothing.
      expect(await standIn.pay(form.trade_no)).toBe('success');
      expect(await standIn.notify(notifyUrl(), standIn.paidNotice(form.trade_no), { method: 'POST' })).toBe('success');
      expect(await quotaOf(aliceId)).toBe(before + 10 * QUOTA_PER_DOLLAR);
      expect(await topUpLogs(aliceId)).toHaveLength(logsBefore + 1);
    });

    it('credits once when the same notice arrives many times at once', async () => {
      const form = await checkout(bob, 3, 'wx');
      const before = await quotaOf(bobId);
      const answers = await Promise.all(Array.from({ length: 12 }, () => standIn.pay(form.trade_no)));
      expect(new Set(answers)).toEqual(new Set(['success']));
      expect(await quotaOf(bobId)).toBe(before + 3 * QUOTA_PER_DOLLAR);
      const logs = (await topUpLogs(bobId)).filter((l) => l.content?.includes('¥43.80'));
      expect(logs).toHaveLength(1);
    });

    it('refuses forged, tampered, mismatched and unknown notices, crediting nothing', async () => {
      const form = await checkout(alice, 5);
      const before = await quotaOf(aliceId);
      const notice = standIn.paidNotice(form.trade_no);
      const refused = [
        await standIn.notify(notifyUrl(), notice, { key: 'not-the-merchant-key' }),
        await standIn.notify(notifyUrl(), notice, { tamper: { sign: '' } }),
        await standIn.notify(notifyUrl(), notice, { tamper: { money: '365.00' } }),
        await standIn.notify(notifyUrl(), notice, { tamper: { out_trade_no: `${form.trade_no}X` } }),
        // Correctly signed, but not what the order costs.
        await standIn.notify(notifyUrl(), standIn.paidNotice(form.trade_no, { money: '0.01' })),
        await standIn.notify(notifyUrl(), standIn.paidNotice(form.trade_no, { money: 'abc' })),
        // Correctly signed, for another merchant or an order never made.
        await standIn.notify(notifyUrl(), standIn.paidNotice(form.trade_no, { pid: '9999' })),
        await standIn.notify(notifyUrl(), { ...notice, out_trade_no: 'USR1NOdoesnotexist1' }),
      ];
      expect(refused).toEqual(Array(refused.length).fill('fail'));
      // A signed notice of an unfinished payment is taken and changes nothing.
      expect(await standIn.notify(notifyUrl(), standIn.paidNotice(form.trade_no, { trade_status: 'WAIT_BUYER_PAY' }))).toBe(
        'success',
      );
      // No session, no header: anyone can reach the notify URL, nobody can forge it.
      expect((await tg.client().get('/api/user/epay/notify')).body).toBe('fail');
      expect(await quotaOf(aliceId)).toBe(before);
      expect((await order(form.trade_no)).status).toBe('pending');

      // The genuine notice still completes the order.
      expect(await standIn.pay(form.trade_no)).toBe('success');
      expect(await quotaOf(aliceId)).toBe(before + 5 * QUOTA_PER_DOLLAR);
    });

    it('sends notifications to CustomCallbackAddress when set, and needs some address', async () => {
      await setOption('CustomCallbackAddress', 'https://callback.example.com/');
      const form = payForm(await alice.post('/api/user/pay', { amount: 2, payment_method: 'zfb' }));
      expect(form.fields.notify_url).toBe('https://callback.example.com/api/user/epay/notify');
      expect(form.fields.return_url).toBe(`${tg.url}/topup`);
      await setOption('CustomCallbackAddress', '');
      await setOption('ServerAddress', '');
      expectWalletFail(await alice.post('/api/user/pay', { amount: 2, payment_method: 'zfb' }), MSG.noAddress);
      await setOption('ServerAddress', tg.url);
    });

    it('counts in quota points when the site does not show currency', async () => {
      await setOption('DisplayInCurrencyEnabled', 'false');
      await setOption('MinTopUp', '100000');
      try {
        expectWalletFail(await alice.post('/api/user/amount', { amount: 99999 }), '充值数量不能小于 100000');
        expect(expectOk(await alice.post('/api/user/amount', { amount: 1000000 }))).toBe('14.60');
        const form = await checkout(alice, 1000000);
        expect(form.fields.money).toBe('14.60');
        const before = await quotaOf(aliceId);
        expect(await standIn.pay(form.trade_no)).toBe('success');
        expect(await quotaOf(aliceId)).toBe(before + 1000000);
      } finally {
        await setOption('DisplayInCurrencyEnabled', 'true');
        await setOption('MinTopUp', '2');
      }
    });
  });
});
