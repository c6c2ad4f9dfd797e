/**
 * Billed = served across a subscription's reset boundary, on the gateway's test clock: 50 calls in
 * flight together while the period rolls over (25 reserved in the old period and still streaming
 * when the clock crosses its end, 25 reserved in the new one) are each charged once, to the
 * subscription, and only the new period's calls draw on the new period; the old period's calls
 * settling late leave it alone. The log rows add up to what the subscription and the wallet lost. A
 * call that read the old period but reserves after another call or process reset it is served from
 * the new period, not refused.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase, type DbName } from '../helpers/databases.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { readMoney, setOptions, streamChat, tokenWith } from '../helpers/money.js';
import {
  createSubscription,
  findPlan,
  insertPlan,
  resetIfDue,
  setBillingPreference,
} from '../../server/subscriptions/repository.js';

await forEachDatabase('subscription reset boundary', (kind: DbName) => resetBoundary(kind));

function resetBoundary(kind: DbName): void {
  let f: RelayFixture;
  const ctx = () => f.tg.gateway.ctx;
  const PERIOD = 3600;
  const TOTAL = 100_000;
  const WALLET = 1000;

  beforeAll(async () => {
    f = await startRelayFixture(kind, { userQuota: WALLET });
    const ratios = JSON.parse(ctx().options.raw('ModelRatio'));
    await setOptions(f, { ModelRatio: JSON.stringify({ ...ratios, 'drip-60': 10 }), PreConsumedQuota: '20' });
    await f.addChannel({ models: 'drip-60', name: 'reset' });
  });
  afterAll(async () => f?.close());

  const sub = async (id: number) => {
    const r = await ctx().db.selectFrom('user_subscriptions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    return { quotaLeft: Number(r.quota_left), usedTotal: Number(r.used_total), period: Number(r.last_reset_time) };
  };
  const heldIn = async (subId: number, period: number) =>
    (
      await ctx()
        .db.selectFrom('reservations')
        .select('id')
        .where('subscription_id', '=', subId)
        .where('subscription_period', '=', period)
        .execute()
    ).length;
  async function until(what: () => Promise<boolean>): Promise<void> {
    const started = Date.now();
    while (!(await what())) {
      if (Date.now() - started > 10_000) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  async function subscribe(preference: 'subscription_first' | 'subscription_only'): Promise<number> {
    const now = ctx().clock.now();
    const planId = await insertPlan(
      ctx().db,
      {
        title: 'hourly',
        price_amount: 1,
        total_amount: TOTAL,
        duration_unit: 'day',
        duration_value: 1,
        quota_reset_period: 'custom',
        quota_reset_custom_seconds: PERIOD,
      },
      now,
    );
    const plan = (await findPlan(ctx().db, planId))!;
    const subId = await ctx()
      .db.transaction()
      .execute((trx) => createSubscription(trx, f.userId, plan, 'admin', now));
    await setBillingPreference(ctx().db, f.userId, preference);
    await ctx()
      .db.updateTable('user_subscriptions')
      .set({ status: 'cancelled' })
      .where('user_id', '=', f.userId)
      .where('id', '!=', subId)
      .execute();
    ctx().subscriptions.drop(f.userId);
    return subId;
  }

  it('charges 50 parallel calls across a reset once each, to the period each reserved from', async () => {
    const subId = await subscribe('subscription_first');
    const first = (await sub(subId)).period;
    const token = await tokenWith(f, { remain_quota: 0, unlimited_quota: true });

    const call = () => streamChat(f.tg.url, token.key, 'drip-60');
    const before = Array.from({ length: 25 }, call);
    await until(async () => (await heldIn(subId, first)) === 25);
    // The period ends while those 25 still stream; the next 25 arrive in the new one.
    ctx().clock.advance(PERIOD);
    const after = Array.from({ length: 25 }, call);
    await until(async () => (await heldIn(subId, first + PERIOD)) === 25);
    expect(await heldIn(subId, first)).toBeGreaterThan(0);
    const calls = await Promise.all([...before, ...after]);
    await f.flush();

    expect(calls.every((c) => c.status === 200 && c.complete)).toBe(true);
    const m = await readMoney(ctx().db, f.userId, token.id, ctx().logDb);
    expect(m.consume).toHaveLength(50);
    const paidBy = m.consume.map((l) => JSON.parse(l.other ?? '{}') as { billing_source?: string; subscription_id?: number });
    expect(paidBy.every((p) => p.billing_source === 'subscription' && p.subscription_id === subId)).toBe(true);
    const cost = Number(m.consume[0]!.quota);
    expect(cost).toBeGreaterThan(0);
    expect(m.consume.every((l) => Number(l.quota) === cost)).toBe(true);
    const s = await sub(subId);
    expect(s.period).toBe(first + PERIOD);
    // The new period carries only its own 25 calls; the old period's late settlements went to used_total alone.
    expect(s.quotaLeft).toBe(TOTAL - 25 * cost);
    expect(s.usedTotal).toBe(50 * cost);
    // The logs are what the sources lost: the subscription's used_total and the wallet (untouched).
    expect(m.user.quota).toBe(WALLET);
    expect(m.logged).toBe(s.usedTotal + (WALLET - m.user.quota));
    expect(m.reservations).toBe(0);
  });

  it('serves every call when the clock crosses the period’s end during admission', async () => {
    const subId = await subscribe('subscription_only');
    const first = (await sub(subId)).period;
    const token = await tokenWith(f, { remain_quota: 0, unlimited_quota: true });
    // The clock crosses the period's end while the first 25 calls are being admitted (those that read
    // the old period and reserve after the reset must move to the new one), and the next 25 reset it.
    const call = () => streamChat(f.tg.url, token.key, 'drip-60');
    const before = Array.from({ length: 25 }, call);
    await until(async () => (await heldIn(subId, first)) > 0);
    ctx().clock.advance(PERIOD);
    const done = await Promise.all([...before, ...Array.from({ length: 25 }, call)]);
    await f.flush();
    expect(done.filter((c) => c.status !== 200)).toEqual([]);
    const m = await readMoney(ctx().db, f.userId, token.id, ctx().logDb);
    expect(m.consume).toHaveLength(50);
    const cost = Number(m.consume[0]!.quota);
    const s = await sub(subId);
    expect(s.period).toBe(first + PERIOD);
    expect(s.usedTotal).toBe(m.logged);
    expect(m.logged).toBe(50 * cost);
    expect((TOTAL - s.quotaLeft) % cost).toBe(0);
    expect(m.user.quota).toBe(WALLET);
    expect(m.reservations).toBe(0);
  });

  it('draws on the new period when another process reset it first', async () => {
    const subId = await subscribe('subscription_only');
    const first = (await sub(subId)).period;
    const token = await tokenWith(f, { remain_quota: 0, unlimited_quota: true });
    expect((await streamChat(f.tg.url, token.key, 'drip-60')).status).toBe(200);
    // A process whose clock runs a little ahead resets the period; this one still holds the old one.
    const row = await ctx().db.selectFrom('user_subscriptions').selectAll().where('id', '=', subId).executeTakeFirstOrThrow();
    expect(await resetIfDue(ctx().db, row, first + PERIOD)).toBe(true);
    expect((await streamChat(f.tg.url, token.key, 'drip-60')).status).toBe(200);
    await f.flush();
    const m = await readMoney(ctx().db, f.userId, token.id, ctx().logDb);
    const cost = Number(m.consume[0]!.quota);
    expect(m.consume.map((l) => Number(l.quota))).toEqual([cost, cost]);
    const s = await sub(subId);
    expect(s).toEqual({ period: first + PERIOD, quotaLeft: TOTAL - cost, usedTotal: 2 * cost });
    expect(m.user.quota).toBe(WALLET);
  });
}
