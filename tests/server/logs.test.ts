import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Insertable } from 'kysely';
import { forEachDatabase } from '../helpers/databases.js';
import { setupRoot, startTestGateway, type ApiClient, type TestGateway } from '../helpers/gateway.js';
import { createUser } from '../../server/users/repository.js';
import { insertWithId } from '../../server/db/helpers.js';
import { nowSeconds } from '../../server/db/index.js';
import type { LogsTable, QuotaDataTable } from '../../server/db/types.js';
import { deleteLogsBefore, listLogs } from '../../server/logs/repository.js';
import { stripAdminInfo } from '../../server/logs/view.js';
import type { ChannelUseRow, LogItem, LogListPage, LogStat, QuotaDataRow } from '../../server/logs/schemas.js';

const PASSWORD = 'secret-pass-1';
const NO_RIGHTS = '无权进行此操作，权限不足';
const NOT_FOUND = '日志不存在';
const HOUR = 3600;

await forEachDatabase('logs', (kind) => {
  let tg: TestGateway;
  let root: ApiClient;
  let admin: ApiClient;
  let alice: ApiClient;
  let bob: ApiClient;
  let aliceId: number;
  let bobId: number;
  let chA: number;
  let chB: number;
  const aliceKey = 'A'.repeat(44) + 'key1';
  let aliceTokenId: number;
  /** Row ids by name (r1 … r8, see beforeAll). */
  const ids: Record<string, number> = {};
  /** A day-old base time, so the recent rows (rpm / tpm) stand apart. */
  const T = nowSeconds() - 100_000;
  let now: number;

  const db = () => tg.gateway.ctx.db;

  async function login(username: string): Promise<ApiClient> {
    const client = tg.client();
    const res = await client.login(username, PASSWORD);
    expect(res.body.success, res.body.message).toBe(true);
    return client;
  }

  async function insertLog(name: string, row: Insertable<LogsTable>): Promise<void> {
    ids[name] = await insertWithId(db(), tg.gateway.ctx.dbKind, 'logs', row);
  }

  async function data<T>(client: ApiClient, path: string): Promise<T> {
    const res = await client.get(path);
    expect(res.status).toBe(200);
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ success: true });
    return res.body.data as T;
  }

  const list = (client: ApiClient, path: string) => data<LogListPage>(client, path);
  const names = (page: LogListPage) => page.items.map((i) => Object.entries(ids).find(([, id]) => id === i.id)?.[0]);

  beforeAll(async () => {
    tg = await startTestGateway(kind);
    root = await setupRoot(tg);
    const { db: database, dbKind } = tg.gateway.ctx;
    aliceId = await createUser(database, dbKind, { username: 'alice', password: PASSWORD });
    bobId = await createUser(database, dbKind, { username: 'bob', password: PASSWORD, group: 'vip' });
    await createUser(database, dbKind, { username: 'boss', password: PASSWORD, role: 10 });
    alice = await login('alice');
    bob = await login('bob');
    admin = await login('boss');

    chA = await insertWithId(database, dbKind, 'channels', { name: 'channel-a', key: 'k-a', models: 'gpt-4o' });
    chB = await insertWithId(database, dbKind, 'channels', { name: 'channel-b', key: 'k-b', models: 'gpt-4o-mini' });
    await tg.gateway.ctx.channels.reload();
    aliceTokenId = await insertWithId(database, dbKind, 'tokens', { user_id: aliceId, key: aliceKey, name: 'alpha' });

    const adminOther = (ch: number) => JSON.stringify({ model_ratio: 1.25, frt: 300, admin_info: { use_channel: [ch] } });
    const common = { content: '模型倍率 1.25', ip: '10.0.0.1' };
    await insertLog('r1', {
      ...common,
      user_id: aliceId,
      username: 'alice',
      created_at: T + 10,
      type: 2,
      token_name: 'alpha',
      token_id: aliceTokenId,
      model_name: 'gpt-4o',
      channel_id: chA,
      group: 'default',
      quota: 100,
      prompt_tokens: 10,
      completion_tokens: 5,
      use_time: 3,
      is_stream: 1,
      other: adminOther(chA),
    });
    await insertLog('r2', {
      ...common,
      user_id: aliceId,
      username: 'alice',
      created_at: T + 20,
      type: 2,
      token_name: 'alpha',
      token_id: aliceTokenId,
      model_name: 'gpt-4o-mini',
      channel_id: chB,
      group: 'default',
      quota: 200,
      prompt_tokens: 20,
      completion_tokens: 10,
      other: adminOther(chB),
    });
    // Same second as r2: the larger id comes first.
    await insertLog('r3', {
      user_id: aliceId,
      username: 'alice',
      created_at: T + 20,
      type: 5,
      content: 'upstream error',
      token_name: 'beta',
      model_name: 'gpt-4o',
      channel_id: chA,
      group: 'default',
      other: 'not json {"admin_info":',
    });
    // Bob's token carries the same name as Alice's.
    await insertLog('r4', {
      ...common,
      user_id: bobId,
      username: 'bob',
      created_at: T + 30,
      type: 2,
      token_name: 'alpha',
      model_name: 'gpt-4o',
      channel_id: chB,
      group: 'vip',
      quota: 400,
      prompt_tokens: 40,
      completion_tokens: 20,
      other: adminOther(chB),
    });
    await insertLog('r5', {
      user_id: bobId,
      username: 'bob',
      created_at: T + 40,
      type: 1,
      content: '充值 10 美元',
      quota: 5_000_000,
    });

    now = nowSeconds();
    await insertLog('r8', {
      ...common,
      user_id: aliceId,
      username: 'alice',
      created_at: now - 200,
      type: 2,
      token_name: 'alpha',
      token_id: aliceTokenId,
      model_name: 'claude-3-haiku',
      channel_id: chA,
      quota: 1000,
      prompt_tokens: 1,
      completion_tokens: 1,
      other: JSON.stringify({ admin_info: { use_channel: [chA] } }),
    });
    // The two recent rows go through the relay's batch writer.
    const usage = tg.gateway.ctx.usage;
    usage.log({
      ...common,
      user_id: aliceId,
      username: 'alice',
      created_at: now - 10,
      type: 2,
      token_name: 'alpha',
      token_id: aliceTokenId,
      model_name: 'gpt-4o',
      channel_id: chA,
      group: 'default',
      quota: 50,
      prompt_tokens: 7,
      completion_tokens: 3,
      other: adminOther(chA),
    });
    usage.log({
      ...common,
      user_id: bobId,
      username: 'bob',
      created_at: now - 5,
      type: 2,
      token_name: 'alpha',
      model_name: 'gpt-4o-mini',
      channel_id: chB,
      group: 'vip',
      quota: 60,
      prompt_tokens: 11,
      completion_tokens: 4,
      other: adminOther(chB),
    });
    await usage.flush();
    for (const [name, at] of [
      ['r6', now - 10],
      ['r7', now - 5],
    ] as const) {
      const row = await db().selectFrom('logs').select('id').where('created_at', '=', at).executeTakeFirstOrThrow();
      ids[name] = row.id;
    }
    await db()
      .insertInto('log_extends')
      .values([
        { log_id: ids.r1!, prompt: 'hello from alice', completion: 'hi alice' },
        { log_id: ids.r4!, prompt: 'hello from bob', completion: 'hi bob' },
      ])
      .execute();
  });
  afterAll(async () => tg?.close());

  describe('list', () => {
    it('answers every row newest first (created_at, then id) to an admin', async () => {
      const page = await list(admin, '/api/log/?p=1&page_size=20');
      expect(names(page)).toEqual(['r7', 'r6', 'r8', 'r5', 'r4', 'r3', 'r2', 'r1']);
      expect(page).toMatchObject({ total: 8, page: 1, page_size: 20, total_capped: false });
      // The "new" path and the path without slash are the same list.
      expect(await list(admin, '/api/log/new/?page_size=20')).toEqual(page);
      expect(await list(root, '/api/log?page_size=20')).toEqual(page);
    });

    it('pages with p and page_size (default 10)', async () => {
      const second = await list(admin, '/api/log/?p=2&page_size=3');
      expect(names(second)).toEqual(['r5', 'r4', 'r3']);
      expect(second).toMatchObject({ total: 8, page: 2, page_size: 3 });
      const last = await list(admin, '/api/log/?p=3&page_size=3');
      expect(names(last)).toEqual(['r2', 'r1']);
      expect(last.total).toBe(8);
      const beyond = await list(admin, '/api/log/?p=4&page_size=3');
      expect(names(beyond)).toEqual([]);
      expect(beyond.total).toBe(8);
      expect(await list(admin, '/api/log/')).toMatchObject({ page: 1, page_size: 10, total: 8 });
    });

    it('shows an admin the whole row: channel id and name, admin_info', async () => {
      const page = await list(admin, '/api/log/?page_size=20');
      const r1 = page.items.find((i) => i.id === ids.r1) as LogItem;
      expect(r1).toEqual({
        id: ids.r1,
        created_at: T + 10,
        type: 2,
        content: '模型倍率 1.25',
        username: 'alice',
        user_id: aliceId,
        token_name: 'alpha',
        token_id: aliceTokenId,
        model_name: 'gpt-4o',
        quota: 100,
        prompt_tokens: 10,
        completion_tokens: 5,
        use_time: 3,
        is_stream: true,
        channel: chA,
        channel_name: 'channel-a',
        group: 'default',
        other: JSON.stringify({ model_ratio: 1.25, frt: 300, admin_info: { use_channel: [chA] } }),
      });
      const r3 = page.items.find((i) => i.id === ids.r3) as LogItem;
      expect(r3.other).toBe('not json {"admin_info":');
      const r5 = page.items.find((i) => i.id === ids.r5) as LogItem;
      expect(r5).toMatchObject({ channel: 0, channel_name: '', other: '', is_stream: false, quota: 5_000_000 });
    });

    it.each([
      ['type=2', ['r7', 'r6', 'r8', 'r4', 'r2', 'r1']],
      ['type=5', ['r3']],
      ['type=0', ['r7', 'r6', 'r8', 'r5', 'r4', 'r3', 'r2', 'r1']],
      ['username=bob', ['r7', 'r5', 'r4']],
      ['username=bo', []],
      ['username=', ['r7', 'r6', 'r8', 'r5', 'r4', 'r3', 'r2', 'r1']],
      ['token_name=alpha', ['r7', 'r6', 'r8', 'r4', 'r2', 'r1']],
      ['token_name=alp', []],
      ['model_name=gpt-4o', ['r6', 'r4', 'r3', 'r1']],
      ['model_name=gpt-4o%25', []],
      ['group=vip', ['r7', 'r4']],
      ['start_timestamp=T20', ['r7', 'r6', 'r8', 'r5', 'r4', 'r3', 'r2']],
      ['start_timestamp=T20&end_timestamp=T30', ['r4', 'r3', 'r2']],
      ['end_timestamp=T20', ['r3', 'r2', 'r1']],
      ['type=2&username=alice&model_name=gpt-4o&token_name=alpha', ['r6', 'r1']],
      ['type=2&username=alice&start_timestamp=T0&end_timestamp=T100', ['r2', 'r1']],
      ['key=sk-KEY', ['r6', 'r8', 'r2', 'r1']],
      ['key=KEY', ['r6', 'r8', 'r2', 'r1']],
      ['key=sk-nosuchkey', []],
    ])('filters the admin list: %s', async (query, expected) => {
      const q = query.replace('KEY', aliceKey).replace(/T(\d+)/g, (_, n: string) => String(T + Number(n)));
      const page = await list(admin, `/api/log/?page_size=20&${q}`);
      expect(names(page)).toEqual(expected);
      expect(page.total).toBe(expected.length);
    });

    it('filters by channel for admins', async () => {
      expect(names(await list(admin, `/api/log/?page_size=20&channel=${chB}`))).toEqual(['r7', 'r4', 'r2']);
      expect(names(await list(admin, '/api/log/?page_size=20&channel=0'))).toHaveLength(8);
    });

    it('refuses bad filter values with a message', async () => {
      for (const q of ['type=9', 'page_size=1000', 'start_timestamp=abc', 'p=0']) {
        const res = await admin.get(`/api/log/?${q}`);
        expect(res.body.success, q).toBe(false);
        expect(res.body.message, q).toMatch(/^参数错误/);
      }
    });

    it('caps the count at a window past the page and says so', async () => {
      const { db: database, dbKind } = tg.gateway.ctx;
      const small = await listLogs(database, dbKind, {}, 2, 0, 3);
      expect(small).toMatchObject({ total: 5, capped: true });
      expect(small.rows.map((r) => r.id)).toEqual([ids.r7, ids.r6]);
      // The window counts from the end of the requested page.
      expect(await listLogs(database, dbKind, {}, 2, 2, 3)).toMatchObject({ total: 7, capped: true });
      expect(await listLogs(database, dbKind, {}, 2, 2, 4)).toMatchObject({ total: 8, capped: false });
      expect(await listLogs(database, dbKind, {}, 2, 4, 2)).toMatchObject({ total: 8, capped: false });
    });
  });

  describe('self list', () => {
    it("answers only the caller's rows, ignoring username and channel", async () => {
      const own = await list(alice, '/api/log/self/?page_size=20');
      expect(names(own)).toEqual(['r6', 'r8', 'r3', 'r2', 'r1']);
      expect(own.total).toBe(5);
      expect(names(await list(alice, '/api/log/self?page_size=20&username=bob'))).toEqual(['r6', 'r8', 'r3', 'r2', 'r1']);
      expect(names(await list(alice, `/api/log/self/?page_size=20&channel=${chB}`))).toEqual(['r6', 'r8', 'r3', 'r2', 'r1']);
      expect(names(await list(bob, '/api/log/self/?page_size=20'))).toEqual(['r7', 'r5', 'r4']);
    });

    it('applies the other filters', async () => {
      expect(names(await list(alice, '/api/log/self/?type=2&model_name=gpt-4o'))).toEqual(['r6', 'r1']);
      expect(names(await list(bob, '/api/log/self/?token_name=alpha'))).toEqual(['r7', 'r4']);
      expect(names(await list(alice, `/api/log/self/?start_timestamp=${T + 20}&end_timestamp=${T + 20}`))).toEqual(['r3', 'r2']);
      expect(names(await list(alice, `/api/log/self/?key=sk-${aliceKey}`))).toEqual(['r6', 'r8', 'r2', 'r1']);
      // Someone else's key matches nothing, even for its owner's rows.
      expect(names(await list(bob, `/api/log/self/?key=sk-${aliceKey}`))).toEqual([]);
    });

    it('hides the channel and admin_info from users, tolerating bad JSON', async () => {
      const own = await list(alice, '/api/log/self/?page_size=20');
      for (const item of own.items) {
        expect(item.channel).toBe(0);
        expect(item.channel_name).toBe('');
        expect(item.other).not.toContain('admin_info');
      }
      const r1 = own.items.find((i) => i.id === ids.r1) as LogItem;
      expect(JSON.parse(r1.other)).toEqual({ model_ratio: 1.25, frt: 300 });
      expect(r1).toMatchObject({ quota: 100, token_name: 'alpha', model_name: 'gpt-4o', username: 'alice' });
      const r3 = own.items.find((i) => i.id === ids.r3) as LogItem;
      expect(r3.other).toBe('');
      const r8 = own.items.find((i) => i.id === ids.r8) as LogItem;
      expect(JSON.parse(r8.other)).toEqual({});
    });

    it('shows an admin their own rows in full on /self', async () => {
      const adminId = admin.userId as number;
      await insertLog('adminRow', {
        user_id: adminId,
        username: 'boss',
        created_at: T + 1,
        type: 2,
        channel_id: chA,
        other: JSON.stringify({ admin_info: { use_channel: [chA] } }),
      });
      try {
        const own = await list(admin, '/api/log/self/');
        expect(own.items).toHaveLength(1);
        expect(own.items[0]).toMatchObject({ channel: chA, channel_name: 'channel-a' });
        expect(own.items[0]?.other).toContain('admin_info');
      } finally {
        await db().deleteFrom('logs').where('id', '=', ids.adminRow!).execute();
        delete ids.adminRow;
      }
    });
  });

  describe('stripAdminInfo', () => {
    it('removes admin_info and keeps everything else', () => {
      expect(stripAdminInfo('{"a":1,"admin_info":{"use_channel":[3]},"b":"x"}')).toBe('{"a":1,"b":"x"}');
      expect(stripAdminInfo('{"a":1}')).toBe('{"a":1}');
      expect(stripAdminInfo(null)).toBe('');
      expect(stripAdminInfo('')).toBe('');
      expect(stripAdminInfo('{broken')).toBe('');
      expect(stripAdminInfo('[1,2]')).toBe('');
      expect(stripAdminInfo('"admin_info"')).toBe('');
    });
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
      expect(foreign.body).toEqual({ success: false, message: NOT_FOUND });
      const missing = await bob.get('/api/log/extend/99999999');
      expect(missing.body).toEqual({ success: false, message: NOT_FOUND });
      expect(await data(admin, `/api/log/extend/${ids.r1}`)).toEqual({ prompt: 'hello from alice', completion: 'hi alice' });
    });
  });

  describe('channel statistics and dashboard data', () => {
    const H = Math.floor(nowSeconds() / HOUR) * HOUR - 48 * HOUR;
    beforeAll(async () => {
      const rows: Insertable<QuotaDataTable>[] = [
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
      await db().insertInto('quota_data').values(rows).execute();
    });

    const use = (q: string) => data<ChannelUseRow[]>(admin, `/api/data/channelUseData?${q}`);

    it('sums per channel and model, highest spend first', async () => {
      expect(await use(`start_timestamp=${H}&end_timestamp=${H + 2 * HOUR}`)).toEqual([
        { channel_id: chB, model_name: 'gpt-4o-mini', token_used: 400, count: 4, quota: 4000 },
        { channel_id: chA, model_name: 'gpt-4o', token_used: 150, count: 3, quota: 1500 },
        { channel_id: chA, model_name: 'gpt-4o-mini', token_used: 30, count: 3, quota: 90 },
      ]);
    });

    it('merges models per channel', async () => {
      expect(await use(`start_timestamp=${H}&end_timestamp=${H + 2 * HOUR}&merge=true`)).toEqual([
        { channel_id: chB, model_name: '', token_used: 400, count: 4, quota: 4000 },
        { channel_id: chA, model_name: '', token_used: 180, count: 6, quota: 1590 },
      ]);
      expect(await use(`merge=true`)).toEqual([
        { channel_id: chB, model_name: '', token_used: 400, count: 4, quota: 4000 },
        { channel_id: chA, model_name: '', token_used: 187, count: 13, quota: 1597 },
      ]);
    });

    it('filters by model, channel and range (hours overlapping it)', async () => {
      expect(await use(`model_name=gpt-4o&start_timestamp=${H}`)).toEqual([
        { channel_id: chA, model_name: 'gpt-4o', token_used: 150, count: 3, quota: 1500 },
      ]);
      expect(await use(`channel_id=${chA}&merge=true&start_timestamp=${H}`)).toEqual([
        { channel_id: chA, model_name: '', token_used: 180, count: 6, quota: 1590 },
      ]);
      // A start inside hour H still counts hour H; an end before H + 1h leaves that hour out.
      expect(await use(`start_timestamp=${H + 1800}&end_timestamp=${H + HOUR - 1}&merge=true`)).toEqual([
        { channel_id: chA, model_name: '', token_used: 150, count: 3, quota: 1500 },
      ]);
      expect(await use(`start_timestamp=${H + HOUR}&end_timestamp=${H + HOUR}`)).toEqual([
        { channel_id: chB, model_name: 'gpt-4o-mini', token_used: 400, count: 4, quota: 4000 },
        { channel_id: chA, model_name: 'gpt-4o-mini', token_used: 30, count: 3, quota: 90 },
      ]);
      expect(await use(`end_timestamp=${H - 1}`)).toEqual([
        { channel_id: chA, model_name: 'gpt-4o', token_used: 7, count: 7, quota: 7 },
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
        expect(res.body, path).toEqual({ success: false, message: NO_RIGHTS });
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
        expect(res.body).toEqual({ success: false, message: NO_RIGHTS });
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
      expect((await admin.get(`/api/log/extend/${ids.r1}`)).body).toEqual({ success: false, message: NOT_FOUND });
      // Nothing older left: a second run deletes nothing.
      expect((await root.delete(`/api/log/?target_timestamp=${T + 20}`)).body.data).toBe(0);
    });

    it('works through many batches', async () => {
      const deleted = await deleteLogsBefore(db(), T + 41, 2);
      expect(deleted).toBe(4);
      expect(names(await list(admin, '/api/log/?page_size=20'))).toEqual(['r7', 'r6', 'r8']);
      expect(await db().selectFrom('log_extends').select('log_id').execute()).toEqual([]);
      const res = await root.delete(`/api/log?target_timestamp=${nowSeconds() + 10}`);
      expect(res.body.data).toBe(3);
      expect((await list(admin, '/api/log/')).total).toBe(0);
    });
  });
});
