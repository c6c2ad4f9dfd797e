/**
 * Creem top-ups against a local Creem stand-in, on every database: fixed products mapped to quota,
 * the checkout (API key sent, never shown), the webhook's creem-signature checked against the raw
 * body, a paid checkout credited exactly once under replayed and concurrent deliveries, forged,
 * tampered, mismatched and other-method events refused, a refund and a dispute reversed once.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { setupRoot, startTestGateway, type ApiClient, type ApiResponse, type TestGateway } from '../helpers/gateway.js';
import { startCreemStandIn, type CreemStandIn } from '../helpers/creem-standin.js';
import { loginAs, PASSWORD } from '../helpers/users.js';
import { createUser } from '../../server/users/repository.js';

const PRODUCTS = [
  { productId: 'prod_small', name: 'Small', price: 4.99, currency: 'USD', quota: 2_500_000 },
  { productId: 'prod_large', name: 'Large', price: 19.9, currency: 'USD', quota: 10_000_000 },
];

function data<T = any>(res: ApiResponse): T {
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ success: true });
  return res.body.data as T;
}

await forEachDatabase('Creem top-up', (kind) => {
  let tg: TestGateway;
  let creem: CreemStandIn;
  let root: ApiClient;
  let alice: ApiClient;
  let aliceId: number;
  const db = () => tg.gateway.ctx.db;
  const hook = () => `${tg.url}/api/creem/webhook`;
  const quotaOf = async () =>
    Number((await db().selectFrom('users').select('quota').where('id', '=', aliceId).executeTakeFirstOrThrow()).quota);
  const order = (tradeNo: string) =>
    db().selectFrom('top_ups').selectAll().where('trade_no', '=', tradeNo).executeTakeFirstOrThrow();

  async function buy(productId: string): Promise<string> {
    const answer = data(await alice.post('/api/user/creem/pay', { product_id: productId, payment_method: 'creem' }));
    expect(answer.checkout_url).toContain(`${creem.url}/checkout/`);
    return answer.order_id as string;
  }

  beforeAll(async () => {
    creem = await startCreemStandIn();
    tg = await startTestGateway(kind, { CREEM_API_BASE: creem.url });
    root = await setupRoot(tg);
    aliceId = await createUser(tg.gateway.ctx.db, tg.gateway.ctx.dbKind, { username: 'alice', password: PASSWORD });
    alice = await loginAs(tg, 'alice');
  });
  afterAll(async () => {
    await tg?.close();
    await creem?.close();
  });

  it('is off until configured, refuses bad product lists, and lists its products', async () => {
    expect((await alice.post('/api/user/creem/pay', { product_id: 'prod_small', payment_method: 'creem' })).body).toMatchObject({
      success: false,
      code: 'topup.creem_disabled',
    });
    const bad = await root.put('/api/option/', { key: 'CreemProducts', value: '[{"productId":"p","price":-1}]' });
    expect(bad.body).toMatchObject({ success: false, code: 'option.bad_creem_products' });
    for (const [key, value] of Object.entries({
      ServerAddress: tg.url,
      CreemApiKey: creem.apiKey,
      CreemWebhookSecret: creem.webhookSecret,
      CreemProducts: JSON.stringify(PRODUCTS),
    }))
      data(await root.put('/api/option/', { key, value }));
    const info = data(await alice.get('/api/user/topup/info'));
    expect(info.enable_creem_topup).toBe(true);
    expect(JSON.parse(info.creem_products)).toEqual(PRODUCTS);
    expect((await alice.post('/api/user/creem/pay', { product_id: 'prod_none', payment_method: 'creem' })).body).toMatchObject({
      code: 'topup.product_unknown',
    });
    expect((await alice.post('/api/user/creem/pay', { product_id: 'prod_small', payment_method: 'stripe' })).body).toMatchObject({
      code: 'topup.channel_unsupported',
    });
  });

  it('ends the order as failed when the provider will not make the checkout', async () => {
    data(
      await root.put('/api/option/', {
        key: 'CreemProducts',
        value: JSON.stringify([...PRODUCTS, { productId: 'gone', name: 'Gone', price: 1, currency: 'USD', quota: 1 }]),
      }),
    );
    const res = await alice.post('/api/user/creem/pay', { product_id: 'gone', payment_method: 'creem' });
    expect(res.body).toMatchObject({ success: false, code: 'topup.checkout_failed' });
    const last = await db()
      .selectFrom('top_ups')
      .selectAll()
      .where('user_id', '=', aliceId)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(last).toMatchObject({ status: 'failed', payment_method: 'creem' });
    data(await root.put('/api/option/', { key: 'CreemProducts', value: JSON.stringify(PRODUCTS) }));
  });

  it('credits a paid checkout once under replayed and concurrent deliveries', async () => {
    const tradeNo = await buy('prod_small');
    const checkout = creem.checkoutFor(tradeNo);
    expect(checkout.body).toMatchObject({ product_id: 'prod_small', request_id: tradeNo });
    const before = await quotaOf();
    // Not yet paid: nothing moves.
    expect((await creem.deliver(hook(), creem.completed(checkout, 499, 'pending'))).status).toBe(200);
    expect(await quotaOf()).toBe(before);
    const event = creem.completed(checkout, 499);
    const answers = await Promise.all([
      ...Array.from({ length: 4 }, () => creem.deliver(hook(), event)),
      ...Array.from({ length: 3 }, () => creem.deliver(hook(), creem.completed(checkout, 499))),
    ]);
    for (const a of answers) expect(a.status).toBe(200);
    expect(await quotaOf()).toBe(before + 2_500_000);
    expect(await order(tradeNo)).toMatchObject({ status: 'success', payment_method: 'creem', gateway_ref: checkout.order_id });
    const rows = await db().selectFrom('logs').select('id').where('user_id', '=', aliceId).where('type', '=', 1).execute();
    expect(rows).toHaveLength(1);
  });

  it('refuses forged, tampered, mismatched and other-method events', async () => {
    const tradeNo = await buy('prod_large');
    const checkout = creem.checkoutFor(tradeNo);
    const before = await quotaOf();
    const event = creem.completed(checkout, 1990);
    expect((await creem.deliver(hook(), event, { secret: 'whsec_forged' })).status).toBe(400);
    expect((await creem.deliver(hook(), event, { signature: '' })).status).toBe(400);
    expect((await creem.deliver(hook(), event, { body: JSON.stringify(creem.completed(checkout, 1)) })).status).toBe(400);
    expect((await creem.deliver(hook(), creem.completed(checkout, 100))).status).toBe(400);
    const stripeTradeNo = `USR${aliceId}NOstripe${Date.now()}`;
    await db()
      .insertInto('top_ups')
      .values({
        user_id: aliceId,
        amount: 1,
        money: 19.9,
        trade_no: stripeTradeNo,
        payment_method: 'stripe',
        status: 'pending',
        create_time: 1,
      })
      .execute();
    expect((await creem.deliver(hook(), creem.completed({ ...checkout, request_id: stripeTradeNo }, 1990))).status).toBe(400);
    expect(await order(stripeTradeNo)).toMatchObject({ status: 'pending' });
    expect(await order(tradeNo)).toMatchObject({ status: 'pending' });
    expect(await quotaOf()).toBe(before);
  });

  it('reverses a refund and a dispute once', async () => {
    const tradeNo = await buy('prod_large');
    const checkout = creem.checkoutFor(tradeNo);
    expect((await creem.deliver(hook(), creem.completed(checkout, 1990))).status).toBe(200);
    const credited = await quotaOf();
    // A partial refund takes nothing back by itself.
    expect((await creem.deliver(hook(), creem.refunded(checkout, 500, 1990))).status).toBe(200);
    expect(await quotaOf()).toBe(credited);
    const refund = creem.refunded(checkout, 1990);
    const answers = await Promise.all([refund, refund, creem.refunded(checkout, 1990)].map((e) => creem.deliver(hook(), e)));
    for (const a of answers) expect(a.status).toBe(200);
    expect((await creem.deliver(hook(), creem.disputed(checkout, 1990))).status).toBe(200);
    expect(await quotaOf()).toBe(credited - 10_000_000);
    expect(await order(tradeNo)).toMatchObject({ status: 'refunded' });
    const reversals = await db()
      .selectFrom('logs')
      .select('content')
      .where('user_id', '=', aliceId)
      .where('type', '=', 4)
      .execute();
    expect(reversals.filter((r) => (r.content ?? '').includes(tradeNo))).toHaveLength(1);
  });

  it('never shows the API key or the webhook secret', async () => {
    const answers = [
      await root.get('/api/option/'),
      await alice.get('/api/user/topup/info'),
      await alice.get('/api/user/topup/self'),
    ];
    for (const a of answers) {
      expect(JSON.stringify(a.body)).not.toContain(creem.apiKey);
      expect(JSON.stringify(a.body)).not.toContain(creem.webhookSecret);
    }
    expect(creem.refusedKeys).toBe(0);
  });
});
