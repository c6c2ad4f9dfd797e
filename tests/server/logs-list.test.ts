/**
 * The log lists on the real gateway, on every database: /api/log/ for admins (order, paging, every
 * filter, the whole row, the capped count) and /api/log/self/ for users (own rows, no channel or
 * admin_info), over the rows of tests/helpers/logs-fixture.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import type { ApiClient, TestGateway } from '../helpers/gateway.js';
import { logsFixture } from '../helpers/logs-fixture.js';
import { CompiledQuery, type KyselyPlugin } from 'kysely';
import { listLogs, type LogFilter } from '../../server/logs/list-repository.js';
import { stripAdminInfo } from '../../server/logs/view.js';
import type { LogItem } from '../../server/logs/schemas.js';

await forEachDatabase('logs', (kind) => {
  const fx = logsFixture(kind);
  const { aliceKey, ids, T, db, insertLog, list, names } = fx;
  let tg: TestGateway;
  let root: ApiClient;
  let admin: ApiClient;
  let alice: ApiClient;
  let bob: ApiClient;
  let aliceId: number;
  let aliceTokenId: number;
  let chA: number;
  let chB: number;
  beforeAll(() => {
    ({ tg, root, admin, alice, bob, aliceId, aliceTokenId, chA, chB } = fx);
  });

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
      // The type and group indexes are sparse: the values they leave out are found without them.
      ['type=1', ['r5']],
      ['group=default', ['r6', 'r3', 'r2', 'r1']],
      ['group=vip&type=2', ['r7', 'r4']],
      ['group=default&type=5', ['r3']],
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

  it.runIf(kind === 'sqlite')('walks the sparse type and group indexes only for the values they hold', async () => {
    const { db: database, dbKind } = tg.gateway.ctx;
    /** SQLite's plan for the page query of `filter`. */
    const plan = async (filter: LogFilter) => {
      const seen: CompiledQuery[] = [];
      const capture: KyselyPlugin = {
        transformQuery: (args) => {
          if (seen.length === 0) seen.push(database.getExecutor().compileQuery(args.node, args.queryId));
          return args.node;
        },
        transformResult: (args) => Promise.resolve(args.result),
      };
      await listLogs(database.withPlugin(capture), dbKind, filter, 10, 0);
      const { sql: text, parameters } = seen[0]!;
      const rows = await database.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${text}`, [...parameters]),
      );
      return rows.rows.map((r) => r.detail).join('; ');
    };
    expect(await plan({ type: 5 })).toMatch(/logs_type_created/);
    expect(await plan({ type: 2 })).not.toMatch(/logs_type_created/);
    expect(await plan({ group: 'vip' })).toMatch(/logs_group_created/);
    expect(await plan({ group: 'default' })).not.toMatch(/logs_group_created/);
    // A more selective filter still drives when the type names one the index holds.
    expect(await plan({ type: 5, userId: aliceId })).toMatch(/logs_user_created/);
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
});
