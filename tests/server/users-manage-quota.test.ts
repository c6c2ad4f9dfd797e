/**
 * The family's balance adjustment: POST /api/user/manage {id, action: "add_quota", mode, value}
 * with the rules of the console's add-quota dialog (never below zero, a manage log row written with
 * the change) and the permissions of the other manage actions; PUT /api/user/ with a quota still
 * works for our console.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { setupRoot, startTestGateway, type ApiClient, type TestGateway } from '../helpers/gateway.js';
import { loginAs, PASSWORD } from '../helpers/users.js';
import { LOG_MANAGE } from '../../server/logs/types.js';

await forEachDatabase('user balance adjustment', (kind) => {
  let tg: TestGateway;
  let root: ApiClient;
  let admin: ApiClient;
  const ids: Record<string, number> = {};

  const db = () => tg.gateway.ctx.db;
  const balance = async (name: string) =>
    Number((await db().selectFrom('users').select('quota').where('id', '=', ids[name]!).executeTakeFirstOrThrow()).quota);
  const setBalance = (name: string, quota: number) =>
    db().updateTable('users').set({ quota }).where('id', '=', ids[name]!).execute();
  const manageLogs = (name: string) =>
    db()
      .selectFrom('logs')
      .select(['content', 'other', 'quota'])
      .where('user_id', '=', ids[name]!)
      .where('type', '=', LOG_MANAGE)
      .orderBy('id')
      .execute();
  const adjust = (client: ApiClient, name: string, mode: string, value?: number) =>
    client.post('/api/user/manage', { id: ids[name], action: 'add_quota', mode, value });

  beforeAll(async () => {
    tg = await startTestGateway(kind);
    root = await setupRoot(tg);
    for (const username of ['ann', 'ben', 'ada', 'eve', 'gone']) {
      const res = await root.post('/api/user/', { username, password: PASSWORD, display_name: username });
      expect(res.body.success, res.body.message).toBe(true);
      ids[username] = res.body.data.id;
    }
    ids.root = root.userId!;
    expect((await root.post('/api/user/manage', { id: ids.ada, action: 'promote' })).body.success).toBe(true);
    expect((await root.post('/api/user/manage', { id: ids.eve, action: 'promote' })).body.success).toBe(true);
    expect((await root.post('/api/user/manage', { id: ids.gone, action: 'delete' })).body.success).toBe(true);
    admin = await loginAs(tg, 'ada');
  });
  afterAll(async () => tg?.close());

  it('adds, subtracts and overrides, answering the new balance and logging each change with its admin', async () => {
    // 500000 quota is one dollar (the site shows currency by default).
    await setBalance('ann', 1_000_000);
    const added = await adjust(admin, 'ann', 'add', 500_000);
    expect(added.body).toMatchObject({ success: true, data: { quota: 1_500_000, status: 1, role: 1 } });
    expect((await adjust(admin, 'ann', 'subtract', 250_000)).body.data.quota).toBe(1_250_000);
    expect((await adjust(root, 'ann', 'override', 50_000)).body.data.quota).toBe(50_000);
    expect(await balance('ann')).toBe(50_000);
    const logs = await manageLogs('ann');
    expect(logs.map((l) => l.content)).toEqual([
      '管理员增加用户额度 $1.000000',
      '管理员减少用户额度 $0.500000',
      '管理员覆盖用户额度从 $2.500000 为 $0.100000',
    ]);
    expect(JSON.parse(logs[0]!.other ?? '').admin_info).toEqual({ admin_id: ids.ada, admin_username: 'ada' });
    expect(JSON.parse(logs[2]!.other ?? '').admin_info).toEqual({ admin_id: ids.root, admin_username: 'root' });
  });

  it('never takes a balance below zero, and a refused change writes nothing', async () => {
    await setBalance('ben', 100);
    const before = (await manageLogs('ben')).length;
    const cases: Array<[string, number | undefined, string]> = [
      ['subtract', 101, 'user.quota_negative'],
      ['override', -1, 'user.quota_negative'],
      ['add', 0, 'user.quota_change_zero'],
      ['subtract', -5, 'user.quota_change_zero'],
      ['add', undefined, 'user.quota_value_required'],
    ];
    for (const [mode, value, code] of cases) {
      expect((await adjust(admin, 'ben', mode, value)).body, `${mode} ${value}`).toMatchObject({ success: false, code });
    }
    const noMode = await admin.post('/api/user/manage', { id: ids.ben, action: 'add_quota', value: 5 });
    expect(noMode.body).toMatchObject({ success: false, code: 'user.quota_mode_invalid' });
    const badMode = await admin.post('/api/user/manage', { id: ids.ben, action: 'add_quota', mode: 'double', value: 5 });
    expect(badMode.body).toMatchObject({ success: false, code: 'request.invalid_params' });
    const huge = await adjust(admin, 'ben', 'add', 1e300);
    expect(huge.body).toMatchObject({ success: false, code: 'request.invalid_params' });
    expect(await balance('ben')).toBe(100);
    expect(await manageLogs('ben')).toHaveLength(before);
  });

  it('lets concurrent subtractions take no more than the balance', async () => {
    await setBalance('ben', 100);
    const before = (await manageLogs('ben')).length;
    const answers = await Promise.all(Array.from({ length: 6 }, () => adjust(admin, 'ben', 'subtract', 30)));
    expect(answers.filter((a) => a.body.success)).toHaveLength(3);
    expect(await balance('ben')).toBe(10);
    expect(await manageLogs('ben')).toHaveLength(before + 3);
  });

  it('follows the permissions of the other manage actions', async () => {
    await setBalance('eve', 7);
    const denied = [
      [await adjust(admin, 'eve', 'add', 1), 'user.update_denied'],
      [await adjust(admin, 'root', 'add', 1), 'user.update_denied'],
      [await adjust(admin, 'ada', 'add', 1), 'user.update_denied'],
      [await adjust(root, 'gone', 'add', 1), 'user.deleted'],
    ] as const;
    for (const [res, code] of denied) expect(res.body).toMatchObject({ success: false, code });
    expect(await balance('eve')).toBe(7);
    expect((await tg.client().post('/api/user/manage', { id: ids.ann, action: 'add_quota', mode: 'add', value: 1 })).status).toBe(
      401,
    );
    const ann = await loginAs(tg, 'ann');
    const self = await ann.post('/api/user/manage', { id: ids.ann, action: 'add_quota', mode: 'add', value: 1 });
    expect(self.body.success).toBe(false);
    expect((await adjust(root, 'eve', 'add', 3)).body.data.quota).toBe(10);
  });

  it('still sets a balance through PUT /api/user/ for our console', async () => {
    await setBalance('ann', 500_000);
    const res = await admin.put('/api/user/', { id: ids.ann, username: 'ann', quota: 1_000_000 });
    expect(res.body).toMatchObject({ success: true, data: { quota: 1_000_000 } });
    const last = (await manageLogs('ann')).at(-1)!;
    expect(last.content).toBe('管理员将用户额度从 $1.000000 修改为 $2.000000');
    // The same words as a key and values, for the console to show in its own language.
    expect(JSON.parse(last.other ?? '{}')).toMatchObject({
      admin_info: { admin_username: expect.any(String) },
      message: { key: 'quota_set', values: { from_quota: 500_000, to_quota: 1_000_000 } },
    });
  });
});
