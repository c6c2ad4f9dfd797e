/**
 * The family's daily check-in on every database: off until checkin_setting.enabled; a check-in
 * credits a whole quota within [min_quota, max_quota] with a log row, once a day (the second, even
 * sent at the same time, is refused and moves nothing); the month's stats count it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { setupRoot, startTestGateway, type ApiClient, type TestGateway } from '../helpers/gateway.js';
import { loginAs, PASSWORD } from '../helpers/users.js';
import { createUser } from '../../server/users/repository.js';
import { localDate } from '../../server/checkin/routes.js';

await forEachDatabase('daily check-in', (kind) => {
  let tg: TestGateway;
  let root: ApiClient;
  let alice: ApiClient;
  let aliceId: number;

  const db = () => tg.gateway.ctx.db;
  const quotaOf = async () =>
    Number((await db().selectFrom('users').select('quota').where('id', '=', aliceId).executeTakeFirstOrThrow()).quota);
  const setOption = async (key: string, value: string) => root.put('/api/option/', { key, value });

  beforeAll(async () => {
    tg = await startTestGateway(kind);
    root = await setupRoot(tg);
    aliceId = await createUser(tg.gateway.ctx.db, tg.gateway.ctx.dbKind, { username: 'alice', password: PASSWORD });
    alice = await loginAs(tg, 'alice');
  });
  afterAll(async () => tg?.close());

  it('is refused while switched off, and crediting nothing', async () => {
    expect((await alice.get('/api/user/checkin')).body).toMatchObject({ success: false, code: 'checkin.disabled' });
    expect((await alice.post('/api/user/checkin', {})).body).toMatchObject({ success: false, code: 'checkin.disabled' });
    expect(await quotaOf()).toBe(0);
    expect((await tg.client().post('/api/user/checkin', {})).status).toBe(401);
  });

  it('refuses award bounds out of range and keeps the saved ones', async () => {
    const res = await setOption('checkin_setting.min_quota', '-5');
    expect(res.body).toMatchObject({ success: false, code: 'option.out_of_range', params: { min: 0 } });
    expect((await setOption('checkin_setting.max_quota', 'many')).body.code).toBe('option.not_integer');
    const saved = (await root.get('/api/option/')).body.data as { key: string; value: string }[];
    expect(saved.find((o) => o.key === 'checkin_setting.min_quota')?.value).toBe('1000');
  });

  it('credits a bounded random award once a day, with a log row, and counts it in the month', async () => {
    const settings: [string, string][] = [
      ['checkin_setting.min_quota', '2000'],
      ['checkin_setting.max_quota', '3000'],
      ['checkin_setting.enabled', 'true'],
    ];
    for (const [key, value] of settings) expect((await setOption(key, value)).body.success).toBe(true);
    expect((await tg.client().get('/api/status')).body.data.checkin_enabled).toBe(true);

    const [first, second] = await Promise.all([alice.post('/api/user/checkin', {}), alice.post('/api/user/checkin', {})]);
    const won = [first, second].filter((r) => r.body.success);
    const lost = [first, second].filter((r) => !r.body.success);
    expect(won).toHaveLength(1);
    expect(lost[0]!.body).toMatchObject({ code: 'checkin.already', message: '今日已签到' });
    const { quota_awarded, checkin_date } = won[0]!.body.data;
    expect(won[0]!.body.message).toBe('签到成功');
    expect(checkin_date).toBe(localDate());
    expect(Number.isInteger(quota_awarded) && quota_awarded >= 2000 && quota_awarded <= 3000).toBe(true);
    expect(await quotaOf()).toBe(quota_awarded);

    const logs = await db().selectFrom('logs').selectAll().where('user_id', '=', aliceId).execute();
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ type: 1, quota: quota_awarded });
    expect(logs[0]!.content).toContain('用户签到');

    const status = (await alice.get(`/api/user/checkin?month=${checkin_date.slice(0, 7)}`)).body;
    expect(status).toMatchObject({ success: true, data: { enabled: true, min_quota: 2000, max_quota: 3000 } });
    expect(status.data.stats).toEqual({
      total_quota: quota_awarded,
      total_checkins: 1,
      checkin_count: 1,
      checked_in_today: true,
      records: [{ checkin_date, quota_awarded }],
    });
    expect((await alice.get('/api/user/checkin?month=2020-13')).body.code).toBe('checkin.bad_month');
    expect((await alice.get('/api/user/checkin?month=2020-01')).body.data.stats).toMatchObject({
      checkin_count: 0,
      total_checkins: 1,
    });
  });
});
