/**
 * The same hostile input gets the same clean refusal on SQLite, PostgreSQL and MySQL: NUL bytes
 * (PostgreSQL refuses them in text), numbers past a bigint, text past its column (varchar) and past
 * 64 KiB (MySQL's TEXT) — in the fields any user reaches (token name, display name, redeem code,
 * searches) and the admins' (channels, redemption codes, models, vendors). Each answer is a
 * refusal with the expected code, never a 500, and no row changes.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { must, setupRoot, startTestGateway, type ApiClient, type TestGateway } from '../helpers/gateway.js';

const NUL = 'a\u0000b';
const HUGE = 'x'.repeat(70_000);
const INVALID = 'request.invalid_params';

interface Case {
  what: string;
  as: 'root' | 'user';
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  body?: Record<string, unknown>;
  code: string;
}

const channel = { type: 1, name: 'c', key: 'sk-1', base_url: 'https://example.com', models: 'm1', group: 'default' };
const CASES: Case[] = [
  { what: 'token name with NUL', as: 'user', method: 'POST', path: '/api/token/', body: { name: NUL }, code: INVALID },
  {
    what: 'token name past its column',
    as: 'user',
    method: 'POST',
    path: '/api/token/',
    body: { name: 'n'.repeat(65) },
    code: 'token.name_too_long',
  },
  {
    what: 'display name with NUL',
    as: 'user',
    method: 'PUT',
    path: '/api/user/self',
    body: { display_name: NUL },
    code: INVALID,
  },
  { what: 'redeem code with NUL', as: 'user', method: 'POST', path: '/api/user/topup', body: { key: NUL }, code: INVALID },
  {
    what: 'channel name with NUL',
    as: 'root',
    method: 'POST',
    path: '/api/channel/',
    body: { ...channel, name: NUL },
    code: INVALID,
  },
  {
    what: 'channel key with NUL',
    as: 'root',
    method: 'POST',
    path: '/api/channel/',
    body: { ...channel, key: `sk-${NUL}` },
    code: INVALID,
  },
  {
    what: 'channel key of 70,000 bytes',
    as: 'root',
    method: 'POST',
    path: '/api/channel/',
    body: { ...channel, key: HUGE },
    code: INVALID,
  },
  {
    what: 'channel model with NUL',
    as: 'root',
    method: 'POST',
    path: '/api/channel/',
    body: { ...channel, models: NUL },
    code: INVALID,
  },
  {
    what: 'channel model list past 64 KiB',
    as: 'root',
    method: 'POST',
    path: '/api/channel/',
    body: { ...channel, models: Array.from({ length: 600 }, (_, i) => `model-${i}-${'m'.repeat(120)}`) },
    code: 'channel.models_too_long',
  },
  {
    what: 'channel test model past its column',
    as: 'root',
    method: 'POST',
    path: '/api/channel/',
    body: { ...channel, test_model: 't'.repeat(256) },
    code: 'channel.test_model_too_long',
  },
  {
    what: 'channel organization past its column',
    as: 'root',
    method: 'POST',
    path: '/api/channel/',
    body: { ...channel, openai_organization: 'o'.repeat(256) },
    code: 'channel.organization_too_long',
  },
  {
    what: 'channel other with NUL',
    as: 'root',
    method: 'POST',
    path: '/api/channel/',
    body: { ...channel, other: NUL },
    code: INVALID,
  },
  {
    what: 'redemption name with NUL',
    as: 'root',
    method: 'POST',
    path: '/api/redemption/',
    body: { name: NUL, quota: 1, count: 1 },
    code: INVALID,
  },
  {
    what: 'redemption expiry past a bigint',
    as: 'root',
    method: 'POST',
    path: '/api/redemption/',
    body: { name: 'r', quota: 1, count: 1, expired_time: 1e20 },
    code: 'redemption.expiry_invalid',
  },
  {
    what: 'model description with NUL',
    as: 'root',
    method: 'POST',
    path: '/api/models/',
    body: { model_name: 'mm', description: NUL },
    code: INVALID,
  },
  { what: 'model name with NUL', as: 'root', method: 'POST', path: '/api/models/', body: { model_name: NUL }, code: INVALID },
  { what: 'vendor name with NUL', as: 'root', method: 'POST', path: '/api/vendors/', body: { name: NUL }, code: INVALID },
  {
    what: 'vendor description past 64 KiB',
    as: 'root',
    method: 'POST',
    path: '/api/vendors/',
    body: { name: 'v', description: HUGE },
    code: INVALID,
  },
  ...[
    '/api/token/search',
    '/api/redemption/search',
    '/api/channel/search',
    '/api/user/search',
    '/api/models/search',
    '/api/vendors/search',
  ].map((path): Case => ({
    what: `${path} with NUL`,
    as: path.startsWith('/api/token') ? 'user' : 'root',
    method: 'GET',
    path: `${path}?keyword=a%00b`,
    code: INVALID,
  })),
  { what: 'a NUL in a path parameter', as: 'root', method: 'GET', path: '/api/channel/tag/models?tag=a%00b', code: INVALID },
];

await forEachDatabase('hostile text', (kind) => {
  let tg: TestGateway;
  let root: ApiClient;
  let user: ApiClient;
  beforeAll(async () => {
    tg = await startTestGateway(kind);
    root = await setupRoot(tg);
    must(await root.post('/api/user/', { username: 'hostile', password: 'hostile-pass-1' }), 'user');
    user = tg.client();
    must(await user.login('hostile', 'hostile-pass-1'), 'login');
  });
  afterAll(async () => tg?.close());

  const snapshot = async () => {
    const db = tg.gateway.ctx.db;
    const tables = ['channels', 'abilities', 'tokens', 'users', 'redemptions', 'models', 'vendors'] as const;
    const rows = await Promise.all(tables.map((t) => db.selectFrom(t).selectAll().execute()));
    return JSON.stringify(rows.map((r) => r.map((row) => JSON.stringify(row)).sort()));
  };

  it('refuses each with the same code, changing nothing', async () => {
    const problems: string[] = [];
    for (const c of CASES) {
      const before = await snapshot();
      const client = c.as === 'root' ? root : user;
      const res =
        c.method === 'GET'
          ? await client.get(c.path)
          : c.method === 'POST'
            ? await client.post(c.path, c.body)
            : await client.put(c.path, c.body);
      if (res.status >= 500 || res.body?.success !== false || res.body.code !== c.code) {
        problems.push(`${c.what}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      } else if ((await snapshot()) !== before) problems.push(`${c.what}: refused but rows changed`);
    }
    expect(problems).toEqual([]);
  }, 120_000);

  it('refuses keys appended past 64 KiB, changing nothing', async () => {
    const { id } = must(await root.post('/api/channel/', { ...channel, key: 'a'.repeat(40_000) }), 'channel');
    const before = await snapshot();
    const res = await root.put('/api/channel/', { id, key: 'b'.repeat(30_000), key_mode: 'append' });
    expect(res.body).toMatchObject({ success: false, code: 'channel.key_too_long', params: { max: 65_535 } });
    expect(await snapshot()).toBe(before);
  });

  it('still accepts text at its column’s size', async () => {
    must(await user.post('/api/token/', { name: 'n'.repeat(30), remain_quota: 1, expired_time: -1 }), 'token');
    must(await root.post('/api/channel/', { ...channel, test_model: 't'.repeat(255), key: 'k'.repeat(60_000) }), 'channel');
    must(
      await root.post('/api/redemption/', { name: 'r', quota: 1, count: 1, expired_time: Number.MAX_SAFE_INTEGER }),
      'redemption',
    );
  });
});
