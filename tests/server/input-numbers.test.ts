/**
 * Numbers at the edge of the console API: a value a column cannot hold ("1e999", 1e308, 2^64,
 * Infinity, NaN, negative where it means nothing) is refused before anything is written, with
 * `request.invalid_params` naming the field, and the lists holding those rows still load.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { setupRoot, startTestGateway, type ApiClient, type ApiResponse, type TestGateway } from '../helpers/gateway.js';
import { expectFail, expectOk, newKey } from '../helpers/channels.js';

/** What clients send for a number no column holds; the raw ones are spliced into the JSON text. */
const HUGE_STRINGS = ['1e999', '-1e999', 'Infinity', 'NaN', '1e308', '18446744073709551616'];
const HUGE_LITERALS = ['1e999', '-1e999', '1e308', '18446744073709551616', '2147483648'];

/** The console's refusal of a request it cannot read: the envelope (HTTP 200, as every /api answer) naming the field. */
function expectInvalid(res: ApiResponse, field: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toMatchObject({ success: false, code: 'request.invalid_params' });
  expect(res.body.message).toContain(field);
}

/** The JSON text of `body` with `field` set to a raw literal (1e999 is not expressible in JS). */
function withLiteral(body: Record<string, unknown>, field: string, literal: string): string {
  return JSON.stringify({ ...body, [field]: '__N__' }).replace('"__N__"', literal);
}

await forEachDatabase('numbers at the edge', (kind) => {
  let tg: TestGateway;
  let root: ApiClient;
  const db = () => tg.gateway.ctx.db;

  const channelBody = () => ({ name: 'c', type: 1, key: newKey(), models: ['gpt-4o'] });

  async function count(table: 'channels' | 'abilities' | 'tokens' | 'redemptions'): Promise<number> {
    const row = await db()
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async function channelListLoads(): Promise<void> {
    for (const path of ['/api/channel/?p=1&page_size=10', '/api/channel/?tag_mode=true', '/api/channel/search?keyword=c']) {
      const res = await root.get(path);
      expect(res.status, path).toBe(200);
      expect(res.body.success, path).toBe(true);
    }
  }

  beforeAll(async () => {
    tg = await startTestGateway(kind);
    root = await setupRoot(tg);
  });
  afterAll(async () => tg?.close());
  beforeEach(async () => {
    await db().deleteFrom('abilities').execute();
    await db().deleteFrom('channels').execute();
  });

  it('refuses a new channel whose numbers no column holds, writes nothing, and the list still loads', async () => {
    for (const field of ['max_input_tokens', 'type', 'status', 'auto_ban']) {
      for (const value of HUGE_STRINGS) {
        expectInvalid(await root.post('/api/channel/', { ...channelBody(), [field]: value }), field);
      }
      for (const literal of HUGE_LITERALS) {
        expectInvalid(await root.post('/api/channel/', withLiteral(channelBody(), field, literal)), field);
      }
    }
    expectInvalid(await root.post('/api/channel/', { ...channelBody(), max_input_tokens: -1 }), 'max_input_tokens');
    const batch = { ...channelBody(), mode: 'batch', key: `${newKey()}\n${newKey()}\n${newKey()}` };
    expectInvalid(await root.post('/api/channel/', { ...batch, max_input_tokens: '1e999' }), 'max_input_tokens');
    // Priority and weight take strings too, so their own refusals speak; still nothing is written.
    for (const weight of ['1e999', 2 ** 40, 'Infinity', '99999999999']) {
      expectFail(await root.post('/api/channel/', { ...channelBody(), weight }), '权重必须是非负整数！');
    }
    for (const priority of ['1e999', 1e308, 2 ** 64, 'NaN']) {
      expectFail(await root.post('/api/channel/', { ...channelBody(), priority }), '优先级必须是整数！');
    }
    expect(await count('channels')).toBe(0);
    expect(await count('abilities')).toBe(0);
    await channelListLoads();

    // The largest values the columns hold are accepted and read back as they were written.
    const created = expectOk(
      await root.post('/api/channel/', { ...channelBody(), max_input_tokens: 2147483647, weight: 2147483647, priority: 1e15 }),
    );
    expect(created).toMatchObject({ max_input_tokens: 2147483647, weight: 2147483647, priority: 1e15 });
    await channelListLoads();
  });

  it('leaves a channel as it was when an edit carries such a number (full, quick and tag edits)', async () => {
    const created = expectOk(await root.post('/api/channel/', { ...channelBody(), tag: 't', weight: 3, priority: 2 }));
    const before = await db().selectFrom('channels').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    const id = created.id as number;

    expectInvalid(await root.put('/api/channel/', { id, name: 'renamed', max_input_tokens: '1e999' }), 'max_input_tokens');
    expectInvalid(
      await root.put('/api/channel/', withLiteral({ id, name: 'renamed' }, 'max_input_tokens', '1e308')),
      'max_input_tokens',
    );
    expectInvalid(await root.put('/api/channel/', { id, status: '1e999' }), 'status');
    expectFail(await root.put('/api/channel/', { id, weight: 2 ** 40 }), '权重必须是非负整数！');
    expectFail(await root.put('/api/channel/', { id, priority: 'Infinity' }), '优先级必须是整数！');
    expectFail(await root.put('/api/channel/tag', { tag: 't', weight: '1e999', new_tag: 'u' }), '权重必须是非负整数！');
    expectFail(await root.put('/api/channel/tag', { tag: 't', priority: 1e308, new_tag: 'u' }), '优先级必须是整数！');
    expectInvalid(await root.post('/api/channel/batch/tag', { ids: ['1e999'], tag: 'u' }), 'ids');
    expectInvalid(await root.post('/api/channel/batch', withLiteral({}, 'ids', '[18446744073709551616]')), 'ids');

    const after = await db().selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(after).toEqual(before);
    await channelListLoads();
  });

  it('answers an id beyond the column with a refusal, not a database error', async () => {
    for (const path of ['/api/channel/3000000000', '/api/channel/1e999', '/api/user/18446744073709551616', '/api/token/1e308']) {
      expectInvalid(await root.get(path), 'id');
    }
    expectInvalid(await root.delete('/api/channel/3000000000'), 'id');
  });

  it('refuses such numbers in the other admin writes: user quota, codes, tokens, options', async () => {
    const user = expectOk(await root.post('/api/user/', { username: `q${kind}`, password: 'password-123' }));
    const found = await db()
      .selectFrom('users')
      .select(['id', 'quota'])
      .where('username', '=', `q${kind}`)
      .executeTakeFirstOrThrow();
    void user;
    const id = found.id;
    for (const quota of HUGE_STRINGS) {
      expectInvalid(await root.put('/api/user/', { id, username: `q${kind}`, quota }), 'quota');
    }
    expectInvalid(await root.put('/api/user/', withLiteral({ id, username: `q${kind}` }, 'quota', '1e999')), 'quota');
    expect((await db().selectFrom('users').select('quota').where('id', '=', id).executeTakeFirstOrThrow()).quota).toBe(
      found.quota,
    );
    // A bigint column: a quota beyond 32 bits is a real balance.
    expectOk(await root.put('/api/user/', { id, username: `q${kind}`, quota: 5_000_000_000 }));
    expect(Number((await db().selectFrom('users').select('quota').where('id', '=', id).executeTakeFirstOrThrow()).quota)).toBe(
      5_000_000_000,
    );
    expect((await root.get('/api/user/?p=1')).body.success).toBe(true);

    const redemptions = await count('redemptions');
    for (const [field, value] of [
      ['quota', '1e999'],
      ['count', '1e999'],
      ['quota', 'Infinity'],
    ] as const) {
      const res = await root.post('/api/redemption/', { name: 'r', quota: 10, count: 1, [field]: value });
      expectInvalid(res, field);
    }
    // A finite number out of range meets the route's own refusal.
    expectFail(
      await root.post('/api/redemption/', withLiteral({ name: 'r', quota: 10 }, 'count', '1e308')),
      '一次兑换码批量生成的个数不能大于 100',
    );
    expect(await count('redemptions')).toBe(redemptions);
    expect((await root.get('/api/redemption/?p=1')).body.success).toBe(true);

    const tokens = await count('tokens');
    expectInvalid(await root.post('/api/token/', { name: 't', remain_quota: '1e999' }), 'remain_quota');
    expectFail(await root.post('/api/token/', withLiteral({ name: 't' }, 'remain_quota', '1e308')), '令牌额度过大');
    expectInvalid(await root.post('/api/token/', { name: 't', expired_time: 'Infinity' }), 'expired_time');
    expect(await count('tokens')).toBe(tokens);
    expect((await root.get('/api/token/?p=1')).body.success).toBe(true);

    for (const value of ['99999999999999999999', '1e999', '1e3']) {
      const res = await root.put('/api/option/', { key: 'RetryTimes', value });
      expect(res.body.success, value).toBe(false);
    }
    const literal = await root.put('/api/option/', '{"key":"RetryTimes","value":1e999}');
    expect(literal.body.success).toBe(false);
    const options = (await root.get('/api/option/')).body.data as { key: string; value: string }[];
    expect(options.find((o) => o.key === 'RetryTimes')?.value).toBe('0');
  });
});
