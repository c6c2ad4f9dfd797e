/**
 * Stripe top-ups against a local Stripe stand-in, with the gateway as a process (its log read
 * whole): the price and the Checkout Session, a paid checkout credited exactly once under
 * replayed, reordered and concurrent webhooks — on PostgreSQL and MySQL across two gateways
 * sharing the database — forged, stale and other-method events refused and logged, refunds and
 * disputes reversed once (a balance that cannot cover one goes negative), an admin's completion,
 * and no secret in any answer or log line.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterAvailable, startCluster, type Cluster, type GatewayNode } from '../helpers/cluster.js';
import { createTestDatabase, type TestDatabase } from '../helpers/databases.js';
import { ApiClient, ROOT, type ApiResponse } from '../helpers/gateway.js';
import { spawnGateway, type GatewayProcess } from '../helpers/process.js';
import { standInSign } from '../helpers/payment-standin.js';
import { startStripeStandIn, type StripeStandIn } from '../helpers/stripe-standin.js';
import { PASSWORD } from '../helpers/users.js';
import Stripe from 'stripe';
import { openDb, type DbHandle } from '../../server/db/index.js';
import { verifyStripeSignature } from '../../server/topup/card/stripe.js';
import { createUser } from '../../server/users/repository.js';

const QUOTA_PER_DOLLAR = 500_000;

function data<T = any>(res: ApiResponse): T {
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ success: true });
  return res.body.data as T;
}

async function rootClient(url: string): Promise<ApiClient> {
  const root = new ApiClient(url);
  await root.post('/api/setup', { ...ROOT, confirmPassword: ROOT.password });
  expect((await root.login(ROOT.username, ROOT.password)).body.success).toBe(true);
  return root;
}

async function configure(root: ApiClient, stripe: StripeStandIn, serverAddress: string): Promise<void> {
  for (const [key, value] of Object.entries({
    ServerAddress: serverAddress,
    StripeApiSecret: stripe.secretKey,
    StripeWebhookSecret: stripe.webhookSecret,
    StripeUnitPrice: '8',
    StripeMinTopUp: '2',
  })) {
    data(await root.put('/api/option/', { key, value }));
  }
}

async function quotaOf(handle: DbHandle, id: number): Promise<number> {
  return Number((await handle.db.selectFrom('users').select('quota').where('id', '=', id).executeTakeFirstOrThrow()).quota);
}

async function orderOf(handle: DbHandle, tradeNo: string) {
  return handle.db.selectFrom('top_ups').selectAll().where('trade_no', '=', tradeNo).executeTakeFirstOrThrow();
}

/** Orders alice's top-up of `amount` dollars; answers its number. */
async function buy(client: ApiClient, amount: number): Promise<string> {
  const { pay_link } = data<{ pay_link: string }>(
    await client.post('/api/user/stripe/pay', { amount, payment_method: 'stripe' }),
  );
  expect(pay_link).toMatch(/\/c\/pay\/cs_test_/);
  const orders = data(await client.get('/api/user/topup/self')).items as { trade_no: string }[];
  return orders[0]!.trade_no;
}

describe('the Stripe-Signature check', () => {
  it('agrees with the official SDK both ways, and refuses stale, forged and malformed headers', async () => {
    const sdk = new Stripe('sk_test_unused');
    const secret = `whsec_${randomBytes(8).toString('hex')}`;
    const payload = JSON.stringify({ id: 'evt_1', object: 'event', type: 'checkout.session.completed', data: { object: {} } });
    const now = Math.floor(Date.now() / 1000);
    const header = sdk.webhooks.generateTestHeaderString({ payload, secret, timestamp: now });
    expect(verifyStripeSignature(payload, header, secret, now)).toBe(true);
    const standIn = await startStripeStandIn();
    const ours = standIn.signature(payload, secret, now);
    await standIn.close();
    expect(sdk.webhooks.constructEvent(payload, ours, secret).id).toBe('evt_1');
    expect(verifyStripeSignature(payload, `${header},v1=${'0'.repeat(64)}`, secret, now)).toBe(true);
    expect(verifyStripeSignature(payload, header, secret, now + 301)).toBe(false);
    expect(verifyStripeSignature(payload, header, 'whsec_other', now)).toBe(false);
    expect(verifyStripeSignature(`${payload} `, header, secret, now)).toBe(false);
    expect(verifyStripeSignature(payload, header.replace(/v1=/, 'v0='), secret, now)).toBe(false);
    expect(verifyStripeSignature(payload, `t=${now}`, secret, now)).toBe(false);
    expect(verifyStripeSignature(payload, header, '', now)).toBe(false);
  });
});

describe('Stripe top-up on SQLite, the gateway a process', () => {
  let database: TestDatabase;
  let handle: DbHandle;
  let gw: GatewayProcess;
  let stripe: StripeStandIn;
  let root: ApiClient;
  let alice: ApiClient;
  let aliceId: number;
  let log = '';
  const hook = () => `${gw.url}/api/stripe/webhook`;
  const logsOf = (type: number) =>
    handle.db.selectFrom('logs').selectAll().where('user_id', '=', aliceId).where('type', '=', type).execute();

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    database = await createTestDatabase('sqlite');
    if (database.target.kind !== 'sqlite') throw new Error('expected SQLite');
    gw = await spawnGateway({
      SQLITE_PATH: database.target.path,
      LOG_LEVEL: 'info',
      SESSION_SECRET: randomBytes(24).toString('hex'),
      STRIPE_API_BASE: stripe.url,
      GLOBAL_API_RATE_LIMIT: '100000',
      CRITICAL_RATE_LIMIT: '100000',
    });
    const collect = (chunk: Buffer) => (log += chunk.toString());
    gw.child.stdout?.on('data', collect);
    gw.child.stderr?.on('data', collect);
    handle = await openDb(database.target);
    root = await rootClient(gw.url);
    aliceId = await createUser(handle.db, handle.kind, { username: 'alice', password: PASSWORD });
    alice = new ApiClient(gw.url);
    expect((await alice.login('alice', PASSWORD)).body.success).toBe(true);
  }, 90_000);

  afterAll(async () => {
    await gw?.stop();
    await handle?.close();
    await database?.drop();
    await stripe?.close();
  });

  it('is off until configured; then prices by StripeUnitPrice, the group and the amount discount', async () => {
    const off = await alice.post('/api/user/stripe/pay', { amount: 10, payment_method: 'stripe' });
    expect(off.body).toMatchObject({ success: false, message: 'error', code: 'topup.stripe_disabled' });
    await configure(root, stripe, gw.url);
    const info = data(await alice.get('/api/user/topup/info'));
    expect(info).toMatchObject({ enable_stripe_topup: true, stripe_min_topup: 2 });
    expect(info.pay_methods).toContainEqual({ name: 'Stripe', type: 'stripe', min_topup: '2' });
    expect(data(await alice.post('/api/user/stripe/amount', { amount: 10 }))).toBe('80.00');
    data(await root.put('/api/option/', { key: 'payment_setting.amount_discount', value: '{"10":0.9}' }));
    expect(data(await alice.post('/api/user/stripe/amount', { amount: 10 }))).toBe('72.00');
    expect((await alice.post('/api/user/stripe/amount', { amount: 1 })).body).toMatchObject({
      code: 'topup.amount_below_minimum',
    });
    const wrong = await alice.post('/api/user/stripe/pay', { amount: 10, payment_method: 'alipay' });
    expect(wrong.body).toMatchObject({ success: false, code: 'topup.channel_unsupported' });
  });

  it('makes a Checkout Session priced by the gateway and credits it once under replays and concurrency', async () => {
    const tradeNo = await buy(alice, 10);
    const session = stripe.sessionFor(tradeNo);
    expect(session.fields).toMatchObject({
      mode: 'payment',
      'line_items[0][price_data][unit_amount]': '7200',
      'line_items[0][price_data][currency]': 'usd',
      'payment_intent_data[metadata][trade_no]': tradeNo,
    });
    const before = await quotaOf(handle, aliceId);
    const event = stripe.completed(session);
    const again = { ...stripe.completed(session) }; // the same payment, another event id
    const answers = await Promise.all([
      ...Array.from({ length: 4 }, () => stripe.deliver(hook(), event)),
      ...Array.from({ length: 3 }, () => stripe.deliver(hook(), again)),
    ]);
    for (const a of answers) expect(a.status).toBe(200);
    expect((await stripe.deliver(hook(), event)).body).toContain('duplicate');
    expect(await quotaOf(handle, aliceId)).toBe(before + 10 * QUOTA_PER_DOLLAR);
    expect(await orderOf(handle, tradeNo)).toMatchObject({ status: 'success', gateway_ref: session.payment_intent });
    expect(
      (await logsOf(1)).filter((r) => (r.content ?? '').includes('Stripe') || (r.content ?? '').includes('stripe')),
    ).toHaveLength(1);
  });

  it('refuses forged, stale and tampered events, and a Stripe event for an order of another method', async () => {
    const tradeNo = await buy(alice, 5);
    const session = stripe.sessionFor(tradeNo);
    const before = await quotaOf(handle, aliceId);
    const event = stripe.completed(session);
    expect((await stripe.deliver(hook(), event, { secret: 'whsec_forged' })).status).toBe(400);
    expect((await stripe.deliver(hook(), event, { timestamp: Math.floor(Date.now() / 1000) - 3600 })).status).toBe(400);
    const tampered = JSON.stringify(stripe.completed({ ...session, amount_total: 1, amount_subtotal: 1 }));
    expect((await stripe.deliver(hook(), event, { body: tampered })).status).toBe(400);
    expect((await stripe.deliver(hook(), event, { header: '' })).status).toBe(400);
    // An EPay order, named by a validly signed Stripe event: the family's worst bug.
    const epayTradeNo = `USR${aliceId}NOepay${Date.now()}`;
    await handle.db
      .insertInto('top_ups')
      .values({
        user_id: aliceId,
        amount: 10 * QUOTA_PER_DOLLAR,
        money: 73,
        trade_no: epayTradeNo,
        payment_method: 'alipay',
        status: 'pending',
        create_time: 1,
      })
      .execute();
    const crossed = stripe.completed({ ...session, client_reference_id: epayTradeNo, amount_total: 7300, amount_subtotal: 7300 });
    expect((await stripe.deliver(hook(), crossed)).status).toBe(400);
    expect(await orderOf(handle, epayTradeNo)).toMatchObject({ status: 'pending' });
    expect(await orderOf(handle, tradeNo)).toMatchObject({ status: 'pending' });
    expect(await quotaOf(handle, aliceId)).toBe(before);
    await new Promise((r) => setTimeout(r, 200));
    expect(log).toContain('bad or stale signature');
    expect(log).toContain('order of another method');
    expect(log).toContain(epayTradeNo);
  });

  it('refuses an EPay notification, however well signed, for a Stripe order', async () => {
    const epayKey = `epay-${randomBytes(8).toString('hex')}`;
    for (const [key, value] of Object.entries({ PayAddress: 'https://pay.example.com', EpayId: '1001', EpayKey: epayKey }))
      data(await root.put('/api/option/', { key, value }));
    const tradeNo = await buy(alice, 4);
    const before = await quotaOf(handle, aliceId);
    const money = (Number(stripe.sessionFor(tradeNo).amount_total) / 100).toFixed(2);
    const params = {
      pid: '1001',
      trade_no: 'SI1',
      out_trade_no: tradeNo,
      type: 'alipay',
      name: 'TUC4',
      money,
      trade_status: 'TRADE_SUCCESS',
    };
    const query = new URLSearchParams({ ...params, sign: standInSign(params, epayKey), sign_type: 'MD5' });
    expect(await (await fetch(`${gw.url}/api/user/epay/notify?${query}`)).text()).toBe('fail');
    expect(await orderOf(handle, tradeNo)).toMatchObject({ status: 'pending' });
    expect(await quotaOf(handle, aliceId)).toBe(before);
    data(await root.put('/api/option/', { key: 'EpayKey', value: '' }));
  });

  it('waits for an asynchronous payment, and closes a failed or expired one without credit', async () => {
    const tradeNo = await buy(alice, 3);
    const session = stripe.sessionFor(tradeNo);
    const before = await quotaOf(handle, aliceId);
    expect((await stripe.deliver(hook(), stripe.completed(session, false))).status).toBe(200);
    expect(await quotaOf(handle, aliceId)).toBe(before);
    const succeeded = stripe.event('checkout.session.async_payment_succeeded', {
      ...session,
      status: 'complete',
      payment_status: 'paid',
    });
    expect((await stripe.deliver(hook(), succeeded)).status).toBe(200);
    expect(await quotaOf(handle, aliceId)).toBe(before + 3 * QUOTA_PER_DOLLAR);

    const failing = stripe.sessionFor(await buy(alice, 4));
    const failed = stripe.event('checkout.session.async_payment_failed', { ...failing, payment_status: 'unpaid' });
    expect((await stripe.deliver(hook(), failed)).status).toBe(200);
    expect(await orderOf(handle, failing.client_reference_id)).toMatchObject({ status: 'failed' });
    // A late success for a failed order credits nothing.
    expect((await stripe.deliver(hook(), stripe.completed(failing))).status).toBe(200);
    expect(await quotaOf(handle, aliceId)).toBe(before + 3 * QUOTA_PER_DOLLAR);
  });

  it('reverses a refund and a dispute once, into a debt when the balance cannot cover it', async () => {
    const tradeNo = await buy(alice, 6);
    const session = stripe.sessionFor(tradeNo);
    // Reordered: the refund arrives before the payment it refunds is known, and is asked again.
    const refund = stripe.refunded(session);
    expect((await stripe.deliver(hook(), refund)).status).toBe(404);
    expect((await stripe.deliver(hook(), stripe.completed(session))).status).toBe(200);
    const credited = await quotaOf(handle, aliceId);
    const reversals = await Promise.all([
      stripe.deliver(hook(), refund),
      stripe.deliver(hook(), refund),
      stripe.deliver(hook(), stripe.refunded(session)),
    ]);
    for (const r of reversals) expect(r.status).toBe(200);
    expect(await quotaOf(handle, aliceId)).toBe(credited - 6 * QUOTA_PER_DOLLAR);
    expect(await orderOf(handle, tradeNo)).toMatchObject({ status: 'refunded' });
    expect((await stripe.deliver(hook(), stripe.disputed(session))).status).toBe(200);
    expect(await quotaOf(handle, aliceId)).toBe(credited - 6 * QUOTA_PER_DOLLAR);
    expect((await logsOf(4)).filter((r) => (r.content ?? '').includes(tradeNo))).toHaveLength(1);

    // A partial refund takes nothing back by itself.
    const partial = stripe.sessionFor(await buy(alice, 2));
    expect((await stripe.deliver(hook(), stripe.completed(partial))).status).toBe(200);
    const afterPartialCredit = await quotaOf(handle, aliceId);
    expect((await stripe.deliver(hook(), stripe.refunded(partial, false))).status).toBe(200);
    expect(await quotaOf(handle, aliceId)).toBe(afterPartialCredit);

    // Spent meanwhile: the dispute leaves a negative balance, the debt.
    const disputed = stripe.sessionFor(await buy(alice, 2));
    expect((await stripe.deliver(hook(), stripe.completed(disputed))).status).toBe(200);
    await handle.db.updateTable('users').set({ quota: 1000 }).where('id', '=', aliceId).execute();
    expect((await stripe.deliver(hook(), stripe.disputed(disputed))).status).toBe(200);
    expect(await quotaOf(handle, aliceId)).toBe(1000 - 2 * QUOTA_PER_DOLLAR);
    expect(await orderOf(handle, disputed.client_reference_id)).toMatchObject({ status: 'disputed' });
  });

  it('sells a plan: one subscription under replays, its group while active, both ended by a refund', async () => {
    const plan = data(
      await root.post('/api/subscription/admin/plans', {
        plan: {
          title: 'Card plan',
          price_amount: 5,
          currency: 'USD',
          duration_unit: 'month',
          duration_value: 1,
          total_amount: 300000,
          quota_reset_period: 'never',
          upgrade_group: 'vip',
          enabled: true,
        },
      }),
    );
    const cny = data(await root.post('/api/subscription/admin/plans', { plan: { ...plan, id: undefined, currency: 'CNY' } }));
    expect((await alice.post('/api/subscription/stripe/pay', { plan_id: cny.id })).body).toMatchObject({
      success: false,
      code: 'subscription.currency_mismatch',
    });
    const before = await quotaOf(handle, aliceId);
    const { pay_link } = data<{ pay_link: string }>(await alice.post('/api/subscription/stripe/pay', { plan_id: plan.id }));
    expect(pay_link).toMatch(/\/c\/pay\/cs_test_/);
    const order = await handle.db.selectFrom('top_ups').selectAll().where('plan_id', '=', plan.id).executeTakeFirstOrThrow();
    const session = stripe.sessionFor(order.trade_no);
    expect(session.fields).toMatchObject({ 'line_items[0][price_data][unit_amount]': '500' });
    const event = stripe.completed(session);
    const answers = await Promise.all([
      ...Array.from({ length: 3 }, () => stripe.deliver(hook(), event)),
      stripe.deliver(hook(), stripe.completed(session)),
    ]);
    for (const a of answers) expect(a.status).toBe(200);
    const subs = () => handle.db.selectFrom('user_subscriptions').selectAll().where('order_id', '=', order.id).execute();
    expect(await subs()).toMatchObject([{ plan_id: plan.id, status: 'active', amount_total: 300000 }]);
    expect(await quotaOf(handle, aliceId)).toBe(before); // a plan is not wallet credit
    const group = async () =>
      (await handle.db.selectFrom('users').select('group').where('id', '=', aliceId).executeTakeFirstOrThrow()).group;
    expect(await group()).toBe('vip');
    const refunds = await Promise.all([
      stripe.deliver(hook(), stripe.refunded(session)),
      stripe.deliver(hook(), stripe.refunded(session)),
    ]);
    for (const r of refunds) expect(r.status).toBe(200);
    expect(await subs()).toMatchObject([{ status: 'cancelled' }]);
    expect(await group()).toBe('default');
    expect(await orderOf(handle, order.trade_no)).toMatchObject({ status: 'refunded' });
    expect(await quotaOf(handle, aliceId)).toBe(before);
  });

  it('lets an admin complete a pending order once, audited, and filter orders by method and status', async () => {
    const tradeNo = await buy(alice, 2);
    expect((await alice.post('/api/user/topup/complete', { trade_no: tradeNo })).body).toMatchObject({
      success: false,
      code: 'auth.forbidden',
    });
    const before = await quotaOf(handle, aliceId);
    data(await root.post('/api/user/topup/complete', { trade_no: tradeNo }));
    expect((await root.post('/api/user/topup/complete', { trade_no: tradeNo })).body).toMatchObject({
      code: 'topup.order_not_pending',
    });
    expect((await root.post('/api/user/topup/complete', { trade_no: 'nope' })).body).toMatchObject({
      code: 'topup.order_not_found',
    });
    expect(await quotaOf(handle, aliceId)).toBe(before + 2 * QUOTA_PER_DOLLAR);
    const audit = await handle.db.selectFrom('audit_logs').selectAll().where('action', '=', 'topup_complete').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ outcome: 'ok', subject: 'user', subject_id: String(aliceId) });
    const refunded = data(await root.get('/api/user/topup?payment_method=stripe&status=refunded')).items;
    expect(refunded.length).toBe(2); // the top-up and the plan refunded above
    expect(data(await root.get('/api/user/topup?payment_method=alipay')).items.length).toBe(1);
  });

  it('never shows the secret key or the webhook secret in an answer or a log line', async () => {
    const options = JSON.stringify((await root.get('/api/option/')).body);
    const info = JSON.stringify((await alice.get('/api/user/topup/info')).body);
    for (const text of [options, info, log]) {
      expect(text).not.toContain(stripe.secretKey);
      expect(text).not.toContain(stripe.webhookSecret);
    }
    expect(stripe.refusedKeys).toBe(0);
  });
});

for (const kind of ['postgres', 'mysql'] as const) {
  describe.skipIf(!(await clusterAvailable(kind)))(`Stripe crediting across two gateways on ${kind}`, () => {
    let cluster: Cluster<GatewayNode>;
    let stripe: StripeStandIn;
    let handle: DbHandle;

    beforeAll(async () => {
      stripe = await startStripeStandIn();
      cluster = await startCluster(kind, ['master', 'master'], { inProcess: true, env: { STRIPE_API_BASE: stripe.url } });
      handle = await openDb(cluster.database.target);
    }, 90_000);
    afterAll(async () => {
      await handle?.close();
      await cluster?.stop();
      await stripe?.close();
    });

    it('credits a paid checkout exactly once whichever gateway takes which delivery, and reverses it once', async () => {
      const [a, b] = cluster.nodes as [GatewayNode, GatewayNode];
      const root = await rootClient(a.url);
      await configure(root, stripe, a.url);
      const id = await createUser(handle.db, handle.kind, { username: 'carol', password: PASSWORD });
      const carol = new ApiClient(a.url);
      expect((await carol.login('carol', PASSWORD)).body.success).toBe(true);
      // The second gateway takes the options up through the bus.
      const other = new ApiClient(b.url);
      expect((await other.login('carol', PASSWORD)).body.success).toBe(true);
      await expect
        .poll(async () => data(await other.get('/api/user/topup/info')).enable_stripe_topup, { timeout: 15_000 })
        .toBe(true);

      const session = stripe.sessionFor(await buy(carol, 10));
      const event = stripe.completed(session);
      const second = stripe.completed(session);
      const hooks = [a, b].map((n) => `${n.url}/api/stripe/webhook`);
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => stripe.deliver(hooks[i % 2]!, i % 3 === 0 ? second : event)),
      );
      for (const r of answers) expect(r.status).toBe(200);
      expect(await quotaOf(handle, id)).toBe(10 * QUOTA_PER_DOLLAR);
      const topups = await handle.db.selectFrom('logs').select('id').where('user_id', '=', id).where('type', '=', 1).execute();
      expect(topups).toHaveLength(1);

      const refund = stripe.refunded(session);
      await Promise.all([...hooks, ...hooks].map((h) => stripe.deliver(h, refund)));
      expect(await quotaOf(handle, id)).toBe(0);
      expect(await orderOf(handle, session.client_reference_id)).toMatchObject({ status: 'refunded' });
    });
  });
}
