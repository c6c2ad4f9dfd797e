/**
 * Seeded hostile bodies against every client format of the relay and the main console writes:
 * wrong types, huge and non-finite numbers, deep nesting, `__proto__` keys, invalid UTF-8, cut-off
 * and oversized bodies. Every answer is a success or a 4xx in the caller's error shape, the server
 * stays up, a refused console write changes no row, and the logs account for every quota the
 * balance lost. A failure prints its seed and body, so it can be replayed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { flushWrites } from '../helpers/gateway.js';
import { moneyOf } from '../helpers/money.js';
import { seeded as random } from '../helpers/seeded.js';
import { forEachDatabase } from '../helpers/databases.js';

type Rand = () => number;
const pick = <T>(next: Rand, list: readonly T[]): T => list[Math.floor(next() * list.length)]!;

/** Values that are wrong somewhere; RAW ones are spliced into the text as they are. */
const HOSTILE: unknown[] = [
  -1,
  0,
  1.5,
  1e308,
  -1e308,
  2 ** 64,
  '1e999',
  'Infinity',
  '-1',
  true,
  false,
  null,
  '',
  '\u0000\u001f',
  '<script>x</script>',
  [],
  {},
  [null],
  [1, 'a', null],
  { a: { b: { c: [] } } },
  'x'.repeat(70_000),
];
const RAW = [
  '1e999',
  '-1E400',
  '123456789012345678901234567890',
  '"\\ud800"',
  '{"__proto__":{"polluted":true}}',
  '['.repeat(300) + ']'.repeat(300),
  '{"a":'.repeat(200) + '1' + '}'.repeat(200),
];

function paths(value: unknown, prefix: Array<string | number> = [], out: Array<Array<string | number>> = []) {
  out.push(prefix);
  if (Array.isArray(value)) value.forEach((v, i) => paths(v, [...prefix, i], out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) paths(v, [...prefix, k], out);
  return out;
}

/** A mutated copy of `base` as request text (or bytes, for invalid UTF-8). */
function mutate(base: object, next: Rand): string | Buffer {
  const body = structuredClone(base) as Record<string, unknown>;
  const raws: string[] = [];
  const edits = 1 + Math.floor(next() * 3);
  for (let e = 0; e < edits; e++) {
    const path = pick(next, paths(body).slice(1));
    if (!path) break;
    const key = path.at(-1)!;
    let parent: any = body;
    for (const p of path.slice(0, -1)) parent = parent[p];
    if (parent === null || typeof parent !== 'object') continue;
    const kind = next();
    if (kind < 0.15 && !Array.isArray(parent)) delete parent[key];
    else if (kind < 0.3) {
      raws.push(pick(next, RAW));
      parent[key] = `@@RAW${raws.length - 1}@@`;
    } else if (kind < 0.4 && !Array.isArray(parent)) parent[`x_${e}`] = pick(next, HOSTILE);
    else parent[key] = structuredClone(pick(next, HOSTILE));
  }
  let text = JSON.stringify(body).replace(/"@@RAW(\d+)@@"/g, (_, i: string) => raws[Number(i)]!);
  const damage = next();
  if (damage < 0.05) text = text.slice(0, Math.floor(next() * text.length));
  else if (damage < 0.08) {
    const at = Math.floor(next() * text.length);
    return Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from([0xff, 0xc3, 0x28]), Buffer.from(text.slice(at))]);
  } else if (damage < 0.1) text = pick(next, ['', 'null', '[]', '"text"', '42', '{', 'nul']);
  return text;
}

type Shape = (status: number, body: any) => boolean;
const openaiShape: Shape = (_s, b) => typeof b?.error?.message === 'string' && typeof b.error.type === 'string';
const claudeShape: Shape = (_s, b) => b?.type === 'error' && typeof b.error?.type === 'string';
const geminiShape: Shape = (s, b) => b?.error?.code === s && typeof b.error.status === 'string';
const consoleShape: Shape = (_s, b) => b?.success === false && typeof b.message === 'string';

/** Sends one body as text (or bytes) and reads the answer, JSON when it is. */
async function sendTo(f: RelayFixture, path: string, body: string | Buffer, headers: Record<string, string>) {
  const res = await fetch(f.tg.url + path, {
    method: headers['x-method'] ?? 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* a stream or plain text */
  }
  return { status: res.status, body: parsed };
}

describe('seeded hostile bodies', () => {
  let f: RelayFixture;
  beforeAll(async () => {
    f = await startRelayFixture('sqlite');
  });
  afterAll(async () => f?.close());

  const send = (path: string, body: string | Buffer, headers: Record<string, string>) => sendTo(f, path, body, headers);

  it('answers 5,000 hostile relay bodies with a success or a 4xx in the format’s shape, and bills what it served', async () => {
    const before = await moneyOf(f, f.userId, f.tokenId);
    const key = { authorization: `Bearer ${f.key}` };
    const targets: Array<{ path: string; base: object; headers: Record<string, string>; shape: Shape }> = [
      {
        path: '/v1/chat/completions',
        base: {
          model: 'gpt-4o-mini',
          messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
          max_tokens: 5,
          tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
        },
        headers: key,
        shape: openaiShape,
      },
      {
        path: '/v1/embeddings',
        base: { model: 'text-embedding-3-small', input: ['hi', 'there'] },
        headers: key,
        shape: openaiShape,
      },
      {
        path: '/v1/responses',
        base: { model: 'gpt-4o-mini', input: [{ role: 'user', content: 'hi' }], max_output_tokens: 5 },
        headers: key,
        shape: openaiShape,
      },
      {
        path: '/v1/messages',
        base: {
          model: 'gpt-4o-mini',
          max_tokens: 5,
          system: [{ type: 'text', text: 's' }],
          messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
          tools: [{ name: 'f', input_schema: { type: 'object', properties: { a: { type: 'string' } } } }],
        },
        headers: { 'x-api-key': f.key, 'anthropic-version': '2023-06-01' },
        shape: claudeShape,
      },
      {
        path: '/v1beta/models/gpt-4o-mini:generateContent',
        base: {
          contents: [{ role: 'user', parts: [{ text: 'hi' }, { inlineData: { mimeType: 'image/png', data: 'AAAA' } }] }],
          generationConfig: { maxOutputTokens: 5 },
          tools: [{ functionDeclarations: [{ name: 'f', parameters: { type: 'object' } }] }],
        },
        headers: { 'x-goog-api-key': f.key },
        shape: geminiShape,
      },
    ];
    const failures: string[] = [];
    let served = 0;
    for (let seed = 1; seed <= 5000; seed++) {
      const next = random(seed);
      const target = targets[seed % targets.length]!;
      const body = mutate(target.base, next);
      const res = await send(target.path, body, target.headers);
      if (res.status === 200) served++;
      else if (res.status < 400 || res.status >= 500 || !target.shape(res.status, res.body)) {
        failures.push(
          `seed ${seed} ${target.path} → ${res.status} ${JSON.stringify(res.body).slice(0, 200)}\n  ${String(body).slice(0, 300)}`,
        );
      }
      if (seed % 1000 === 0) expect((await fetch(f.tg.url + '/api/status')).status).toBe(200);
    }
    expect(failures.slice(0, 20)).toEqual([]);
    expect(served).toBeGreaterThan(100);
    await flushWrites(f.tg);
    const after = await moneyOf(f, f.userId, f.tokenId);
    expect(after.reservations).toBe(0);
    expect(before.user.quota - after.user.quota).toBe(after.logged - before.logged);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  }, 600_000);
});

// Console writes reach the database: the same hostile bodies on each one get the same clean refusals
// (PostgreSQL refuses NUL in text, MySQL's TEXT holds 64 KiB, SQLite takes both).
await forEachDatabase('seeded hostile console writes', (kind) => {
  let f: RelayFixture;
  let channelId: number;
  let bobId: number;
  beforeAll(async () => {
    f = await startRelayFixture(kind);
    await f.root.post('/api/user/', { username: 'bob', password: 'bob-pass-123', display_name: 'Bob' });
    bobId = (await f.root.get('/api/user/search?keyword=bob')).body.data.items[0].id;
    channelId = await f.addChannel({ name: 'fuzz-target', models: 'fuzz-only' });
  });
  afterAll(async () => f?.close());
  const send = (path: string, body: string | Buffer, headers: Record<string, string>) => sendTo(f, path, body, headers);

  it('refuses hostile console writes with the envelope and changes no row', async () => {
    const db = f.tg.gateway.ctx.db;
    const snapshot = async () =>
      JSON.stringify([
        await db.selectFrom('channels').selectAll().orderBy('id').execute(),
        await db.selectFrom('tokens').selectAll().orderBy('id').execute(),
        await db.selectFrom('users').selectAll().orderBy('id').execute(),
        await db.selectFrom('redemptions').selectAll().orderBy('id').execute(),
        await db.selectFrom('options').selectAll().orderBy('key').execute(),
      ]);
    const session = (client: typeof f.root) => ({ cookie: client.cookie, 'new-api-user': String(client.userId) });
    const targets: Array<{ path: string; method: string; base: object; headers: () => Record<string, string> }> = [
      {
        path: '/api/channel/',
        method: 'POST',
        base: {
          type: 1,
          name: 'fz',
          key: 'k',
          base_url: 'https://example.com',
          models: 'fuzz-only',
          group: 'default',
          weight: 1,
          priority: 0,
          max_input_tokens: 0,
        },
        headers: () => session(f.root),
      },
      {
        path: '/api/channel/',
        method: 'PUT',
        base: {
          id: channelId,
          type: 1,
          name: 'fuzz-target',
          models: 'fuzz-only',
          group: 'default',
          weight: 1,
          priority: 0,
          model_mapping: '',
          tag: '',
        },
        headers: () => session(f.root),
      },
      {
        path: '/api/token/',
        method: 'POST',
        base: {
          name: 't',
          remain_quota: 100,
          expired_time: -1,
          unlimited_quota: false,
          model_limits_enabled: false,
          model_limits: '',
          allow_ips: '',
          group: '',
        },
        headers: () => session(f.user),
      },
      {
        path: '/api/user/',
        method: 'PUT',
        base: { id: bobId, username: 'bob', display_name: 'Bob', quota: 100, group: 'default', remark: '' },
        headers: () => session(f.root),
      },
      {
        path: '/api/redemption/',
        method: 'POST',
        base: { name: 'r', quota: 100, count: 1, expired_time: 0 },
        headers: () => session(f.root),
      },
      {
        path: '/api/option/',
        method: 'PUT',
        base: { key: 'QuotaRemindThreshold', value: '1000' },
        headers: () => session(f.root),
      },
      {
        path: '/api/user/setting',
        method: 'PUT',
        base: { notify_type: 'email', quota_warning_threshold: 1000 },
        headers: () => session(f.user),
      },
    ];
    const failures: string[] = [];
    for (let seed = 1; seed <= 1400; seed++) {
      const next = random(100_000 + seed);
      const target = targets[seed % targets.length]!;
      const body = mutate(target.base, next);
      const before = await snapshot();
      const res = await send(target.path, body, { ...target.headers(), 'x-method': target.method });
      const ok = res.status === 200 && (res.body as any)?.success === true;
      if (ok) continue;
      if (res.status >= 500 || !consoleShape(res.status, res.body)) {
        failures.push(
          `seed ${seed} ${target.method} ${target.path} → ${res.status} ${JSON.stringify(res.body).slice(0, 200)}\n  ${String(body).slice(0, 300)}`,
        );
      } else if ((await snapshot()) !== before)
        failures.push(`seed ${seed} ${target.path}: refused but rows changed\n  ${String(body).slice(0, 300)}`);
    }
    expect(failures.slice(0, 20)).toEqual([]);
    expect((await f.root.get('/api/channel/?p=1&page_size=100')).body.success).toBe(true);
  }, 600_000);
});
