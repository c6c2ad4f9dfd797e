/**
 * /api/subscription/*: admin plans (checked, audited), buying one over an EPay stand-in (a replayed
 * notification makes one subscription), max_purchase_per_user and disabled plans refused with
 * nothing written, the caller's subscriptions and billing preference, binding and invalidating a
 * user's subscriptions with the plan's upgrade group applied and reverted.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { setupRoot, startTestGateway, type ApiClient, type TestGateway } from '../helpers/gateway.js';
import { startPaymentStandIn, type PaymentStandIn } from '../helpers/payment-standin.js';
import { loginAs, PASSWORD } from '../helpers/users.js';
import { createUser } from '../../server/users/repository.js';
import { expireSubscriptions } from '../../server/subscriptions/expiry.js';

const PLAN = {
  title: 'Pro',
  subtitle: 'for heavy users',
  price_amount: 2,
  currency: 'CNY',
  duration_unit: 'month',
  duration_value: 1,
  total_amount: 500000,
  quota_reset_period: 'daily',
  upgrade_group: 'vip',
  max_purchase_per_user: 1,
  enabled: true,
};

await forEachDatabase('subscriptions over HTTP', (kind) => {
  let tg: TestGateway;
  let standIn: PaymentStandIn;
  let root: ApiClient;
  let alice: ApiClient;
  let aliceId: number;
  let planId: number;

  const counts = async () => {
    const db = tg.gateway.ctx.db;
    const subs = await db.selectFrom('user_subscriptions').select('id').execute();
    const orders = await db.selectFrom('top_ups').select('id').execute();
    return { subs: subs.length, orders: orders.length };
  };
  const groupOf = async (id: number) =>
    (await tg.gateway.ctx.db.selectFrom('users').select('group').where('id', '=', id).executeTakeFirstOrThrow()).group;

  beforeAll(async () => {
    standIn = await startPaymentStandIn();
    tg = await startTestGateway(kind);
    root = await setupRoot(tg);
    aliceId = await createUser(tg.gateway.ctx.db, tg.gateway.ctx.dbKind, { username: 'alice', password: PASSWORD });
    alice = await loginAs(tg, 'alice');
    for (const [key, value] of Object.entries({
      PayAddress: `${standIn.url}/`,
      EpayId: standIn.pid,
      EpayKey: standIn.key,
      ServerAddress: `${tg.url}/`,
    })) {
      expect((await root.put('/api/option/', { key, value })).body.success).toBe(true);
    }
  });
  afterAll(async () => {
    await tg?.close();
    await standIn?.close();
  });

  it('refuses bad plans with a clear message and writes nothing', async () => {
    const bad = [
      { ...PLAN, price_amount: -1 },
      { ...PLAN, duration_unit: 'fortnight' },
      { ...PLAN, duration_value: 0 },
      { ...PLAN, duration_unit: 'custom', custom_seconds: 0 },
      { ...PLAN, quota_reset_period: 'hourly' },
      { ...PLAN, quota_reset_period: 'custom', quota_reset_custom_seconds: 0 },
      { ...PLAN, title: '   ' },
      { ...PLAN, total_amount: -5 },
    ];
    for (const plan of bad) {
      const res = await root.post('/api/subscription/admin/plans', { plan });
      expect(res.body.success, JSON.stringify(plan)).toBe(false);
      expect(res.body.message).not.toBe('');
    }
    expect((await root.get('/api/subscription/admin/plans')).body.data).toEqual([]);
    expect((await alice.post('/api/subscription/admin/plans', { plan: PLAN })).body.code).toBe('auth.forbidden');
  });

  it('creates, edits and disables plans, audited; users see only enabled ones', async () => {
    const created = await root.post('/api/subscription/admin/plans', { plan: PLAN });
    expect(created.body.success, created.body.message).toBe(true);
    planId = created.body.data.id;
    expect(created.body.data).toMatchObject({ title: 'Pro', enabled: true, total_amount: 500000, quota_reset_period: 'daily' });
    const hidden = await root.post('/api/subscription/admin/plans', { plan: { ...PLAN, title: 'Hidden', enabled: false } });
    expect((await alice.get('/api/subscription/plans')).body.data.map((p: { plan: { title: string } }) => p.plan.title)).toEqual([
      'Pro',
    ]);
    const edited = await root.put(`/api/subscription/admin/plans/${planId}`, { plan: { ...PLAN, subtitle: 'edited' } });
    expect(edited.body.data.subtitle).toBe('edited');
    expect(
      (await root.request('PATCH', `/api/subscription/admin/plans/${hidden.body.data.id}`, { enabled: true })).body.data.enabled,
    ).toBe(true);
    expect(
      (await root.request('PATCH', `/api/subscription/admin/plans/${hidden.body.data.id}`, { enabled: false })).body.data.enabled,
    ).toBe(false);
    const audits = await tg.gateway.ctx.db
      .selectFrom('audit_logs')
      .selectAll()
      .where('subject', '=', 'subscription_plan')
      .execute();
    expect(audits.map((a) => a.action).sort()).toEqual(['create', 'create', 'disable', 'enable', 'update']);
  });

  it('buys a plan over EPay: one subscription however often the payment is notified, the group upgraded', async () => {
    const res = await alice.post('/api/subscription/epay/pay', { plan_id: planId, payment_method: 'alipay' });
    expect(res.body.success, JSON.stringify(res.body)).toBe(true);
    expect(res.body.data.money).toBe('2.00');
    await standIn.submit(res.body.url, res.body.data);
    const replies = await Promise.all([
      standIn.pay(res.body.trade_no),
      standIn.pay(res.body.trade_no),
      standIn.pay(res.body.trade_no),
    ]);
    expect(replies).toEqual(['success', 'success', 'success']);
    // Providers may post the notice as a form, and send the person back by a form post too.
    const notifyUrl = `${tg.url}/api/subscription/epay/notify`;
    expect(await standIn.notify(notifyUrl, standIn.paidNotice(res.body.trade_no), { method: 'POST' })).toBe('success');
    const back = await fetch(`${tg.url}/api/subscription/epay/return`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `out_trade_no=${res.body.trade_no}`,
      redirect: 'manual',
    });
    expect([back.status, back.headers.get('location')]).toEqual([303, '/topup']);
    const self = (await alice.get('/api/subscription/self')).body.data;
    expect(self.billing_preference).toBe('subscription_first');
    expect(self.subscriptions).toHaveLength(1);
    expect(self.subscriptions[0].subscription).toMatchObject({
      plan_id: planId,
      amount_total: 500000,
      amount_used: 0,
      status: 'active',
      source: 'order',
      upgrade_group: 'vip',
    });
    expect(self.subscriptions[0].subscription.next_reset_time).toBeGreaterThan(Math.floor(Date.now() / 1000));
    expect(await groupOf(aliceId)).toBe('vip');
    // The wallet was not credited.
    const user = await tg.gateway.ctx.db.selectFrom('users').select('quota').where('id', '=', aliceId).executeTakeFirstOrThrow();
    expect(Number(user.quota)).toBe(0);
  });

  it('refuses a purchase over max_purchase_per_user, of a disabled or unknown plan, and writes nothing', async () => {
    const before = await counts();
    const over = await alice.post('/api/subscription/epay/pay', { plan_id: planId, payment_method: 'alipay' });
    expect(over.body).toMatchObject({ success: false, code: 'subscription.purchase_limit' });
    const plans = (await root.get('/api/subscription/admin/plans')).body.data as Array<{ plan: { id: number; title: string } }>;
    const hidden = plans.find((p) => p.plan.title === 'Hidden')!.plan.id;
    expect((await alice.post('/api/subscription/epay/pay', { plan_id: hidden, payment_method: 'alipay' })).body.code).toBe(
      'subscription.plan_disabled',
    );
    expect((await alice.post('/api/subscription/epay/pay', { plan_id: 9999, payment_method: 'alipay' })).body.code).toBe(
      'subscription.plan_not_found',
    );
    expect((await alice.post('/api/subscription/epay/pay', { plan_id: -1, payment_method: 'alipay' })).body.success).toBe(false);
    expect(await counts()).toEqual(before);
  });

  it('sets the billing preference, refusing unknown ones', async () => {
    expect((await alice.put('/api/subscription/self/preference', { billing_preference: 'sometimes' })).body.success).toBe(false);
    const res = await alice.put('/api/subscription/self/preference', { billing_preference: 'wallet_first' });
    expect(res.body.data).toEqual({ billing_preference: 'wallet_first' });
    expect((await alice.get('/api/subscription/self')).body.data.billing_preference).toBe('wallet_first');
  });

  it('lets admins bind, list, invalidate and delete a user’s subscriptions; the group is reverted at the end', async () => {
    const bound = await root.post(`/api/subscription/admin/users/${aliceId}/subscriptions`, { plan_id: planId });
    expect(bound.body.success, bound.body.message).toBe(true);
    const again = await root.post('/api/subscription/admin/bind', { user_id: aliceId, plan_id: planId });
    expect(again.body.success).toBe(true);
    const list = (await root.get(`/api/subscription/admin/users/${aliceId}/subscriptions`)).body.data as Array<{
      subscription: { id: number; source: string; status: string };
    }>;
    expect(list.map((s) => s.subscription.source).sort()).toEqual(['admin', 'admin', 'order']);
    for (const s of list) {
      const res = await root.post(`/api/subscription/admin/user_subscriptions/${s.subscription.id}/invalidate`);
      expect(res.body.success).toBe(true);
    }
    expect(await groupOf(aliceId)).toBe('default');
    expect((await alice.get('/api/subscription/self')).body.data.subscriptions).toEqual([]);
    expect((await root.delete(`/api/subscription/admin/user_subscriptions/${list[0]!.subscription.id}`)).body.success).toBe(true);
    expect((await root.get(`/api/subscription/admin/users/${aliceId}/subscriptions`)).body.data).toHaveLength(2);
    expect((await root.post('/api/subscription/admin/user_subscriptions/99999/invalidate')).body.code).toBe(
      'subscription.not_found',
    );
    const audits = await tg.gateway.ctx.db
      .selectFrom('audit_logs')
      .selectAll()
      .where('subject', '=', 'user_subscription')
      .execute();
    expect(audits.map((a) => a.action).sort()).toEqual(['bind', 'bind', 'delete', 'invalidate', 'invalidate', 'invalidate']);
  });

  it('expires a subscription at its end once, reverting the group it upgraded', async () => {
    const bound = await root.post('/api/subscription/admin/bind', { user_id: aliceId, plan_id: planId });
    expect(await groupOf(aliceId)).toBe('vip');
    const ctx = tg.gateway.ctx;
    await ctx.db.updateTable('user_subscriptions').set({ end_time: 1000 }).where('id', '=', bound.body.data.id).execute();
    const now = Math.floor(Date.now() / 1000);
    expect(await Promise.all([expireSubscriptions(ctx, now), expireSubscriptions(ctx, now)])).toSatisfy(
      (ended: number[]) => ended[0]! + ended[1]! === 1,
    );
    expect(await groupOf(aliceId)).toBe('default');
    const all = (await alice.get('/api/subscription/self')).body.data.all_subscriptions as Array<{
      subscription: { id: number; status: string };
    }>;
    expect(all.find((s) => s.subscription.id === bound.body.data.id)!.subscription.status).toBe('expired');
  });
});
