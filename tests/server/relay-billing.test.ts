import OpenAI from 'openai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';

// The quota invariant under concurrency: a balance that covers only some of N parallel requests
// never goes below zero, and the logged quotas add up to exactly what was deducted.
await forEachDatabase('relay quota under concurrency', (kind) => {
  let f: RelayFixture;
  beforeAll(async () => {
    // With model ratio 1 each call costs (19 + 10 × 4) × 1 = 59 quota: 1000 covers 16 of the 40
    // sent at once (fewer while pre-charges of calls in flight hold part of the balance).
    f = await startRelayFixture(kind, { userQuota: 1000 });
    const ratio = { 'gpt-4o-mini': 1 };
    const current = JSON.parse(
      (await f.root.get('/api/option/')).body.data.find((o: { key: string }) => o.key === 'ModelRatio').value,
    );
    await f.root.put('/api/option/', { key: 'ModelRatio', value: JSON.stringify({ ...current, ...ratio }) });
  });
  afterAll(async () => f?.close());

  it('never overdraws and logs exactly what it deducts', async () => {
    const client = f.openai();
    const calls = Array.from({ length: 40 }, () =>
      client.chat.completions
        .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello!' }], max_tokens: 10 })
        .then(() => 'ok' as const)
        .catch((err: unknown) => (err instanceof OpenAI.APIError ? err.code : 'other')),
    );
    const results = await Promise.all(calls);
    await f.flush();
    const db = f.tg.gateway.ctx.db;
    const user = await db
      .selectFrom('users')
      .select(['quota', 'used_quota', 'request_count'])
      .where('id', '=', f.userId)
      .executeTakeFirstOrThrow();
    const logs = await db.selectFrom('logs').select(['quota']).where('user_id', '=', f.userId).where('type', '=', 2).execute();
    const logged = logs.reduce((s, l) => s + l.quota, 0);
    const succeeded = results.filter((r) => r === 'ok').length;
    expect(user.quota).toBeGreaterThanOrEqual(0);
    expect(logged).toBe(1000 - user.quota);
    expect(user.used_quota).toBe(logged);
    expect(logs).toHaveLength(succeeded);
    expect(succeeded).toBeGreaterThan(0);
    expect(succeeded).toBeLessThan(40);
    expect(results.filter((r) => r !== 'ok').every((r) => r === 'insufficient_user_quota')).toBe(true);
  });
  it('adds up hourly totals across flushes to the logged quota', async () => {
    // A second flush into the same hour takes the database's upsert path.
    const db = f.tg.gateway.ctx.db;
    await db.updateTable('users').set({ quota: 10_000 }).where('id', '=', f.userId).execute();
    await f.openai().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'again' }] });
    await f.flush();
    const logs = await db.selectFrom('logs').select(['quota']).where('user_id', '=', f.userId).where('type', '=', 2).execute();
    const totals = await db.selectFrom('quota_data').selectAll().where('user_id', '=', f.userId).execute();
    expect(totals.reduce((s, t) => s + t.quota, 0)).toBe(logs.reduce((s, l) => s + l.quota, 0));
    expect(totals.reduce((s, t) => s + t.count, 0)).toBe(logs.length);
  });
});
