import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { forEachDatabase, logDatabaseBeside, type DbName } from '../helpers/databases.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { moneyOf, setOptions, streamChat, tokenWith } from '../helpers/money.js';
import { countTokens } from '../../server/relay/metering/tokenizer.js';
import { expectTotalsMatchRows } from '../helpers/log-totals.js';

// Billed = served, under concurrency: every answered call is charged its full cost with a log row,
// the log rows add up to what the balances lost, a balance goes below zero only by what calls in
// flight used beyond their reservations, and one at or below zero refuses new calls. All of it
// holds as well with the log rows shipped to a database of their own (LOG_SQL_DSN).
await forEachDatabase('the money path', (kind) => moneyPath(kind));
await forEachDatabase('the money path with LOG_SQL_DSN', (kind) => moneyPath(kind, logDatabaseBeside(kind)));

function moneyPath(kind: DbName, logs?: DbName): void {
  let f: RelayFixture;
  beforeAll(async () => {
    f = await startRelayFixture(kind, { userQuota: 1000, logs });
    // drip-20 streams 20 chunks and reports 10 prompt + 40 completion tokens: 50 × 10 = 500 a call.
    // A call without max_tokens reserves its prompt estimate (2) + 20 tokens: 22 × 10 = 220.
    const ratios = JSON.parse(f.tg.gateway.ctx.options.raw('ModelRatio'));
    await setOptions(f, {
      ModelRatio: JSON.stringify({ ...ratios, 'drip-20': 10, 'cut-14': 10, 'gpt-4o-mini': 1 }),
      PreConsumedQuota: '20',
    });
    await f.addChannel({ models: 'drip-20,cut-14,no-price-model', name: 'money' });
  });
  beforeEach(async () => {
    await f.flush();
  });
  afterAll(async () => f?.close());

  it('charges every served stream in full on a small balance, and refuses once it is spent', async () => {
    const calls = await Promise.all(Array.from({ length: 50 }, () => streamChat(f.tg.url, f.key, 'drip-20')));
    await f.flush();
    const served = calls.filter((c) => c.status === 200);
    const refused = calls.filter((c) => c.status !== 200);
    expect(served.length).toBeGreaterThan(0);
    expect(served.every((c) => c.complete)).toBe(true);
    expect(refused.every((c) => c.status === 429 && c.code === 'insufficient_quota')).toBe(true);

    const m = await moneyOf(f, f.userId, f.tokenId);
    expect(m.consume.map((l) => l.quota)).toEqual(served.map(() => 500));
    expect(m.logged).toBe(1000 - m.user.quota);
    expect(m.user.used_quota).toBe(m.logged);
    expect(m.user.request_count).toBe(served.length);
    // Each served call reserved 220 and used 500: the debt is at most what they used beyond that.
    expect(m.user.quota).toBeGreaterThanOrEqual(-served.length * (500 - 220));
    expect(m.user.quota).toBeLessThanOrEqual(0);
    expect(m.reservations).toBe(0);

    const after = await streamChat(f.tg.url, f.key, 'drip-20');
    expect(after).toMatchObject({ status: 429, code: 'insufficient_quota' });
    // Every charge is in the exact log totals, and the stat read from them is the logged spend.
    await f.flush();
    await expectTotalsMatchRows(f.tg.gateway.ctx.db, f.tg.gateway.ctx.logDb);
    if (logs) {
      // Every row left the main database for the log database.
      expect(f.tg.gateway.ctx.logDb).not.toBe(f.tg.gateway.ctx.db);
      expect(await f.tg.gateway.ctx.db.selectFrom('logs').select('id').execute()).toEqual([]);
    }
    expect((await f.root.get(`/api/log/stat?username=${encodeURIComponent(m.consume[0]!.username)}`)).body.data.quota).toBe(
      m.logged,
    );
  });

  it('holds a token cap the same way: its calls billed in full, refused once it is spent', async () => {
    await f.tg.gateway.ctx.db.updateTable('users').set({ quota: 1_000_000 }).where('id', '=', f.userId).execute();
    const token = await tokenWith(f, { remain_quota: 300, unlimited_quota: false });
    const calls = await Promise.all(Array.from({ length: 30 }, () => streamChat(f.tg.url, token.key, 'drip-20')));
    await f.flush();
    const served = calls.filter((c) => c.status === 200);
    expect(served.length).toBeGreaterThan(0);
    expect(calls.filter((c) => c.status !== 200).every((c) => c.code === 'insufficient_quota')).toBe(true);
    const m = await moneyOf(f, f.userId, token.id);
    expect(m.consume.map((l) => l.quota)).toEqual(served.map(() => 500));
    expect(m.token!.remain_quota).toBe(300 - m.logged);
    expect(m.token!.used_quota).toBe(m.logged);
    expect(m.user.quota).toBe(1_000_000 - m.logged);
    expect(m.token!.remain_quota).toBeGreaterThanOrEqual(-served.length * (500 - 220));
    // Refused once spent (the token is then marked exhausted).
    expect((await streamChat(f.tg.url, token.key, 'drip-20')).status).not.toBe(200);
  });

  it('charges large balances (no reservation) in full too', async () => {
    const before = 50_000_000;
    await f.tg.gateway.ctx.db.updateTable('users').set({ quota: before }).where('id', '=', f.userId).execute();
    f.tg.gateway.ctx.users.setBalance(f.userId, before);
    const token = await tokenWith(f, { remain_quota: 0, unlimited_quota: true });
    const calls = await Promise.all(Array.from({ length: 40 }, () => streamChat(f.tg.url, token.key, 'drip-20')));
    await f.flush();
    expect(calls.every((c) => c.status === 200 && c.complete)).toBe(true);
    const m = await moneyOf(f, f.userId, token.id);
    expect(m.consume).toHaveLength(40);
    expect(m.logged).toBe(40 * 500);
    expect(m.user.quota).toBe(before - 40 * 500);
    expect(m.token!.used_quota).toBe(40 * 500);
  });

  it('bills a stream the upstream broke off for what was delivered, marked interrupted', async () => {
    await f.tg.gateway.ctx.db.updateTable('users').set({ quota: 1_000_000 }).where('id', '=', f.userId).execute();
    const token = await tokenWith(f, { remain_quota: 0, unlimited_quota: true });
    const call = await streamChat(f.tg.url, token.key, 'cut-14');
    expect(call.status).toBe(200);
    expect(call.complete).toBe(false);
    expect(call.chunks).toBe(14);
    await f.flush();
    const m = await moneyOf(f, f.userId, token.id);
    expect(m.consume).toHaveLength(1);
    const row = m.consume[0]!;
    const other = JSON.parse(row.other ?? '{}');
    expect(other.interrupted).toBeTruthy();
    expect(other.local_count).toBe(true);
    // The 14 "tick " deltas delivered, counted locally, and the prompt, at ratio 10.
    expect(row.completion_tokens).toBe(await countTokens('tick '.repeat(14)));
    expect(row.quota).toBe((row.prompt_tokens + row.completion_tokens) * 10);
    expect(m.user.quota).toBe(1_000_000 - row.quota);
  });

  it('never lets a user price an unpriced model at nothing', async () => {
    const ctx = f.tg.gateway.ctx;
    await ctx.db.updateTable('users').set({ quota: 0 }).where('id', '=', f.userId).execute();
    const setting = { notify_type: 'email', quota_warning_threshold: 1, accept_unset_model_ratio_model: true };
    expect((await f.user.put('/api/user/setting', setting)).body.success).toBe(true);
    const free = await streamChat(f.tg.url, f.key, 'no-price-model');
    expect(free).toMatchObject({ status: 429, code: 'insufficient_quota' });

    await ctx.db.updateTable('users').set({ quota: 1_000_000 }).where('id', '=', f.userId).execute();
    await setOptions(f, { DefaultModelRatio: '2' });
    const paid = await streamChat(f.tg.url, f.key, 'no-price-model');
    expect(paid.status).toBe(200);
    const log = await f.lastLog();
    // The stand-in's stream reports 19 prompt + 18 completion tokens, at the default ratio 2.
    expect(log.quota).toBe((19 + 18) * 2);
    expect(JSON.parse(log.other ?? '{}')).toMatchObject({ model_ratio: 2, unset_price: true });
    await f.user.put('/api/user/setting', { ...setting, accept_unset_model_ratio_model: false });
  });

  it('adds up the hourly totals to the logged quota, across flushes', async () => {
    const db = f.tg.gateway.ctx.db;
    await db.updateTable('users').set({ quota: 1_000_000 }).where('id', '=', f.userId).execute();
    await f.openai().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'again' }] });
    await f.flush();
    // A second flush into the same hour takes the database's upsert path.
    await f.openai().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'again' }] });
    await f.flush();
    const logs = await f.tg.gateway.ctx.logDb
      .selectFrom('logs')
      .select(['quota'])
      .where('user_id', '=', f.userId)
      .where('type', '=', 2)
      .execute();
    const totals = await db.selectFrom('quota_data').selectAll().where('user_id', '=', f.userId).execute();
    expect(totals.reduce((s, t) => s + t.quota, 0)).toBe(logs.reduce((s, l) => s + l.quota, 0));
    expect(totals.reduce((s, t) => s + t.count, 0)).toBe(logs.length);
  });
}
