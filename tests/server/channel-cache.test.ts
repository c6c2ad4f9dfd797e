/** The channel index the relay picks from: weights, tiers, retries, and bus invalidation. */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { setupRoot, startTestGateway, type ApiClient, type TestGateway } from '../helpers/gateway.js';
import { expectOk, makeChannelUser, newKey, watch } from '../helpers/channels.js';
import { createChannelCache, type ChannelCache } from '../../server/channels/cache.js';

await forEachDatabase('channel cache', (kind) => {
  let tg: TestGateway;
  let root: ApiClient;
  let admin: ApiClient;
  const db = () => tg.gateway.ctx.db;

  async function create(body: Record<string, unknown>): Promise<number> {
    const res = await root.post('/api/channel/', { type: 1, key: newKey(), models: ['gpt-4o'], ...body });
    return expectOk(res).id as number;
  }

  beforeAll(async () => {
    tg = await startTestGateway(kind);
    root = watch(await setupRoot(tg));
    admin = await makeChannelUser(tg, root, 'chadmin', true);
  });
  afterAll(async () => tg?.close());

  beforeEach(async () => {
    await db().deleteFrom('abilities').execute();
    await db().deleteFrom('channels').execute();
  });

  describe('channel cache', () => {
    let cache: ChannelCache;
    beforeAll(async () => {
      cache = await createChannelCache(tg.gateway.ctx);
    });
    afterAll(() => cache?.close());

    async function settle(check: () => void) {
      await vi.waitFor(check, { timeout: 5000, interval: 20 });
    }

    it('picks in proportion to weight inside the top tier', async () => {
      const light = await create({ name: 'light', group: 'wg', models: 'wm', weight: 1, priority: 5 });
      const heavy = await create({ name: 'heavy', group: 'wg', models: 'wm', weight: 3, priority: 5 });
      const lower = await create({ name: 'lower', group: 'wg', models: 'wm', weight: 100, priority: 1 });
      await cache.reload();
      const tiers = cache.candidates('wg', 'wm');
      expect(tiers.map((t) => t.priority)).toEqual([5, 1]);
      expect(tiers[0]?.candidates.map((c) => c.channel.id)).toEqual([light, heavy]);
      const counts = new Map<number, number>();
      for (let i = 0; i < 4000; i++) {
        const id = cache.pick('wg', 'wm', 0)?.id ?? -1;
        counts.set(id, (counts.get(id) ?? 0) + 1);
      }
      expect(counts.get(lower)).toBeUndefined();
      const share = (counts.get(light) ?? 0) / 4000;
      expect(share).toBeGreaterThan(0.21);
      expect(share).toBeLessThan(0.29);
      expect((counts.get(light) ?? 0) + (counts.get(heavy) ?? 0)).toBe(4000);
    });

    it('spreads evenly when every weight is 0', async () => {
      const a = await create({ name: 'z1', group: 'zg', models: 'zm' });
      const b = await create({ name: 'z2', group: 'zg', models: 'zm' });
      await cache.reload();
      let hitsA = 0;
      for (let i = 0; i < 2000; i++) if (cache.pick('zg', 'zm')?.id === a) hitsA++;
      expect(hitsA).toBeGreaterThan(850);
      expect(hitsA).toBeLessThan(1150);
      expect([a, b]).toContain(cache.pick('zg', 'zm')?.id);
    });

    it('moves down a tier per retry, stays on the last, and skips excluded channels', async () => {
      const top = await create({ name: 't', group: 'rg', models: 'rm', priority: 10 });
      const middle = await create({ name: 'm', group: 'rg', models: 'rm', priority: 5 });
      const bottom = await create({ name: 'b', group: 'rg', models: 'rm', priority: -3 });
      await create({ name: 'other', group: 'rg', models: 'other-model', priority: 99 });
      await cache.reload();
      expect(cache.pick('rg', 'rm', 0)?.id).toBe(top);
      expect(cache.pick('rg', 'rm', 1)?.id).toBe(middle);
      expect(cache.pick('rg', 'rm', 2)?.id).toBe(bottom);
      expect(cache.pick('rg', 'rm', 7)?.id).toBe(bottom);
      expect(cache.pick('rg', 'rm', 0, new Set([top]))?.id).toBe(middle);
      expect(cache.pick('rg', 'rm', 2, new Set([bottom]))?.id).toBe(middle);
      expect(cache.pick('rg', 'rm', 0, new Set([top, middle, bottom]))).toBeUndefined();
      expect(cache.pick('rg', 'nope', 0)).toBeUndefined();
      expect(cache.pick('nogroup', 'rm', 0)).toBeUndefined();
      expect(cache.models('rg')).toEqual(['other-model', 'rm']);
    });

    it('follows bus invalidations: disabled channels drop out, edits show up', async () => {
      const key = newKey();
      const a = await create({ name: 'ca', key, group: 'bg', models: 'bm', priority: 2 });
      const b = await create({ name: 'cb', group: 'bg', models: 'bm', priority: 1 });
      await settle(() =>
        expect(cache.candidates('bg', 'bm').map((t) => t.candidates.map((c) => c.channel.id))).toEqual([[a], [b]]),
      );
      expect(cache.get(a)?.key).toBe(key);

      expectOk(await admin.put('/api/channel/', { id: a, status: 2 }));
      await settle(() => expect(cache.pick('bg', 'bm', 0)?.id).toBe(b));
      expect(cache.get(a)?.status).toBe(2);
      // The gateway's own cache (ctx.channels) follows the same bus.
      await settle(() => expect(tg.gateway.ctx.channels.pick('bg', 'bm', 0)?.id).toBe(b));
      for (let i = 0; i < 50; i++) expect(cache.pick('bg', 'bm', 0)?.id).toBe(b);

      expectOk(await admin.put('/api/channel/', { id: a, status: 1 }));
      expectOk(await admin.put('/api/channel/', { id: b, priority: 9 }));
      await settle(() => expect(cache.candidates('bg', 'bm').map((t) => t.priority)).toEqual([9, 2]));
      expect(cache.pick('bg', 'bm', 0)?.id).toBe(b);

      await db().updateTable('channels').set({ status: 3 }).where('id', '=', b).execute();
      await cache.reload();
      expect(cache.candidates('bg', 'bm').map((t) => t.candidates.map((c) => c.channel.id))).toEqual([[a]]);

      expectOk(await root.delete(`/api/channel/${a}`));
      await settle(() => expect(cache.candidates('bg', 'bm')).toEqual([]));
      expect(cache.get(a)).toBeUndefined();
    });
  });
});
