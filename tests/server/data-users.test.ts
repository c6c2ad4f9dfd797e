/**
 * GET /api/data/users: the dashboard's consumption by user (hourly totals summed per user and
 * hour, in the time window of /api/data/), for admins only.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { setupRoot, startTestGateway, type ApiClient, type TestGateway } from '../helpers/gateway.js';
import { loginAs, PASSWORD } from '../helpers/users.js';
import { writeHourlyTotals } from '../helpers/hourly-totals.js';
import { createUser } from '../../server/users/repository.js';
import { nowSeconds } from '../../server/db/index.js';

const HOUR = 3600;

await forEachDatabase('consumption by user', (kind) => {
  let tg: TestGateway;
  let root: ApiClient;
  const H = Math.floor(nowSeconds() / HOUR) * HOUR - 10 * HOUR;

  beforeAll(async () => {
    tg = await startTestGateway(kind);
    root = await setupRoot(tg);
    const { db, dbKind } = tg.gateway.ctx;
    const ann = await createUser(db, dbKind, { username: 'ann', password: PASSWORD });
    const ben = await createUser(db, dbKind, { username: 'ben', password: PASSWORD });
    const row = (user_id: number, username: string, model_name: string, channel_id: number, created_at: number, n: number) => ({
      user_id,
      username,
      model_name,
      channel_id,
      created_at,
      token_used: n * 10,
      count: n,
      quota: n * 100,
    });
    await writeHourlyTotals(tg.gateway.ctx, [
      row(ann, 'ann', 'gpt-4o', 1, H, 1),
      row(ann, 'ann', 'gpt-4o-mini', 2, H, 2),
      row(ben, 'ben', 'gpt-4o', 1, H, 5),
      row(ann, 'ann', 'gpt-4o', 1, H + HOUR, 3),
      row(ben, 'ben', 'gpt-4o', 1, H - 30 * 24 * HOUR, 9),
    ]);
  });
  afterAll(async () => tg?.close());

  it('sums each user’s hours over models and channels, oldest first, in the window asked', async () => {
    const res = await root.get(`/api/data/users?start_timestamp=${H}&end_timestamp=${H + 2 * HOUR}`);
    expect(res.body).toEqual({
      success: true,
      message: '',
      data: [
        { username: 'ann', created_at: H, token_used: 30, count: 3, quota: 300 },
        { username: 'ben', created_at: H, token_used: 50, count: 5, quota: 500 },
        { username: 'ann', created_at: H + HOUR, token_used: 30, count: 3, quota: 300 },
      ],
    });
    const late = await root.get(`/api/data/users/?start_timestamp=${H + HOUR}&end_timestamp=${H + 2 * HOUR}`);
    expect(late.body.data.map((r: { username: string }) => r.username)).toEqual(['ann']);
  });

  it('defaults to the last week, as /api/data/ does', async () => {
    const rows = (await root.get('/api/data/users')).body.data as Array<{ created_at: number }>;
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.created_at >= H)).toBe(true);
  });

  it('is for admins only', async () => {
    const ann = await loginAs(tg, 'ann');
    expect((await ann.get('/api/data/users')).body).toMatchObject({ success: false, code: 'auth.forbidden' });
    expect((await tg.client().get('/api/data/users')).status).toBe(401);
  });
});
