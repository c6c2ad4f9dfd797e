/**
 * Redemption expiry, as the family's consoles use it: `expired_time` (0 never) created, edited and
 * answered; an expired code refused with its own code and nothing credited; DELETE
 * /api/redemption/invalid removing used, disabled and expired codes and answering the count.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { setupRoot, startTestGateway, type ApiClient, type TestGateway } from '../helpers/gateway.js';
import { loginAs, PASSWORD } from '../helpers/users.js';
import { createUser } from '../../server/users/repository.js';
import { nowSeconds } from '../../server/db/index.js';

await forEachDatabase('redemption expiry', (kind) => {
  let tg: TestGateway;
  let root: ApiClient;
  let alice: ApiClient;
  let aliceId: number;

  const db = () => tg.gateway.ctx.db;
  const quotaOf = async () =>
    Number((await db().selectFrom('users').select('quota').where('id', '=', aliceId).executeTakeFirstOrThrow()).quota);
  const rowOf = (key: string) => db().selectFrom('redemptions').selectAll().where('key', '=', key).executeTakeFirstOrThrow();
  const topupLogs = async () =>
    (await db().selectFrom('logs').select('id').where('user_id', '=', aliceId).where('type', '=', 1).execute()).length;
  const create = async (body: Record<string, unknown>): Promise<string[]> => {
    const res = await root.post('/api/redemption/', { name: 'gift', quota: 1000, ...body });
    expect(res.body.success, res.body.message).toBe(true);
    return res.body.data;
  };

  beforeAll(async () => {
    tg = await startTestGateway(kind);
    root = await setupRoot(tg);
    aliceId = await createUser(db(), tg.gateway.ctx.dbKind, { username: 'alice', password: PASSWORD });
    alice = await loginAs(tg, 'alice');
  });
  afterAll(async () => tg?.close());

  it('creates codes that never expire unless told, and answers expired_time everywhere', async () => {
    const [forever] = await create({});
    const later = nowSeconds() + 86_400;
    const [dated] = await create({ expired_time: later, count: 1 });
    expect(Number((await rowOf(forever!)).expired_time)).toBe(0);
    expect(Number((await rowOf(dated!)).expired_time)).toBe(later);
    const id = (await rowOf(dated!)).id;
    expect((await root.get(`/api/redemption/${id}`)).body.data).toMatchObject({ id, expired_time: later });
    const listed = (await root.get('/api/redemption/?p=1&page_size=100')).body.data.items;
    for (const item of listed) expect(typeof item.expired_time).toBe('number');
    const searched = (await root.get(`/api/redemption/search?keyword=${id}`)).body.data.items;
    expect(searched[0]).toMatchObject({ id, expired_time: later });
  });

  it('refuses an expiry in the past or not a whole second, writing nothing', async () => {
    const before = (await root.get('/api/redemption/?p=1&page_size=100')).body.data.total;
    for (const [expired_time, code] of [
      [nowSeconds() - 60, 'redemption.expiry_past'],
      [-5, 'redemption.expiry_invalid'],
      [1.5, 'redemption.expiry_invalid'],
    ] as const) {
      const res = await root.post('/api/redemption/', { name: 'bad', quota: 10, expired_time });
      expect(res.body, String(expired_time)).toMatchObject({ success: false, code });
    }
    expect((await root.get('/api/redemption/?p=1&page_size=100')).body.data.total).toBe(before);
  });

  it('edits the expiry of an unused code, keeping an unchanged one even when it has passed', async () => {
    const [key] = await create({});
    const { id } = await rowOf(key!);
    const later = nowSeconds() + 3600;
    const edited = await root.put('/api/redemption/', { id, name: 'gift', quota: 1000, expired_time: later });
    expect(edited.body.data).toMatchObject({ id, expired_time: later });
    expect((await root.put('/api/redemption/', { id, expired_time: nowSeconds() - 10 })).body).toMatchObject({
      success: false,
      code: 'redemption.expiry_past',
    });
    // A code that expired meanwhile can still be renamed: its expiry comes back as it was.
    const past = nowSeconds() - 100;
    await db().updateTable('redemptions').set({ expired_time: past }).where('id', '=', id).execute();
    const renamed = await root.put('/api/redemption/', { id, name: 'renamed', quota: 1000, expired_time: past });
    expect(renamed.body.data).toMatchObject({ name: 'renamed', expired_time: past });
    expect((await root.put('/api/redemption/', { id, expired_time: 0 })).body.data.expired_time).toBe(0);
  });

  it('refuses to redeem an expired code with redemption.expired, crediting nothing', async () => {
    const [key] = await create({ expired_time: nowSeconds() + 3600 });
    await db()
      .updateTable('redemptions')
      .set({ expired_time: nowSeconds() - 1 })
      .where('key', '=', key!)
      .execute();
    const [quota, logs] = [await quotaOf(), await topupLogs()];
    const res = await alice.post('/api/user/topup', { key });
    expect(res.body).toMatchObject({ success: false, code: 'redemption.expired', message: '该兑换码已过期' });
    expect(await quotaOf()).toBe(quota);
    expect(await topupLogs()).toBe(logs);
    expect((await rowOf(key!)).status).toBe(1);
    // Not yet expired: redeemed as usual.
    const [fresh] = await create({ expired_time: nowSeconds() + 3600 });
    expect((await alice.post('/api/user/topup', { key: fresh })).body).toMatchObject({ success: true, data: 1000 });
    expect(await quotaOf()).toBe(quota + 1000);
  });

  it('deletes used, disabled and expired codes and answers how many', async () => {
    // Start from nothing invalid.
    await root.delete('/api/redemption/invalid');
    const [used, disabled, expired, live, forever] = [
      ...(await create({})),
      ...(await create({})),
      ...(await create({ expired_time: nowSeconds() + 3600 })),
      ...(await create({ expired_time: nowSeconds() + 3600 })),
      ...(await create({})),
    ];
    expect((await alice.post('/api/user/topup', { key: used })).body.success).toBe(true);
    const disabledId = (await rowOf(disabled!)).id;
    expect((await root.put('/api/redemption/?status_only=true', { id: disabledId, status: 2 })).body.success).toBe(true);
    await db()
      .updateTable('redemptions')
      .set({ expired_time: nowSeconds() - 1 })
      .where('key', '=', expired!)
      .execute();

    const res = await root.delete('/api/redemption/invalid');
    expect(res.body).toEqual({ success: true, message: '', data: 3 });
    for (const key of [used, disabled, expired]) expect((await rowOf(key!)).deleted_at).not.toBeNull();
    for (const key of [live, forever]) expect((await rowOf(key!)).deleted_at).toBeNull();
    const keys = (await root.get('/api/redemption/?p=1&page_size=100')).body.data.items.map((r: { key: string }) => r.key);
    expect(keys).toEqual(expect.arrayContaining([live, forever]));
    expect(keys).not.toContain(used);
    expect((await root.delete('/api/redemption/invalid')).body.data).toBe(0);
    expect((await alice.delete('/api/redemption/invalid')).body.success).toBe(false);
  });
});
