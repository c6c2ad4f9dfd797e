import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { forEachDatabase, type DbName } from '../helpers/databases.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { readMoney, setOptions, streamChat, tokenWith } from '../helpers/money.js';
import {
  createSubscription,
  endSubscription,
  insertPlan,
  findPlan,
  setBillingPreference,
} from '../../server/subscriptions/repository.js';
import type { BillingPreference } from '../../server/subscriptions/repository.js';
import { recoverNode } from '../../server/billing/recovery.js';
import { refundCharge } from '../../server/billing/ledger.js';

// Billed = served with subscriptions: whichever source pays (a subscription's period or the
// wallet), every served call is charged once in full, its log row says which source paid, and the
// log rows add up to what the wallet and the subscriptions lost, under concurrency and across resets.
await forEachDatabase('the money path with subscriptions', (kind) => subscriptionMoney(kind));

function subscriptionMoney(kind: DbName): void {
  let f: RelayFixture;
  const db = () => f.tg.gateway.ctx.db;
  const now = () => Math.floor(Date.now() / 1000);

  async function subscribe(plan: { total: number; period?: string; customSeconds?: number }): Promise<number> {
    const id = await insertPlan(
      db(),
      {
        title: `p${Math.random()}`,
        price_amount: 1,
        total_amount: plan.total,
        duration_unit: 'day',
        duration_value: 1,
        quota_reset_period: plan.period ?? 'never',
        quota_reset_custom_seconds: plan.customSeconds ?? 0,
      },
      now(),
    );
    const row = (await findPlan(db(), id))!;
    const subId = await db()
      .transaction()
      .execute((trx) => createSubscription(trx, f.userId, row, 'admin', now()));
    f.tg.gateway.ctx.subscriptions.drop(f.userId);
    return subId;
  }

  async function prefer(p: BillingPreference): Promise<void> {
    await setBillingPreference(db(), f.userId, p);
    f.tg.gateway.ctx.subscriptions.drop(f.userId);
  }

  async function sub(id: number) {
    const r = await db().selectFrom('user_subscriptions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    return { quotaLeft: Number(r.quota_left), usedTotal: Number(r.used_total), period: Number(r.last_reset_time) };
  }

  /** The token's consume rows split by who paid them. */
  async function bySource(tokenId: number) {
    const m = await readMoney(db(), f.userId, tokenId);
    const paidBy = (l: { other: string | null }) =>
      JSON.parse(l.other ?? '{}') as { billing_source?: string; subscription_id?: number };
    const subRows = m.consume.filter((l) => paidBy(l).billing_source === 'subscription');
    const walletRows = m.consume.filter((l) => paidBy(l).billing_source === undefined);
    const sum = (rows: typeof m.consume) => rows.reduce((s, l) => s + Number(l.quota), 0);
    return { m, subRows, walletRows, subLogged: sum(subRows), walletLogged: sum(walletRows), paidBy };
  }

  async function endAll(): Promise<void> {
    const rows = await db().selectFrom('user_subscriptions').select('id').where('status', '=', 'active').execute();
    for (const r of rows)
      await db()
        .transaction()
        .execute((trx) => endSubscription(trx, r.id, 'cancelled', now()));
    f.tg.gateway.ctx.subscriptions.drop(f.userId);
  }

  beforeAll(async () => {
    f = await startRelayFixture(kind, { userQuota: 1000 });
    const ratios = JSON.parse(f.tg.gateway.ctx.options.raw('ModelRatio'));
    // drip-20 costs 500 a call and reserves 220 (see money.test.ts).
    await setOptions(f, { ModelRatio: JSON.stringify({ ...ratios, 'drip-20': 10 }), PreConsumedQuota: '20' });
    await f.addChannel({ models: 'drip-20', name: 'money' });
  });
  beforeEach(async () => {
    await f.flush();
    await endAll();
    await db().updateTable('users').set({ quota: 1000 }).where('id', '=', f.userId).execute();
    f.tg.gateway.ctx.users.setBalance(f.userId, 1000);
  });
  afterAll(async () => f?.close());

  it('draws from the subscription first, then the wallet, each call once and in full', async () => {
    await prefer('subscription_first');
    const subId = await subscribe({ total: 3000 });
    const token = await tokenWith(f, { remain_quota: 0, unlimited_quota: true });
    const calls = await Promise.all(Array.from({ length: 30 }, () => streamChat(f.tg.url, token.key, 'drip-20')));
    await f.flush();
    const served = calls.filter((c) => c.status === 200);
    expect(served.every((c) => c.complete)).toBe(true);
    expect(calls.filter((c) => c.status !== 200).every((c) => c.status === 429 && c.code === 'insufficient_quota')).toBe(true);
    const s = await bySource(token.id);
    expect(s.m.consume.map((l) => l.quota)).toEqual(served.map(() => 500));
    expect(s.subRows.length).toBeGreaterThan(0);
    expect(s.walletRows.length).toBeGreaterThan(0);
    expect(s.subRows.every((l) => s.paidBy(l).subscription_id === subId)).toBe(true);
    const after = await sub(subId);
    // What each source lost is what its log rows say.
    expect(after.usedTotal).toBe(s.subLogged);
    expect(after.quotaLeft).toBe(3000 - s.subLogged);
    expect(s.m.user.quota).toBe(1000 - s.walletLogged);
    expect(s.m.user.used_quota).toBeGreaterThanOrEqual(s.m.logged);
    expect(s.m.reservations).toBe(0);
    // A balance in debt only by what calls in flight used beyond their reservations.
    expect(after.quotaLeft).toBeGreaterThanOrEqual(-served.length * (500 - 220));
  });

  it('honours wallet_only and subscription_only', async () => {
    const subId = await subscribe({ total: 1500 });
    const token = await tokenWith(f, { remain_quota: 0, unlimited_quota: true });
    await prefer('wallet_only');
    expect((await streamChat(f.tg.url, token.key, 'drip-20')).status).toBe(200);
    await f.flush();
    expect((await sub(subId)).usedTotal).toBe(0);
    await db().updateTable('users').set({ quota: 0 }).where('id', '=', f.userId).execute();
    f.tg.gateway.ctx.users.setBalance(f.userId, 0);
    expect((await streamChat(f.tg.url, token.key, 'drip-20')).status).toBe(429);

    await prefer('subscription_only');
    const calls = await Promise.all(Array.from({ length: 8 }, () => streamChat(f.tg.url, token.key, 'drip-20')));
    await f.flush();
    const served = calls.filter((c) => c.status === 200).length;
    expect(served).toBeGreaterThan(0);
    const s = await bySource(token.id);
    expect(s.subRows).toHaveLength(served);
    expect((await sub(subId)).usedTotal).toBe(served * 500);
    // Refused once the subscription's period is spent, the wallet untouched.
    expect((await streamChat(f.tg.url, token.key, 'drip-20')).status).toBe(429);
    expect(s.m.user.quota).toBe(0);
  });

  it('resets a period once, lazily, and charges each call to the period it reserved in', async () => {
    await prefer('subscription_only');
    const subId = await subscribe({ total: 1000, period: 'custom', customSeconds: 2 });
    const token = await tokenWith(f, { remain_quota: 0, unlimited_quota: true });
    const periods = new Set<number>();
    let served = 0;
    const started = Date.now();
    while (Date.now() - started < 4500) {
      const calls = await Promise.all(Array.from({ length: 10 }, () => streamChat(f.tg.url, token.key, 'drip-20')));
      served += calls.filter((c) => c.status === 200).length;
      expect(calls.every((c) => c.status === 200 || c.code === 'insufficient_quota')).toBe(true);
      periods.add((await sub(subId)).period);
      await new Promise((r) => setTimeout(r, 300));
    }
    await f.flush();
    expect(periods.size).toBeGreaterThan(1);
    const s = await bySource(token.id);
    expect(s.subRows).toHaveLength(served);
    expect((await sub(subId)).usedTotal).toBe(served * 500);
    // Each period of 1000 serves at most what its reservations let in: 1000 / 220 → 4 calls.
    expect(served).toBeLessThanOrEqual(periods.size * 5 + 5);
    expect(s.m.user.quota).toBe(1000);
  });

  it('returns a recovered hold to the subscription it was drawn from', async () => {
    await prefer('subscription_only');
    const subId = await subscribe({ total: 5000 });
    const ctx = f.tg.gateway.ctx;
    const state = await ctx.subscriptions.get(f.userId);
    const period = state.subs[0]!.period;
    const taken = await ctx.holds.take(
      { userId: f.userId, tokenId: 0, unlimitedToken: true, subscription: { id: subId, period } },
      800,
      () => ({
        username: 'u',
        token_name: '',
        model_name: 'drip-20',
        group: 'default',
        ip: '',
        is_stream: 1,
        other: {},
      }),
    );
    expect(taken.ok).toBe(true);
    expect((await sub(subId)).quotaLeft).toBe(4200);
    if (!taken.ok) return;
    taken.hold.checkpoint(300, 10, 20, 0);
    await ctx.journal.flush();
    const resolved = await recoverNode(ctx.db, ctx.dbKind, ctx.holds.node);
    expect(resolved).toHaveLength(1);
    const after = await sub(subId);
    expect(after.usedTotal).toBe(300);
    expect(after.quotaLeft).toBe(5000 - 300);
    const wallet = await db().selectFrom('users').select('quota').where('id', '=', f.userId).executeTakeFirstOrThrow();
    expect(Number(wallet.quota)).toBe(1000);
    await taken.hold.settle(300, 0, null);
  });

  it('refunds a task charged to a subscription back to it, and to nothing once its period is over', async () => {
    const subId = await subscribe({ total: 5000 });
    const { period } = await sub(subId);
    await db().updateTable('user_subscriptions').set({ quota_left: 4000, used_total: 1000 }).where('id', '=', subId).execute();
    const charge = {
      userId: f.userId,
      tokenId: 0,
      unlimitedToken: true,
      channelId: 0,
      quota: 300,
      subscription: { id: subId, period },
    };
    await db()
      .transaction()
      .execute((trx) => refundCharge(trx, charge));
    expect(await sub(subId)).toMatchObject({ quotaLeft: 4300, usedTotal: 700 });
    const wallet = await db().selectFrom('users').select('quota').where('id', '=', f.userId).executeTakeFirstOrThrow();
    expect(Number(wallet.quota)).toBe(1000);
    // A refund of a closed period: the charge leaves used_total, the new period is not topped up.
    await db()
      .transaction()
      .execute((trx) => refundCharge(trx, { ...charge, subscription: { id: subId, period: period - 86400 } }));
    expect(await sub(subId)).toMatchObject({ quotaLeft: 4300, usedTotal: 400 });
  });
}
