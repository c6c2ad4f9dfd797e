/**
 * Redemption codes on every database: the admin calls of spec 7 with their validations and status
 * rules, redeeming through POST /api/user/topup (credit, log row, messages), and 40 concurrent
 * redeems of one code, of which exactly one wins.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { setupRoot, startTestGateway, type ApiClient, type ApiResponse, type TestGateway } from '../helpers/gateway.js';
import { loginAs, PASSWORD } from '../helpers/users.js';
import { createUser } from '../../server/users/repository.js';
import { ROLE_ADMIN } from '../../server/auth/roles.js';

const MSG = {
  notFound: '兑换码不存在',
  nameLength: '兑换码名称长度必须在1-20之间',
  quota: '兑换码额度必须是正整数',
  countPositive: '兑换码个数必须大于0',
  countMax: '一次兑换码批量生成的个数不能大于 100',
  editOnlyUnused: '只能编辑未使用的兑换码',
  statusUsed: '兑换码已被使用，无法修改状态',
  statusInvalid: '无效的兑换码状态',
  noKey: '未提供兑换码',
  invalid: '无效的兑换码',
  used: '该兑换码已被使用',
  forbidden: '无权进行此操作，权限不足',
};

function expectOk<T = any>(res: ApiResponse): T {
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ success: true });
  return res.body.data as T;
}

function expectFail(res: ApiResponse, message: string): void {
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ success: false, message });
}

await forEachDatabase('redemption codes', (kind) => {
  let tg: TestGateway;
  let root: ApiClient;
  let admin: ApiClient;
  let alice: ApiClient;
  let bob: ApiClient;
  let aliceId: number;
  let bobId: number;

  const db = () => tg.gateway.ctx.db;
  const quotaOf = async (id: number) =>
    Number((await db().selectFrom('users').select('quota').where('id', '=', id).executeTakeFirstOrThrow()).quota);
  const codeRow = (key: string) => db().selectFrom('redemptions').selectAll().where('key', '=', key).executeTakeFirstOrThrow();
  const codeCount = async () =>
    Number(
      (
        await db()
          .selectFrom('redemptions')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  async function create(body: Record<string, unknown>): Promise<string[]> {
    return expectOk<string[]>(await admin.post('/api/redemption/', body));
  }

  async function idOf(key: string): Promise<number> {
    return (await codeRow(key)).id;
  }

  beforeAll(async () => {
    tg = await startTestGateway(kind);
    root = await setupRoot(tg);
    const { db: database, dbKind } = tg.gateway.ctx;
    await createUser(database, dbKind, { username: 'boss', password: PASSWORD, role: ROLE_ADMIN });
    aliceId = await createUser(database, dbKind, { username: 'alice', password: PASSWORD });
    bobId = await createUser(database, dbKind, { username: 'bob', password: PASSWORD, group: 'vip' });
    admin = await loginAs(tg, 'boss');
    alice = await loginAs(tg, 'alice');
    bob = await loginAs(tg, 'bob');
  });
  afterAll(async () => tg?.close());

  it('keeps the admin calls to admins and redeeming to signed-in users', async () => {
    const anonymous = tg.client();
    expect((await anonymous.get('/api/redemption/')).status).toBe(401);
    expect((await anonymous.post('/api/redemption/', { name: 'x' })).status).toBe(401);
    expect((await anonymous.post('/api/user/topup', { key: 'x' })).status).toBe(401);
    expectFail(await alice.get('/api/redemption/'), MSG.forbidden);
    expectFail(await alice.post('/api/redemption/', { name: 'mine', count: 1 }), MSG.forbidden);
    expectFail(await alice.put('/api/redemption/', { id: 1, name: 'mine' }), MSG.forbidden);
    expectFail(await alice.delete('/api/redemption/1/'), MSG.forbidden);
    expect(await codeCount()).toBe(0);
  });

  describe('create', () => {
    it('refuses bad names, counts, quotas and groups, creating nothing', async () => {
      expectFail(await admin.post('/api/redemption/', { quota: 1000, count: 1 }), MSG.nameLength);
      expectFail(await admin.post('/api/redemption/', { name: '   ', count: 1 }), MSG.nameLength);
      expectFail(await admin.post('/api/redemption/', { name: 'x'.repeat(21), count: 1 }), MSG.nameLength);
      expectFail(await admin.post('/api/redemption/', { name: 'ok', count: 0 }), MSG.countPositive);
      expectFail(await admin.post('/api/redemption/', { name: 'ok', count: -3 }), MSG.countPositive);
      expectFail(await admin.post('/api/redemption/', { name: 'ok', count: 1.5 }), MSG.countPositive);
      expectFail(await admin.post('/api/redemption/', { name: 'ok', count: 101 }), MSG.countMax);
      expectFail(await admin.post('/api/redemption/', { name: 'ok', quota: 0 }), MSG.quota);
      expectFail(await admin.post('/api/redemption/', { name: 'ok', quota: -5 }), MSG.quota);
      expectFail(await admin.post('/api/redemption/', { name: 'ok', quota: 10.5 }), MSG.quota);
      expectFail(await admin.post('/api/redemption/', { name: 'ok', group: 'nope' }), '分组 nope 不存在');
      expect(await codeCount()).toBe(0);
    });

    it('creates a batch and answers the codes, 20-character names counted in characters', async () => {
      const name = '春节活动兑换码一二三四五六七八九十甲乙丙'; // 20 characters
      const keys = await create({ name, quota: 250000, count: 3 });
      expect(keys).toHaveLength(3);
      for (const key of keys) expect(key).toMatch(/^[0-9a-f]{32}$/);
      expect(new Set(keys).size).toBe(3);
      for (const key of keys) {
        const row = await codeRow(key);
        expect(row).toMatchObject({ name, quota: 250000, status: 1, used_user_id: 0, group: '', deleted_at: null });
        expect(Number(row.created_time)).toBeGreaterThan(0);
      }
    });

    it('defaults to one code of 100000 quota, and takes 100 at once', async () => {
      const [key] = await create({ name: 'default' });
      expect(await codeRow(key!)).toMatchObject({ quota: 100000, status: 1 });
      expect(await create({ name: 'hundred', quota: 1, count: 100 })).toHaveLength(100);
    });
  });

  describe('list, search, read', () => {
    it('pages newest first with the whole codes', async () => {
      const total = await codeCount();
      const first = expectOk(await admin.get('/api/redemption/?p=1&page_size=10'));
      expect(first).toMatchObject({ total, page: 1, page_size: 10 });
      expect(first.items).toHaveLength(10);
      const ids = first.items.map((c: { id: number }) => c.id);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
      expect(Object.keys(first.items[0]).sort()).toEqual(
        [
          'created_time',
          'expired_time',
          'group',
          'id',
          'key',
          'name',
          'quota',
          'redeemed_time',
          'status',
          'used_user_id',
          'user_id',
        ].sort(),
      );
      expect(first.items[0].key).toMatch(/^[0-9a-f]{32}$/);
      const second = expectOk(await admin.get('/api/redemption/?p=2&page_size=10'));
      expect(second.items[0].id).toBeLessThan(ids[ids.length - 1]);
    });

    it('searches by part of the name, by id and by whole code, wildcards taken literally', async () => {
      const [key] = await create({ name: '50%_off', quota: 7 });
      await create({ name: '50 off', quota: 7 });
      const byName = expectOk(await admin.get(`/api/redemption/search?keyword=${encodeURIComponent('%_')}`));
      expect(byName.items.map((c: { name: string }) => c.name)).toEqual(['50%_off']);
      const id = await idOf(key!);
      const byId = expectOk(await admin.get(`/api/redemption/search?keyword=${id}`));
      expect(byId.items.map((c: { id: number }) => c.id)).toContain(id);
      const byKey = expectOk(await admin.get(`/api/redemption/search?keyword=${key}`));
      expect(byKey).toMatchObject({ total: 1, items: [{ id, key }] });
      const none = expectOk(await admin.get('/api/redemption/search?keyword=nothing-like-this'));
      expect(none).toMatchObject({ total: 0, items: [] });
    });

    it('reads one code, and says when it does not exist', async () => {
      const [key] = await create({ name: 'one', quota: 42 });
      const id = await idOf(key!);
      expect(expectOk(await admin.get(`/api/redemption/${id}`))).toMatchObject({ id, key, name: 'one', quota: 42, status: 1 });
      expectFail(await admin.get('/api/redemption/999999'), MSG.notFound);
    });
  });

  describe('edit and status rules', () => {
    it('edits name, quota and group of an unused code', async () => {
      const [key] = await create({ name: 'before', quota: 10 });
      const id = await idOf(key!);
      const updated = expectOk(await admin.put('/api/redemption/', { id, name: 'after', quota: 20, group: 'vip' }));
      expect(updated).toMatchObject({ id, name: 'after', quota: 20, group: 'vip', status: 1 });
      expectFail(await admin.put('/api/redemption/', { id, name: '' }), MSG.nameLength);
      expectFail(await admin.put('/api/redemption/', { id, quota: 0 }), MSG.quota);
      expectFail(await admin.put('/api/redemption/', { id, group: 'ghost' }), '分组 ghost 不存在');
      expect(await codeRow(key!)).toMatchObject({ name: 'after', quota: 20, group: 'vip' });
      expectFail(await admin.put('/api/redemption/', { id: 999999, name: 'x' }), MSG.notFound);
    });

    it('disables and enables; a disabled code is not redeemable and not editable', async () => {
      const [key] = await create({ name: 'toggle', quota: 30 });
      const id = await idOf(key!);
      expect(expectOk(await admin.put('/api/redemption/?status_only=true', { id, status: 2 }))).toMatchObject({ status: 2 });
      expectFail(await alice.post('/api/user/topup', { key }), MSG.invalid);
      expectFail(await admin.put('/api/redemption/', { id, name: 'renamed' }), MSG.editOnlyUnused);
      expectFail(await admin.put('/api/redemption/?status_only=true', { id, status: 3 }), MSG.statusInvalid);
      expectFail(await admin.put('/api/redemption/?status_only=true', { id }), MSG.statusInvalid);
      expect(expectOk(await admin.put('/api/redemption/?status_only=true', { id, status: 1 }))).toMatchObject({ status: 1 });
      expect(expectOk(await alice.post('/api/user/topup', { key }))).toBe(30);
    });

    it('neither edits nor enables nor disables a used code', async () => {
      const [key] = await create({ name: 'spent', quota: 5 });
      const id = await idOf(key!);
      expectOk(await alice.post('/api/user/topup', { key }));
      expectFail(await admin.put('/api/redemption/?status_only=true', { id, status: 1 }), MSG.statusUsed);
      expectFail(await admin.put('/api/redemption/?status_only=true', { id, status: 2 }), MSG.statusUsed);
      expectFail(await admin.put('/api/redemption/', { id, name: 'again', quota: 500 }), MSG.editOnlyUnused);
      expect(await codeRow(key!)).toMatchObject({ status: 3, name: 'spent', quota: 5 });
    });

    it('deletes a code: gone from lists, reads and redeeming', async () => {
      const [key] = await create({ name: 'doomed', quota: 9 });
      const id = await idOf(key!);
      expectOk(await admin.delete(`/api/redemption/${id}/`));
      expectFail(await admin.get(`/api/redemption/${id}`), MSG.notFound);
      const search = expectOk(await admin.get(`/api/redemption/search?keyword=${key}`));
      expect(search.total).toBe(0);
      expectFail(await alice.post('/api/user/topup', { key }), MSG.invalid);
      expectFail(await admin.delete(`/api/redemption/${id}/`), MSG.notFound);
    });
  });

  describe('redeeming', () => {
    it('credits the quota, marks the code used, writes a top-up log and refreshes the cached user', async () => {
      const [key] = await create({ name: 'gift', quota: 123456 });
      const before = await quotaOf(aliceId);
      // The relay's cached copy of alice is dropped on the change.
      expect((await tg.gateway.ctx.users.get(aliceId))?.quota).toBe(before);
      const res = await alice.post('/api/user/topup', { key: `  ${key}  ` });
      expect(expectOk(res)).toBe(123456);
      expect(await quotaOf(aliceId)).toBe(before + 123456);
      expect((await tg.gateway.ctx.users.get(aliceId))?.quota).toBe(before + 123456);
      const row = await codeRow(key!);
      expect(row).toMatchObject({ status: 3, used_user_id: aliceId });
      expect(Number(row.redeemed_time)).toBeGreaterThan(0);
      const logs = await db().selectFrom('logs').selectAll().where('user_id', '=', aliceId).where('type', '=', 1).execute();
      const log = logs.find((l) => l.content?.includes(`兑换码ID ${row.id}`));
      expect(log).toMatchObject({ username: 'alice', quota: 123456, content: `通过兑换码充值 $0.25，兑换码ID ${row.id}` });
      // Shown to alice in her own log.
      const own = expectOk(await alice.get('/api/log/self/?type=1&p=1&page_size=50'));
      expect(own.items.some((l: { content: string }) => l.content === log?.content)).toBe(true);

      expectFail(await alice.post('/api/user/topup', { key }), MSG.used);
      expectFail(await bob.post('/api/user/topup', { key }), MSG.used);
      expect(await quotaOf(aliceId)).toBe(before + 123456);
    });

    it('answers the spec messages for a missing, unknown or used code', async () => {
      expectFail(await alice.post('/api/user/topup', {}), MSG.noKey);
      expectFail(await alice.post('/api/user/topup', { key: '   ' }), MSG.noKey);
      expectFail(await alice.post('/api/user/topup', { key: 'f'.repeat(32) }), MSG.invalid);
      expectFail(await alice.post('/api/user/topup', { key: "' or 1=1 --" }), MSG.invalid);
    });

    it('keeps a code of a group to users of that group', async () => {
      const [key] = await create({ name: 'vip only', quota: 77, group: 'vip' });
      const aliceBefore = await quotaOf(aliceId);
      expectFail(await alice.post('/api/user/topup', { key }), '该兑换码仅限 vip 分组的用户使用');
      expect(await quotaOf(aliceId)).toBe(aliceBefore);
      const bobBefore = await quotaOf(bobId);
      expect(expectOk(await bob.post('/api/user/topup', { key }))).toBe(77);
      expect(await quotaOf(bobId)).toBe(bobBefore + 77);
    });

    it('lets exactly one of 40 concurrent redeems of one code win, crediting once', async () => {
      const { db: database, dbKind } = tg.gateway.ctx;
      const racers: { client: ApiClient; id: number }[] = [];
      for (let i = 0; i < 8; i += 1) {
        const id = await createUser(database, dbKind, { username: `racer${i}`, password: PASSWORD });
        racers.push({ client: await loginAs(tg, `racer${i}`), id });
      }
      const [key] = await create({ name: 'race', quota: 500000 });
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) => racers[i % racers.length]!.client.post('/api/user/topup', { key })),
      );
      const wins = results.filter((r) => r.body.success === true);
      expect(wins).toHaveLength(1);
      for (const r of results.filter((r) => r.body.success !== true))
        expect(r.body).toMatchObject({ success: false, message: MSG.used });
      const quotas = await Promise.all(racers.map((r) => quotaOf(r.id)));
      expect(quotas.reduce((a, b) => a + b, 0)).toBe(500000);
      const row = await codeRow(key!);
      const winner = racers.find((r) => r.id === row.used_user_id);
      expect(winner).toBeDefined();
      expect(await quotaOf(winner!.id)).toBe(500000);
      const logs = await db()
        .selectFrom('logs')
        .select('user_id')
        .where('type', '=', 1)
        .where('content', 'like', `%兑换码ID ${row.id}`)
        .execute();
      expect(logs).toEqual([{ user_id: winner!.id }]);
    });
  });

  it('root is an admin too', async () => {
    expect(expectOk(await root.get('/api/redemption/?p=1&page_size=1')).items).toHaveLength(1);
  });
});
