/**
 * The log statistics on the real gateway, on every database: /api/log/stat, the prompt/completion
 * extends, channel statistics and dashboard data, who may call what, and log cleanup (last: it
 * deletes the rows of tests/helpers/logs-fixture.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import type { ApiClient, TestGateway } from '../helpers/gateway.js';
import { logsFixture } from '../helpers/logs-fixture.js';
import { writeHourlyTotals, type HourlyRow } from '../helpers/hourly-totals.js';
import { nowSeconds } from '../../server/db/index.js';
import { deleteLogsBefore } from '../../server/logs/repository.js';
import type { ChannelUseRow, LogStat, QuotaDataRow } from '../../server/logs/schemas.js';

const NO_RIGHTS = '无权进行此操作，权限不足';
const NOT_FOUND = '日志不存在';
const HOUR = 3600;

await forEachDatabase('logs', (kind) => {
  const fx = logsFixture(kind);
  const { ids, T, db, data, list, names } = fx;
  let tg: TestGateway;
  let root: ApiClient;
  let admin: ApiClient;
  let alice: ApiClient;
  let bob: ApiClient;
  let aliceId: number;
  let bobId: number;
  let chA: number;
  let chB: number;
  beforeAll(() => {
    ({ tg, root, admin, alice, bob, aliceId, bobId, chA, chB } = fx);
  });

  describe('stat', () => {
    it('sums consume quota under the filters; rpm and tpm over the last minute', async () => {
      // Consume rows: r1 100, r2 200, r4 400, r6 50, r7 60, r8 1000. Last minute: r6 (7+3), r7 (11+4).
      expect(await data<LogStat>(admin, '/api/log/stat')).toEqual({ quota: 1810, rpm: 2, tpm: 25 });
      expect(await data<LogStat>(admin, '/api/log/new/stat?type=5')).toEqual({ quota: 1810, rpm: 2, tpm: 25 });
      expect(await data<LogStat>(admin, '/api/log/stat?username=alice')).toEqual({ quota: 1350, rpm: 1, tpm: 10 });
      expect(await data<LogStat>(admin, '/api/log/stat?model_name=gpt-4o-mini')).toEqual({ quota: 260, rpm: 1, tpm: 15 });
      expect(await data<LogStat>(admin, `/api/log/stat?channel=${chB}`)).toEqual({ quota: 660, rpm: 1, tpm: 15 });
      expect(await data<LogStat>(admin, '/api/log/stat?group=vip')).toEqual({ quota: 460, rpm: 1, tpm: 15 });
      expect(await data<LogStat>(admin, `/api/log/stat?start_timestamp=${T}&end_timestamp=${T + 25}`)).toEqual({
        quota: 300,
        rpm: 2,
        tpm: 25,
      });
      expect(await data<LogStat>(admin, '/api/log/stat?username=nobody')).toEqual({ quota: 0, rpm: 0, tpm: 0 });
    });

    it('answers a user their own numbers only', async () => {
      expect(await data<LogStat>(alice, '/api/log/self/stat')).toEqual({ quota: 1350, rpm: 1, tpm: 10 });
      expect(await data<LogStat>(alice, '/api/log/self/stat?username=bob')).toEqual({ quota: 1350, rpm: 1, tpm: 10 });
      expect(await data<LogStat>(bob, '/api/log/self/stat')).toEqual({ quota: 460, rpm: 1, tpm: 15 });
      expect(await data<LogStat>(alice, '/api/log/self/stat?model_name=gpt-4o')).toEqual({ quota: 150, rpm: 1, tpm: 10 });
    });
  });

  describe('extend', () => {
    it("lets a user read their own row's prompt and completion", async () => {
      expect(await data(alice, `/api/log/extend/${ids.r1}`)).toEqual({ prompt: 'hello from alice', completion: 'hi alice' });
      expect(await data(bob, `/api/log/extend/${ids.r4}`)).toEqual({ prompt: 'hello from bob', completion: 'hi bob' });
    });

    it('answers empty strings for a row without extend', async () => {
      expect(await data(alice, `/api/log/extend/${ids.r2}`)).toEqual({ prompt: '', completion: '' });
    });

    it("refuses someone else's row like a missing one; admins read any", async () => {
      const foreign = await bob.get(`/api/log/extend/${ids.r1}`);
      expect(foreign.body).toMatchObject({ success: false, message: NOT_FOUND });
      const missing = await bob.get('/api/log/extend/99999999');
      expect(missing.body).toMatchObject({ success: false, message: NOT_FOUND });
      expect(await data(admin, `/api/log/extend/${ids.r1}`)).toEqual({ prompt: 'hello from alice', completion: 'hi alice' });
    });
  });

  describe('channel statistics and dashboard data', () => {
    const H = Math.floor(nowSeconds() / HOUR) * HOUR - 48 * HOUR;
    beforeAll(async () => {
      const rows: HourlyRow[] = [
        {
          user_id: aliceId,
          username: 'alice',
          model_name: 'gpt-4o',
          channel_id: chA,
          created_at: H,
          token_used: 100,
          count: 2,
          quota: 1000,
        },
        {
          user_id: bobId,
          username: 'bob',
          model_name: 'gpt-4o',
          channel_id: chA,
          created_at: H,
          token_used: 50,
          count: 1,
          quota: 500,
        },
        {
          user_id: aliceId,
          username: 'alice',
          model_name: 'gpt-4o-mini',
          channel_id: chA,
          created_at: H + HOUR,
          token_used: 30,
          count: 3,
          quota: 90,
        },
        {
          user_id: bobId,
          username: 'bob',
          model_name: 'gpt-4o-mini',
          channel_id: chB,
          created_at: H + HOUR,
          token_used: 400,
          count: 4,
          quota: 4000,
        },
        {
          user_id: aliceId,
          username: 'alice',
          model_name: 'gpt-4o',
          channel_id: chA,
          created_at: H - 24 * HOUR,
          token_used: 7,
          count: 7,
          quota: 7,
        },
      ];
      await writeHourlyTotals(tg.gateway.ctx, rows);
    });

    const use = (q: string) => data<ChannelUseRow[]>(admin, `/api/data/channelUseData?${q}`);

    it('sums per channel and model, highest spend first', async () => {
      expect(await use(`start_timestamp=${H}&end_timestamp=${H + 2 * HOUR}`)).toEqual([
        {
          channel_id: chB,
          model_name: 'gpt-4o-mini',
          token_used: 400,
          count: 4,
          quota: 4000,
          prompt_tokens: 0,
          cached_tokens: 0,
          cache_hit_rate: null,
        },
        {
          channel_id: chA,
          model_name: 'gpt-4o',
          token_used: 150,
          count: 3,
          quota: 1500,
          prompt_tokens: 0,
          cached_tokens: 0,
          cache_hit_rate: null,
        },
        {
          channel_id: chA,
          model_name: 'gpt-4o-mini',
          token_used: 30,
          count: 3,
          quota: 90,
          prompt_tokens: 0,
          cached_tokens: 0,
          cache_hit_rate: null,
        },
      ]);
    });

    it('merges models per channel', async () => {
      expect(await use(`start_timestamp=${H}&end_timestamp=${H + 2 * HOUR}&merge=true`)).toEqual([
        {
          channel_id: chB,
          model_name: '',
          token_used: 400,
          count: 4,
          quota: 4000,
          prompt_tokens: 0,
          cached_tokens: 0,
          cache_hit_rate: null,
        },
        {
          channel_id: chA,
          model_name: '',
          token_used: 180,
          count: 6,
          quota: 1590,
          prompt_tokens: 0,
          cached_tokens: 0,
          cache_hit_rate: null,
        },
      ]);
      expect(await use(`merge=true`)).toEqual([
        {
          channel_id: chB,
          model_name: '',
          token_used: 400,
          count: 4,
          quota: 4000,
          prompt_tokens: 0,
          cached_tokens: 0,
          cache_hit_rate: null,
        },
        {
          channel_id: chA,
          model_name: '',
          token_used: 187,
          count: 13,
          quota: 1597,
          prompt_tokens: 0,
          cached_tokens: 0,
          cache_hit_rate: null,
        },
      ]);
    });

    it('filters by model, channel and range (hours overlapping it)', async () => {
      expect(await use(`model_name=gpt-4o&start_timestamp=${H}`)).toEqual([
        {
          channel_id: chA,
          model_name: 'gpt-4o',
          token_used: 150,
          count: 3,
          quota: 1500,
          prompt_tokens: 0,
          cached_tokens: 0,
          cache_hit_rate: null,
        },
      ]);
      expect(await use(`channel_id=${chA}&merge=true&start_timestamp=${H}`)).toEqual([
        {
          channel_id: chA,
          model_name: '',
          token_used: 180,
          count: 6,
          quota: 1590,
          prompt_tokens: 0,
          cached_tokens: 0,
          cache_hit_rate: null,
        },
      ]);
      // A start inside hour H still counts hour H; an end before H + 1h leaves that hour out.
      expect(await use(`start_timestamp=${H + 1800}&end_timestamp=${H + HOUR - 1}&merge=true`)).toEqual([
        {
          channel_id: chA,
          model_name: '',
          token_used: 150,
          count: 3,
          quota: 1500,
          prompt_tokens: 0,
          cached_tokens: 0,
          cache_hit_rate: null,
        },
      ]);
      expect(await use(`start_timestamp=${H + HOUR}&end_timestamp=${H + HOUR}`)).toEqual([
        {
          channel_id: chB,
          model_name: 'gpt-4o-mini',
          token_used: 400,
          count: 4,
          quota: 4000,
          prompt_tokens: 0,
          cached_tokens: 0,
          cache_hit_rate: null,
        },
        {
          channel_id: chA,
          model_name: 'gpt-4o-mini',
          token_used: 30,
          count: 3,
          quota: 90,
          prompt_tokens: 0,
          cached_tokens: 0,
          cache_hit_rate: null,
        },
      ]);
      expect(await use(`end_timestamp=${H - 1}`)).toEqual([
        {
          channel_id: chA,
          model_name: 'gpt-4o',
          token_used: 7,
          count: 7,
          quota: 7,
          prompt_tokens: 0,
          cached_tokens: 0,
          cache_hit_rate: null,
        },
      ]);
      expect(await use('model_name=none')).toEqual([]);
    });

    it('answers the dashboard hourly rows: all users or one for admins, own for users', async () => {
      const range = `start_timestamp=${H}&end_timestamp=${H + 2 * HOUR}`;
      expect(await data<QuotaDataRow[]>(admin, `/api/data/?${range}`)).toEqual([
        { model_name: 'gpt-4o', created_at: H, token_used: 150, count: 3, quota: 1500 },
        { model_name: 'gpt-4o-mini', created_at: H + HOUR, token_used: 430, count: 7, quota: 4090 },
      ]);
      expect(await data<QuotaDataRow[]>(admin, `/api/data/?${range}&username=bob`)).toEqual([
        { model_name: 'gpt-4o', created_at: H, token_used: 50, count: 1, quota: 500 },
        { model_name: 'gpt-4o-mini', created_at: H + HOUR, token_used: 400, count: 4, quota: 4000 },
      ]);
      expect(await data<QuotaDataRow[]>(admin, `/api/data/?${range}&username=nobody`)).toEqual([]);
      expect(await data<QuotaDataRow[]>(alice, `/api/data/self?${range}&username=bob`)).toEqual([
        { model_name: 'gpt-4o', created_at: H, token_used: 100, count: 2, quota: 1000 },
        { model_name: 'gpt-4o-mini', created_at: H + HOUR, token_used: 30, count: 3, quota: 90 },
      ]);
      // Without a range: the 7 days up to now, which hold all three of Alice's hours.
      expect(await data<QuotaDataRow[]>(alice, '/api/data/self')).toHaveLength(3);
    });

    // Last in this block: it adds hours 40 days back, outside every range asked above.
    it('keeps every roll-up equal to the sum of quota_data it stands for, across flushes', async () => {
      const old = H - 40 * 24 * HOUR;
      const more: HourlyRow[] = [
        {
          user_id: aliceId,
          username: 'alice',
          model_name: 'm1',
          channel_id: chA,
          created_at: old,
          token_used: 3,
          count: 1,
          quota: 30,
        },
        {
          user_id: bobId,
          username: 'bob',
          model_name: 'm1',
          channel_id: chB,
          created_at: old,
          token_used: 5,
          count: 2,
          quota: 50,
        },
        {
          user_id: bobId,
          username: 'bob',
          model_name: 'm2',
          channel_id: chA,
          created_at: old + HOUR,
          token_used: 7,
          count: 1,
          quota: 70,
        },
      ];
      // The second flush adds to the same keys: each table's upsert path.
      await writeHourlyTotals(tg.gateway.ctx, more);
      await writeHourlyTotals(tg.gateway.ctx, more);
      const sums = ['token_used', 'count', 'quota'] as const;
      // Drivers answer bigints and sums as strings on some databases: numbers but for the names,
      // in one order (keys first, so no two rows tie).
      const plain = (rows: ReadonlyArray<Record<string, unknown>>) =>
        rows
          .map((r) =>
            Object.fromEntries(Object.entries(r).map(([k, v]) => [k, k === 'model_name' || k === 'username' ? v : Number(v)])),
          )
          .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
      const grouped = async (keys: Array<'created_at' | 'model_name' | 'channel_id' | 'username'>) =>
        plain(
          await db()
            .selectFrom('quota_data')
            .select((eb) => [...keys, ...sums.map((c) => eb.fn.sum<number | string>(c).as(c))])
            .groupBy(keys)
            .execute(),
        );
      const table = async (name: 'quota_data_models' | 'quota_data_model_hours' | 'quota_data_users', keys: string[]) =>
        plain(
          await db()
            .selectFrom(name)
            .select([...keys, ...sums] as never[])
            .execute(),
        );
      const models = await table('quota_data_models', ['created_at', 'model_name', 'channel_id']);
      expect(models).toEqual(await grouped(['created_at', 'model_name', 'channel_id']));
      const hours = await table('quota_data_model_hours', ['created_at', 'model_name']);
      expect(hours).toEqual(await grouped(['created_at', 'model_name']));
      expect(hours).toContainEqual({ created_at: old, model_name: 'm1', token_used: 16, count: 6, quota: 160 });
      expect(await table('quota_data_users', ['created_at', 'username'])).toEqual(await grouped(['created_at', 'username']));
    });
  });

  describe('permissions', () => {
    it('refuses users on admin endpoints', async () => {
      for (const path of [
        '/api/log/',
        '/api/log/new/',
        '/api/log/stat',
        '/api/log/new/stat',
        '/api/data/channelUseData',
        '/api/data/',
      ]) {
        const res = await alice.get(path);
        expect(res.body, path).toMatchObject({ success: false, message: NO_RIGHTS });
      }
    });

    it('refuses anonymous callers with 401', async () => {
      const anonymous = tg.client();
      for (const path of ['/api/log/self/', '/api/log/self/stat', `/api/log/extend/${ids.r1}`, '/api/data/self']) {
        expect((await anonymous.get(path)).status, path).toBe(401);
      }
    });

    it('leaves log cleanup to root', async () => {
      for (const client of [admin, alice]) {
        const res = await client.delete(`/api/log/?target_timestamp=${nowSeconds()}`);
        expect(res.body).toMatchObject({ success: false, message: NO_RIGHTS });
      }
      expect(names(await list(admin, '/api/log/?page_size=20'))).toHaveLength(8);
    });
  });

  describe('cleanup', () => {
    it('needs a valid timestamp', async () => {
      for (const q of ['', '?target_timestamp=', '?target_timestamp=abc', '?target_timestamp=0']) {
        const res = await root.delete(`/api/log/${q}`);
        expect(res.body.success, q).toBe(false);
        expect(res.body.message, q).toMatch(/^参数错误/);
      }
      expect(names(await list(admin, '/api/log/?page_size=20'))).toHaveLength(8);
    });

    it('deletes the rows created before the timestamp and their extends, keeps the rest', async () => {
      const res = await root.delete(`/api/log/?target_timestamp=${T + 20}`);
      expect(res.body).toEqual({ success: true, message: '', data: 1 });
      expect(names(await list(admin, '/api/log/?page_size=20'))).toEqual(['r7', 'r6', 'r8', 'r5', 'r4', 'r3', 'r2']);
      const extendIds = (await db().selectFrom('log_extends').select('log_id').execute()).map((r) => r.log_id);
      expect(extendIds).toEqual([ids.r4]);
      expect((await admin.get(`/api/log/extend/${ids.r1}`)).body).toMatchObject({ success: false, message: NOT_FOUND });
      // Nothing older left: a second run deletes nothing.
      expect((await root.delete(`/api/log/?target_timestamp=${T + 20}`)).body.data).toBe(0);
    });

    it('works through many batches', async () => {
      const deleted = await deleteLogsBefore(db(), T + 41, { maxBatch: 2 });
      expect(deleted).toBe(4);
      expect(names(await list(admin, '/api/log/?page_size=20'))).toEqual(['r7', 'r6', 'r8']);
      expect(await db().selectFrom('log_extends').select('log_id').execute()).toEqual([]);
      const res = await root.delete(`/api/log?target_timestamp=${nowSeconds() + 10}`);
      expect(res.body.data).toBe(3);
      expect((await list(admin, '/api/log/')).total).toBe(0);
    });
  });
});
