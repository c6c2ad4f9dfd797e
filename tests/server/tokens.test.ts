import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { setupRoot, startTestGateway, type ApiClient, type TestGateway } from '../helpers/gateway.js';
import { loginAs, PASSWORD } from '../helpers/users.js';
import { createUser } from '../../server/users/repository.js';
import { nowSeconds } from '../../server/db/index.js';
import type { Token } from '../../server/db/types.js';
import { createTokenCache, publishTokenChange, TokenCache, toCachedToken } from '../../server/tokens/cache.js';
import { checkToken, type CachedToken } from '../../server/tokens/check.js';
import { generateKey, maskKey } from '../../server/tokens/keys.js';
import { parseAllowIps } from '../../server/tokens/allow-ips.js';

const MASKED = /^[A-Za-z0-9]{4}\*{10}[A-Za-z0-9]{4}$/;

const MSG = {
  notFound: '令牌不存在',
  expired: '令牌已过期，无法启用，请先修改令牌过期时间，或者设置为永不过期',
  exhausted: '令牌可用额度已用尽，无法启用，请先修改令牌剩余额度，或者设置为无限额度',
};

await forEachDatabase('tokens', (kind) => {
  let tg: TestGateway;
  let alice: ApiClient;
  let bob: ApiClient;
  let aliceId: number;

  const db = () => tg.gateway.ctx.db;
  const row = (id: number): Promise<Token> =>
    db().selectFrom('tokens').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const tokenCount = async () =>
    Number(
      (
        await db()
          .selectFrom('tokens')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  async function create(client: ApiClient, body: Record<string, unknown>): Promise<any> {
    const res = await client.post('/api/token/', body);
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ success: true });
    return res.body.data;
  }

  beforeAll(async () => {
    tg = await startTestGateway(kind);
    await setupRoot(tg);
    const { db: database, dbKind } = tg.gateway.ctx;
    aliceId = await createUser(database, dbKind, { username: 'alice', password: PASSWORD });
    await createUser(database, dbKind, { username: 'bob', password: PASSWORD, group: 'team' });
    alice = await loginAs(tg, 'alice');
    bob = await loginAs(tg, 'bob');
  });
  afterAll(async () => tg?.close());

  it('refuses callers without a session', async () => {
    const anonymous = tg.client();
    expect((await anonymous.get('/api/token/')).status).toBe(401);
    expect((await anonymous.post('/api/token/', { name: 'x' })).status).toBe(401);
    expect((await anonymous.post('/api/token/1/key')).status).toBe(401);
  });

  describe('create, list, get, reveal', () => {
    it('creates a token with a fresh 48-character key, shown masked', async () => {
      const created = await create(alice, {
        name: 'first',
        remain_quota: 500000,
        expired_time: -1,
        unlimited_quota: false,
        model_limits_enabled: true,
        model_limits: ' gpt-4o, ,gpt-4o-mini,gpt-4o',
        allow_ips: '  1.2.3.4 \n\n10.0.0.0/8\r\n2001:db8::/32',
        group: 'vip',
      });
      const stored = await row(created.id);
      expect(stored.key).toMatch(/^[A-Za-z0-9]{48}$/);
      expect(stored.user_id).toBe(aliceId);
      expect(stored.status).toBe(1);
      expect(stored.model_limits).toBe('gpt-4o,gpt-4o-mini');
      expect(stored.allow_ips).toBe('1.2.3.4\n10.0.0.0/8\n2001:db8::/32');
      expect(created).toMatchObject({
        name: 'first',
        status: 1,
        remain_quota: 500000,
        used_quota: 0,
        expired_time: -1,
        unlimited_quota: false,
        model_limits_enabled: true,
        model_limits: 'gpt-4o,gpt-4o-mini',
        group: 'vip',
      });
      expect(created.key).toMatch(MASKED);
      expect(created.key).toBe(`${stored.key.slice(0, 4)}**********${stored.key.slice(-4)}`);
      expect(created.created_time).toBeGreaterThan(nowSeconds() - 60);
    });

    it('lists newest first with paging and never sends a full key', async () => {
      const before = (await alice.get('/api/token/')).body.data.total as number;
      const ids: number[] = [];
      for (const name of ['p1', 'p2', 'p3']) ids.push((await create(alice, { name })).id);
      const first = await alice.get('/api/token/?p=1&size=2');
      expect(first.body.success).toBe(true);
      expect(first.body.data.total).toBe(before + 3);
      expect(first.body.data.page).toBe(1);
      expect(first.body.data.page_size).toBe(2);
      expect(first.body.data.items.map((t: any) => t.id)).toEqual([ids[2], ids[1]]);
      const second = await alice.get('/api/token/?p=2&page_size=2');
      expect(second.body.data.items[0].id).toBe(ids[0]);
      const keys = await db().selectFrom('tokens').select('key').where('user_id', '=', aliceId).execute();
      const text = JSON.stringify([first.body, second.body]);
      for (const { key } of keys) expect(text).not.toContain(key);
      for (const item of [...first.body.data.items, ...second.body.data.items]) expect(item.key).toMatch(MASKED);
    });

    it('answers one token masked, and the whole key only through reveal', async () => {
      const { id } = await create(alice, { name: 'reveal-me' });
      const stored = await row(id);
      const got = await alice.get(`/api/token/${id}`);
      expect(got.body.data).toMatchObject({ id, name: 'reveal-me', key: maskKey(stored.key) });
      expect(JSON.stringify(got.body)).not.toContain(stored.key);
      const revealed = await alice.post(`/api/token/${id}/key`);
      expect(revealed.body).toEqual({ success: true, message: '', data: { key: stored.key } });
    });

    it("reveals several keys in one call, in order, and none of another user's", async () => {
      const a = await create(alice, { name: 'batch-a' });
      const b = await create(alice, { name: 'batch-b' });
      const res = await alice.post('/api/token/keys', { ids: [b.id, a.id] });
      expect(res.body.data).toEqual([
        { id: b.id, key: (await row(b.id)).key },
        { id: a.id, key: (await row(a.id)).key },
      ]);
      const stolen = await bob.post('/api/token/keys', { ids: [a.id] });
      expect(stolen.body).toMatchObject({ success: false, message: MSG.notFound });
      expect((await alice.post('/api/token/keys', { ids: [] })).body.success).toBe(false);
    });

    it('answers an unknown id with 令牌不存在', async () => {
      expect((await alice.get('/api/token/999999')).body).toMatchObject({ success: false, message: MSG.notFound });
      expect((await alice.post('/api/token/999999/key')).body).toMatchObject({ success: false, message: MSG.notFound });
    });
  });

  describe('isolation between users', () => {
    it("never shows, changes, deletes or reveals another user's token", async () => {
      const { id } = await create(alice, { name: 'private', remain_quota: 10 });
      const before = await row(id);
      const notFound = { success: false, message: MSG.notFound };
      expect((await bob.get(`/api/token/${id}`)).body).toMatchObject(notFound);
      expect((await bob.get(`/api/token/new/${id}`)).body).toMatchObject(notFound);
      expect((await bob.post(`/api/token/${id}/key`)).body).toMatchObject(notFound);
      expect((await bob.put('/api/token/', { id, name: 'stolen', remain_quota: 99 })).body).toMatchObject(notFound);
      expect((await bob.put('/api/token/?status_only=true', { id, status: 2 })).body).toMatchObject(notFound);
      expect((await bob.delete(`/api/token/${id}/`)).body).toMatchObject(notFound);
      expect((await bob.delete(`/api/token/new/${id}/`)).body).toMatchObject(notFound);
      expect(await row(id)).toEqual(before);

      const list = await bob.get('/api/token/?size=100');
      expect(list.body.data.items.every((t: any) => t.user_id !== aliceId)).toBe(true);
      const byKey = await bob.get(`/api/token/search?token=sk-${before.key}`);
      expect(byKey.body.data).toMatchObject({ items: [], total: 0 });
    });
  });

  describe('validation', () => {
    const past = () => nowSeconds() - 3600;
    const cases = (): Array<[Record<string, unknown>, string]> => [
      [{}, '令牌名称不能为空'],
      [{ name: '   ' }, '令牌名称不能为空'],
      [{ name: 'x'.repeat(31) }, '令牌名称过长'],
      [{ name: '令'.repeat(31) }, '令牌名称过长'],
      [{ name: 'q', remain_quota: -1 }, '令牌额度不能小于0'],
      [{ name: 'q', remain_quota: 1.5 }, '令牌额度必须是整数'],
      [{ name: 'q', remain_quota: 2 ** 60 }, '令牌额度过大'],
      [{ name: 'e', expired_time: past() }, '过期时间必须晚于当前时间，或设为 -1 表示永不过期'],
      [{ name: 'e', expired_time: 0 }, '过期时间必须晚于当前时间，或设为 -1 表示永不过期'],
      [{ name: 'e', expired_time: -5 }, '过期时间格式错误'],
      [{ name: 'e', expired_time: nowSeconds() + 100.5 }, '过期时间格式错误'],
      [{ name: 'g', group: 'svip' }, '无权使用分组：svip'],
      [{ name: 'g', group: 'team' }, '无权使用分组：team'],
      [{ name: 'i', allow_ips: '1.2.3.4\nnot-an-ip' }, 'IP 白名单格式错误：“not-an-ip”不是有效的 IP 地址或 CIDR（每行一个）'],
      [{ name: 'i', allow_ips: '10.0.0.0/33' }, 'IP 白名单格式错误：“10.0.0.0/33”不是有效的 IP 地址或 CIDR（每行一个）'],
      [{ name: 'i', allow_ips: '::1/129' }, 'IP 白名单格式错误：“::1/129”不是有效的 IP 地址或 CIDR（每行一个）'],
      [{ name: 'i', allow_ips: '1.2.3.4/x' }, 'IP 白名单格式错误：“1.2.3.4/x”不是有效的 IP 地址或 CIDR（每行一个）'],
      [
        { name: 'i', allow_ips: '1.2.3.4, 5.6.7.8' },
        'IP 白名单格式错误：“1.2.3.4, 5.6.7.8”不是有效的 IP 地址或 CIDR（每行一个）',
      ],
    ];

    it('refuses bad input on create with a clear message and writes nothing', async () => {
      const before = await tokenCount();
      for (const [body, message] of cases()) {
        const res = await alice.post('/api/token/', body);
        expect(res.body, JSON.stringify(body)).toMatchObject({ success: false, message });
      }
      expect(await tokenCount()).toBe(before);
    });

    it('refuses the same on update and leaves the row as it was', async () => {
      const { id } = await create(alice, { name: 'stable', remain_quota: 5 });
      const before = await row(id);
      for (const [body, message] of cases()) {
        const full = { id, ...body, name: 'name' in body ? body.name : '' };
        const res = await alice.put('/api/token/', full);
        expect(res.body, JSON.stringify(full)).toMatchObject({ success: false, message });
      }
      expect(await row(id)).toEqual(before);
    });

    it('accepts 30 characters, the usable groups and the own group, IPv6 and CIDRs', async () => {
      expect((await create(alice, { name: '令'.repeat(30) })).name).toBe('令'.repeat(30));
      expect((await create(alice, { name: 'vip', group: 'vip' })).group).toBe('vip');
      expect((await create(alice, { name: 'own', group: 'default' })).group).toBe('default');
      expect((await create(bob, { name: 'team', group: 'team' })).group).toBe('team');
      const ips = await create(alice, { name: 'ips', allow_ips: '::1\n192.168.0.0/16\nfe80::/10' });
      expect(ips.allow_ips).toBe('::1\n192.168.0.0/16\nfe80::/10');
      const later = nowSeconds() + 86400;
      expect((await create(alice, { name: 'later', expired_time: later })).expired_time).toBe(later);
    });
  });

  describe('update and status', () => {
    it('updates the given fields, keeps the others and ignores status in a full update', async () => {
      const { id } = await create(alice, { name: 'old', remain_quota: 7, model_limits: 'a' });
      const res = await alice.put('/api/token/', { id, name: 'new', unlimited_quota: true, status: 2, allow_ips: '8.8.8.8' });
      expect(res.body.success).toBe(true);
      expect(res.body.data).toMatchObject({
        id,
        name: 'new',
        remain_quota: 7,
        unlimited_quota: true,
        status: 1,
        model_limits: 'a',
      });
      expect(res.body.data.key).toMatch(MASKED);
      const stored = await row(id);
      expect(stored).toMatchObject({ name: 'new', remain_quota: 7, unlimited_quota: 1, status: 1, allow_ips: '8.8.8.8' });
    });

    it('lets an expired token be renamed without touching its expiry', async () => {
      const { id } = await create(alice, { name: 'aged' });
      const then = nowSeconds() - 10;
      await db().updateTable('tokens').set({ expired_time: then, status: 3 }).where('id', '=', id).execute();
      const res = await alice.put('/api/token/', { id, name: 'renamed', expired_time: then });
      expect(res.body.success, res.body.message).toBe(true);
      expect(await row(id)).toMatchObject({ name: 'renamed', expired_time: then, status: 3 });
    });

    it('refuses to enable an expired token until its expiry is changed', async () => {
      const { id } = await create(alice, { name: 'expiring', remain_quota: 100 });
      await db()
        .updateTable('tokens')
        .set({ expired_time: nowSeconds() - 1, status: 3 })
        .where('id', '=', id)
        .execute();
      const refused = await alice.put('/api/token/?status_only=true', { id, status: 1 });
      expect(refused.body).toMatchObject({ success: false, message: MSG.expired });
      expect((await row(id)).status).toBe(3);
      // A disabled token past its expiry cannot be enabled either.
      expect((await alice.put('/api/token/?status_only=true', { id, status: 2 })).body.success).toBe(true);
      expect((await alice.put('/api/token/?status_only=true', { id, status: 1 })).body.message).toBe(MSG.expired);
      expect((await alice.put('/api/token/', { id, expired_time: -1 })).body.success).toBe(true);
      const enabled = await alice.put('/api/token/?status_only=true', { id, status: 1 });
      expect(enabled.body.success).toBe(true);
      expect(enabled.body.data.status).toBe(1);
      expect((await row(id)).status).toBe(1);
    });

    it('refuses to enable an exhausted token until it has quota or is unlimited', async () => {
      const { id } = await create(alice, { name: 'spent', remain_quota: 0 });
      await db().updateTable('tokens').set({ status: 4 }).where('id', '=', id).execute();
      const refused = await alice.put('/api/token/?status_only=true', { id, status: 1 });
      expect(refused.body).toMatchObject({ success: false, message: MSG.exhausted });
      expect((await row(id)).status).toBe(4);
      expect((await alice.put('/api/token/', { id, unlimited_quota: true })).body.success).toBe(true);
      expect((await alice.put('/api/token/?status_only=true', { id, status: 1 })).body.success).toBe(true);
      const other = await create(alice, { name: 'spent2', remain_quota: 0 });
      await db().updateTable('tokens').set({ status: 4 }).where('id', '=', other.id).execute();
      expect((await alice.put('/api/token/', { id: other.id, remain_quota: 1000 })).body.success).toBe(true);
      expect((await alice.put('/api/token/?status_only=true', { id: other.id, status: 1 })).body.success).toBe(true);
    });

    it('lets users set only status 1 or 2', async () => {
      const { id } = await create(alice, { name: 'statuses', remain_quota: 1 });
      for (const status of [0, 3, 4, 100]) {
        const res = await alice.put('/api/token/?status_only=true', { id, status });
        expect(res.body).toMatchObject({ success: false, message: '无效的令牌状态' });
      }
      expect((await alice.put('/api/token/?status_only=true', { id })).body.message).toBe('无效的令牌状态');
      expect((await row(id)).status).toBe(1);
      const disabled = await alice.put('/api/token/?status_only=true', { id, status: 2, name: 'ignored' });
      expect(disabled.body.data).toMatchObject({ status: 2, name: 'statuses' });
    });
  });

  describe('delete', () => {
    it('deletes with and without the trailing slash, after which the token is gone everywhere', async () => {
      const a = await create(alice, { name: 'del-a' });
      const b = await create(alice, { name: 'del-b' });
      expect((await alice.delete(`/api/token/${a.id}/`)).body).toEqual({ success: true, message: '' });
      expect((await alice.delete(`/api/token/${b.id}`)).body).toEqual({ success: true, message: '' });
      for (const id of [a.id, b.id]) {
        expect((await alice.get(`/api/token/${id}`)).body).toMatchObject({ success: false, message: MSG.notFound });
        expect((await alice.delete(`/api/token/${id}/`)).body).toMatchObject({ success: false, message: MSG.notFound });
        expect((await row(id)).deleted_at).not.toBeNull();
      }
      const list = await alice.get('/api/token/?size=100');
      expect(list.body.data.items.map((t: any) => t.id)).not.toContain(a.id);
    });
  });

  describe('the new variants', () => {
    it('answer like the classic paths', async () => {
      const { id } = await create(alice, { name: 'variant' });
      expect((await alice.get(`/api/token/new/${id}`)).body).toEqual((await alice.get(`/api/token/${id}`)).body);
      expect((await alice.get('/api/token/query?p=1&size=3')).body).toEqual((await alice.get('/api/token/?p=1&size=3')).body);
      expect((await alice.get('/api/token/newSearch?keyword=variant')).body).toEqual(
        (await alice.get('/api/token/search?keyword=variant')).body,
      );
      const updated = await alice.put('/api/token/new/', { id, name: 'variant2' });
      expect(updated.body.data.name).toBe('variant2');
      const disabled = await alice.put('/api/token/new/?status_only=true', { id, status: 2 });
      expect(disabled.body.data.status).toBe(2);
      expect((await alice.delete(`/api/token/new/${id}/`)).body.success).toBe(true);
      expect((await alice.get(`/api/token/new/${id}`)).body.message).toBe(MSG.notFound);
    });
  });

  describe('search', () => {
    it('matches names as substrings with % and _ taken literally', async () => {
      for (const name of ['s%cent', 's_under', 'sxunder', 'sXXcent']) await create(bob, { name });
      const names = async (keyword: string) => {
        const res = await bob.get(`/api/token/search?keyword=${encodeURIComponent(keyword)}&size=100`);
        expect(res.body.success).toBe(true);
        return (res.body.data.items as any[]).map((t) => t.name).sort();
      };
      expect(await names('%')).toEqual(['s%cent']);
      expect(await names('_')).toEqual(['s_under']);
      expect(await names('s_u')).toEqual(['s_under']);
      expect(await names('s%c')).toEqual(['s%cent']);
      expect(await names('under')).toEqual(['s_under', 'sxunder']);
      expect(await names('  under ')).toEqual(['s_under', 'sxunder']);
      const paged = await bob.get('/api/token/search?keyword=s&p=2&size=3');
      expect(paged.body.data).toMatchObject({ page: 2, page_size: 3 });
      expect(paged.body.data.total).toBeGreaterThanOrEqual(4);
    });

    it('finds a token by its whole key, with or without sk-', async () => {
      const { id } = await create(bob, { name: 'by-key' });
      const { key } = await row(id);
      for (const token of [key, `sk-${key}`]) {
        const res = await bob.get(`/api/token/search?token=${token}`);
        expect(res.body.data.total).toBe(1);
        expect(res.body.data.items[0].id).toBe(id);
        expect(res.body.data.items[0].key).toBe(maskKey(key));
      }
      expect((await bob.get(`/api/token/search?token=${key.slice(0, 20)}`)).body.data.total).toBe(0);
      expect((await bob.get(`/api/token/newSearch?token=sk-${key}&keyword=other`)).body.data.total).toBe(0);
    });
  });

  describe('token cache', () => {
    it('serves from memory and drops an entry when a change is published', async () => {
      const cache = createTokenCache(tg.gateway.ctx);
      const { id } = await create(alice, { name: 'cached', remain_quota: 50, model_limits_enabled: true, model_limits: 'm1,m2' });
      const { key } = await row(id);
      const first = await cache.get(`sk-${key}`);
      expect(first).toMatchObject({
        id,
        user_id: aliceId,
        name: 'cached',
        key,
        status: 1,
        remain_quota: 50,
        unlimited_quota: false,
      });
      expect([...first!.model_limits]).toEqual(['m1', 'm2']);
      expect(first!.allow_ips).toBeNull();

      // Written behind the cache's back: still the cached values.
      await db().updateTable('tokens').set({ name: 'sneaky' }).where('id', '=', id).execute();
      expect((await cache.get(key))!.name).toBe('cached');

      const put = await alice.put('/api/token/', { id, name: 'renamed', remain_quota: 80, allow_ips: '10.0.0.0/8' });
      expect(put.body.success).toBe(true);
      const after = await cache.get(key);
      expect(after).toMatchObject({ name: 'renamed', remain_quota: 80 });
      expect(checkToken(after!, nowSeconds(), '10.1.1.1')).toEqual({ ok: true });
      expect(checkToken(after!, nowSeconds(), '11.1.1.1')).toMatchObject({ ok: false, status: 403 });

      await alice.put('/api/token/?status_only=true', { id, status: 2 });
      expect((await cache.get(key))!.status).toBe(2);

      await alice.delete(`/api/token/${id}/`);
      expect(await cache.get(key)).toBeNull();
    });

    it('caches a miss briefly, forgets it on publish, and refuses malformed keys without a query', async () => {
      const cache = createTokenCache(tg.gateway.ctx);
      const key = generateKey();
      expect(await cache.get(key)).toBeNull();
      await db().insertInto('tokens').values({ user_id: aliceId, key, name: 'late', remain_quota: 1 }).execute();
      expect(await cache.get(key)).toBeNull();
      publishTokenChange(tg.gateway.ctx.bus, key);
      expect((await cache.get(key))!.name).toBe('late');

      const size = cache.size;
      for (const bad of ['', 'sk-', 'a b', 'x'.repeat(65), "' or 1=1 --"]) expect(await cache.get(bad)).toBeNull();
      expect(cache.size).toBe(size);
    });

    it('matches keys case-sensitively on every database (MySQL collations do not)', async () => {
      const cache = new TokenCache(db());
      const { id } = await create(alice, { name: 'exact' });
      const { key } = await row(id);
      const swapped = [...key].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
      expect(swapped).not.toBe(key);
      expect(await cache.get(swapped)).toBeNull();
      expect((await cache.get(`${key}`))!.id).toBe(id);
    });

    it('reloads after its lifetime and keeps at most maxEntries', async () => {
      let now = 1_000_000;
      const cache = new TokenCache(db(), { ttlMs: 60_000, negativeTtlMs: 5_000, maxEntries: 3, clock: () => now });
      const { id } = await create(alice, { name: 'ttl', remain_quota: 10 });
      const { key } = await row(id);
      expect((await cache.get(key))!.remain_quota).toBe(10);
      await db().updateTable('tokens').set({ remain_quota: 3 }).where('id', '=', id).execute();
      now += 59_000;
      expect((await cache.get(key))!.remain_quota).toBe(10);
      now += 2_000;
      expect((await cache.get(key))!.remain_quota).toBe(3);

      for (let i = 0; i < 10; i++) await cache.get(generateKey());
      expect(cache.size).toBe(3);
    });

    it('shares one query between concurrent misses', async () => {
      const cache = new TokenCache(db());
      const { id } = await create(alice, { name: 'burst' });
      const { key } = await row(id);
      const results = await Promise.all(Array.from({ length: 20 }, () => cache.get(key)));
      expect(new Set(results).size).toBe(1);
      expect(results[0]!.id).toBe(id);
    });
  });
});

describe('token key reveal is rate-limited', () => {
  let tg: TestGateway;
  beforeAll(async () => {
    tg = await startTestGateway('sqlite', { SEARCH_RATE_LIMIT: '3' });
  });
  afterAll(async () => tg?.close());

  it('answers 429 once the search limit is spent', async () => {
    const root = await setupRoot(tg);
    const created = await root.post('/api/token/', { name: 'limited' });
    const id = created.body.data.id as number;
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await root.post(`/api/token/${id}/key`)).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
  });
});

describe('keys', () => {
  it('generates 48 characters of [A-Za-z0-9], all different', () => {
    const keys = Array.from({ length: 200 }, generateKey);
    for (const key of keys) expect(key).toMatch(/^[A-Za-z0-9]{48}$/);
    expect(new Set(keys).size).toBe(keys.length);
    const seen = new Set(keys.join(''));
    expect(seen.size).toBe(62);
  });

  it('masks as first 4, ten asterisks, last 4', () => {
    expect(maskKey('abcdEFGHijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRwxyz')).toBe('abcd**********wxyz');
  });
});

describe('checkToken', () => {
  const NOW = 1_700_000_000;
  const base = (over: Partial<Token> = {}): CachedToken =>
    toCachedToken({
      id: 1,
      user_id: 1,
      key: 'k'.repeat(48),
      status: 1,
      name: 't',
      created_time: 0,
      accessed_time: 0,
      expired_time: -1,
      remain_quota: 100,
      unlimited_quota: 0,
      model_limits_enabled: 0,
      model_limits: null,
      allow_ips: null,
      used_quota: 0,
      group: '',
      deleted_at: null,
      tpm_limit: 0,
      max_concurrency: 0,
      rpm_limit: 0,
      rpd_limit: 0,
      log_bodies: 0,
      ...over,
    });

  it('accepts an enabled token with quota and no expiry', () => {
    expect(checkToken(base(), NOW, '1.2.3.4')).toEqual({ ok: true });
    expect(checkToken(base({ expired_time: NOW + 1 }), NOW, '1.2.3.4')).toEqual({ ok: true });
  });

  it('refuses tokens that are not enabled without marking them', () => {
    expect(checkToken(base({ status: 2 }), NOW, '1.2.3.4')).toEqual({ ok: false, status: 401, code: 'token_unavailable' });
    expect(checkToken(base({ status: 3 }), NOW, '1.2.3.4')).toEqual({ ok: false, status: 401, code: 'token_expired' });
    expect(checkToken(base({ status: 4 }), NOW, '1.2.3.4')).toEqual({ ok: false, status: 429, code: 'token_exhausted' });
  });

  it('marks an expired token 3 and an exhausted one 4, expiry first', () => {
    expect(checkToken(base({ expired_time: NOW }), NOW, '1.2.3.4')).toEqual({
      ok: false,
      status: 401,
      code: 'token_expired',
      mark: 3,
    });
    expect(checkToken(base({ remain_quota: 0 }), NOW, '1.2.3.4')).toEqual({
      ok: false,
      status: 429,
      code: 'token_exhausted',
      mark: 4,
    });
    expect(checkToken(base({ remain_quota: -5 }), NOW, '1.2.3.4')).toMatchObject({ mark: 4 });
    expect(checkToken(base({ remain_quota: 0, expired_time: NOW - 1 }), NOW, '1.2.3.4')).toMatchObject({ mark: 3 });
  });

  it('lets an unlimited token through with no quota left', () => {
    expect(checkToken(base({ remain_quota: 0, unlimited_quota: 1 }), NOW, '1.2.3.4')).toEqual({ ok: true });
  });

  it('checks the client address against IPs and CIDRs of both families', () => {
    const token = base({ allow_ips: '203.0.113.7\n10.0.0.0/8\n2001:db8::/32\n::1' });
    for (const ip of ['203.0.113.7', '10.255.0.1', '::ffff:10.1.2.3', '2001:db8:abcd::5', '2001:DB8::1', '::1']) {
      expect(checkToken(token, NOW, ip), ip).toEqual({ ok: true });
    }
    for (const ip of ['203.0.113.8', '11.0.0.1', '2001:db9::1', '::2', 'unknown', '']) {
      expect(checkToken(token, NOW, ip), ip).toEqual({ ok: false, status: 403, code: 'token_ip_not_allowed' });
    }
  });

  it('runs the IP check after status, expiry and quota', () => {
    const token = base({ allow_ips: '10.0.0.0/8', remain_quota: 0 });
    expect(checkToken(token, NOW, '11.0.0.1')).toMatchObject({ mark: 4 });
  });

  it('admits nobody when a stored allow list does not parse', () => {
    expect(parseAllowIps('garbage').ok).toBe(false);
    expect(checkToken(base({ allow_ips: 'garbage' }), NOW, '1.2.3.4')).toMatchObject({ ok: false, status: 403 });
  });
});
