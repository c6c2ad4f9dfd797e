/**
 * LogRetentionDays on every database: the jobs leader deletes only the rows older than the
 * retention, in batches with writes going on between them, keeps the totals, and does nothing
 * when retention is off or it does not hold the lease.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { setupRoot, startTestGateway, type ApiClient, type TestGateway } from '../helpers/gateway.js';
import { nowSeconds } from '../../server/db/index.js';
import type { NewLog } from '../../server/db/types.js';
import { recordLog } from '../../server/logs/repository.js';
import { runLogRetention } from '../../server/logs/retention.js';
import { LOG_CONSUME } from '../../server/logs/types.js';

const DAY = 86_400;

await forEachDatabase('log retention', (kind) => {
  let tg: TestGateway;
  let root: ApiClient;
  const now = nowSeconds();
  const row = (created_at: number, quota: number): NewLog => ({
    user_id: 7,
    username: 'kept',
    created_at,
    type: LOG_CONSUME,
    model_name: 'gpt-4o',
    quota,
    prompt_tokens: 1,
    completion_tokens: 1,
  });
  const db = () => tg.gateway.ctx.db;
  const createdAts = async () =>
    (await db().selectFrom('logs').select('created_at').orderBy('created_at').execute()).map((r) => Number(r.created_at));
  const setDays = async (days: number) => {
    const res = await root.put('/api/option/', { key: 'LogRetentionDays', value: String(days) });
    expect(res.body).toMatchObject({ success: true });
  };
  const allTimeQuota = async () => (await root.get('/api/log/stat')).body.data.quota as number;

  beforeAll(async () => {
    tg = await startTestGateway(kind);
    root = await setupRoot(tg);
    // Seven rows from 10 to 16 days ago, three from the last two days.
    for (let d = 10; d <= 16; d++) await recordLog(db(), kind, row(now - d * DAY, 100));
    for (let d = 0; d < 3; d++) await recordLog(db(), kind, row(now - d * DAY - 60, 10));
    const old = await db()
      .selectFrom('logs')
      .select('id')
      .where('created_at', '=', now - 12 * DAY)
      .executeTakeFirstOrThrow();
    await db().insertInto('log_extends').values({ log_id: old.id, prompt: 'p', completion: 'c' }).execute();
  });
  afterAll(async () => tg?.close());

  it('does nothing while the retention is 0 (the default)', async () => {
    expect(await runLogRetention(tg.gateway.ctx, now)).toBeNull();
    expect(await createdAts()).toHaveLength(10);
  });

  it('does nothing on a process without the jobs lease', async () => {
    await setDays(5);
    const ctx = tg.gateway.ctx;
    const leader = ctx.leader;
    ctx.leader = { isLeader: false };
    try {
      expect(await runLogRetention(ctx, now)).toBeNull();
    } finally {
      ctx.leader = leader;
    }
    expect(await createdAts()).toHaveLength(10);
  });

  it('deletes only the rows older than the retention, in batches, while writes go on; totals stay', async () => {
    const quotaBefore = await allTimeQuota();
    expect(quotaBefore).toBe(7 * 100 + 3 * 10);
    const totalsBefore = await db().selectFrom('log_totals').selectAll().execute();
    let pauses = 0;
    const run = await runLogRetention(tg.gateway.ctx, now, 2, async () => {
      pauses++;
      // A call logged between two batches.
      await recordLog(db(), kind, row(nowSeconds(), 1));
    });
    expect(run).toEqual({ before: now - 5 * DAY, deleted: 7 });
    // 2 + 2 + 2 + 1: a pause after each full batch.
    expect(pauses).toBe(3);
    const left = await createdAts();
    expect(left).toHaveLength(3 + 3);
    expect(left.every((t) => t >= now - 5 * DAY)).toBe(true);
    expect(await db().selectFrom('log_extends').selectAll().execute()).toEqual([]);
    // The totals of the deleted rows are kept: the all-time stat still counts them.
    const totalsAfter = await db().selectFrom('log_totals').selectAll().execute();
    expect(totalsAfter.length).toBeGreaterThanOrEqual(totalsBefore.length);
    expect(await allTimeQuota()).toBe(quotaBefore + 3);
    // A second pass finds nothing more to delete.
    expect(await runLogRetention(tg.gateway.ctx, now, 2)).toEqual({ before: now - 5 * DAY, deleted: 0 });
  });
});
