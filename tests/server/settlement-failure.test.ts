/**
 * A call never ends without a status. A settlement the database refuses (injected: a trigger that
 * fails the consume row's insert) ends the call with an error in the caller's format — the status
 * and body of a whole answer, the format's error event in place of a stream's closing event — and
 * leaves an error row. A negative price stored before prices were checked makes no call hang either.
 */
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { setOptions } from '../helpers/money.js';
import { OPTION_REGISTRY } from '../../server/options/registry.js';

let f: RelayFixture;
beforeAll(async () => {
  f = await startRelayFixture('sqlite');
  await setOptions(f, { RetryTimes: '0' });
});
afterAll(async () => f?.close());

const db = () => f.tg.gateway.ctx.db;

async function errorRows(): Promise<Array<{ content: string; other: Record<string, any> }>> {
  await f.flush();
  const rows = await f.tg.gateway.ctx.logDb
    .selectFrom('logs')
    .select(['content', 'other'])
    .where('type', '=', 5)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ content: r.content ?? '', other: JSON.parse(r.other ?? '{}') }));
}

async function send(path: string, headers: Record<string, string>, body: object) {
  const res = await fetch(`${f.tg.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

const openai = (body: object) => send('/v1/chat/completions', { authorization: `Bearer ${f.key}` }, body);
const claude = (body: object) => send('/v1/messages', { 'x-api-key': f.key, 'anthropic-version': '2023-06-01' }, body);
const gemini = (body: object) => send('/v1beta/models/gpt-4o-mini:generateContent', { 'x-goog-api-key': f.key }, body);
const messages = [{ role: 'user', content: 'hi' }];

describe('a settlement the database refuses', () => {
  beforeAll(async () => {
    await sql`create trigger settlement_fails before insert on logs when new.type = 2
      begin select raise(abort, 'injected settlement failure'); end`.execute(db());
  });
  afterAll(async () => {
    await sql`drop trigger settlement_fails`.execute(db());
  });

  it('answers a whole OpenAI call with a 500 in its shape, and logs an error row', async () => {
    const before = (await errorRows()).length;
    const res = await openai({ model: 'gpt-4o-mini', max_tokens: 5, messages });
    expect(res.status).toBe(500);
    expect(JSON.parse(res.text)).toEqual({
      error: { message: '计费失败，本次请求未完成，请稍后重试', type: 'new_api_error', param: null, code: 'billing_failed' },
    });
    const rows = await errorRows();
    expect(rows).toHaveLength(before + 1);
    expect(rows.at(-1)).toMatchObject({
      content: '计费失败，本次请求未完成，请稍后重试',
      other: { refusal: { code: 'billing_failed' } },
    });
  });

  it('answers Claude and Gemini calls in their own error shapes', async () => {
    const c = await claude({ model: 'gpt-4o-mini', max_tokens: 5, messages });
    expect(c.status).toBe(500);
    expect(JSON.parse(c.text)).toMatchObject({ type: 'error', error: { type: 'api_error' } });
    const g = await gemini({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
    expect(g.status).toBe(500);
    expect(JSON.parse(g.text)).toMatchObject({ error: { code: 500, status: 'INTERNAL' } });
  });

  it('ends a passed-through stream with an error event instead of its [DONE]', async () => {
    const before = (await errorRows()).length;
    const res = await openai({ model: 'gpt-4o-mini', max_tokens: 5, stream: true, messages });
    expect(res.status).toBe(200);
    expect(res.type).toContain('text/event-stream');
    expect(res.text).toContain('chat.completion.chunk');
    expect(res.text).not.toContain('[DONE]');
    const last = res.text.trim().split('\n\n').at(-1)!;
    expect(JSON.parse(last.replace(/^data: /, ''))).toMatchObject({ error: { code: 'billing_failed' } });
    expect(await errorRows()).toHaveLength(before + 1);
  });

  it('ends a converted Claude stream with its error event instead of message_stop', async () => {
    const res = await claude({ model: 'gpt-4o-mini', max_tokens: 5, stream: true, messages });
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('message_stop');
    expect(res.text.trim().split('\n\n').at(-1)).toMatch(/^event: error\ndata: \{"type":"error","error":\{"type":"api_error"/);
  });
});

describe('prices stored before they were checked', () => {
  const stored = async (key: string, value: string) => {
    const updated = await db().updateTable('options').set({ value }).where('key', '=', key).executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) await db().insertInto('options').values({ key, value }).execute();
    await f.tg.gateway.ctx.options.reload();
  };
  let saved: Record<string, string>;
  beforeAll(async () => {
    const rows = await db().selectFrom('options').select(['key', 'value']).execute();
    saved = Object.fromEntries(rows.map((r) => [r.key, r.value ?? '']));
  });
  afterEach(async () => {
    for (const key of ['ModelRatio'] as const) await stored(key, saved[key] ?? OPTION_REGISTRY[key].default);
  });

  it('treats a negative ratio as no price: a refusal, not a call without an answer', async () => {
    const ratios = JSON.parse(saved.ModelRatio!);
    await stored('ModelRatio', JSON.stringify({ ...ratios, 'gpt-4o-mini': -1 }));
    for (const stream of [false, true]) {
      const res = await openai({ model: 'gpt-4o-mini', max_tokens: 5, stream, messages });
      expect(res.status).toBe(404);
      expect(JSON.parse(res.text)).toMatchObject({ error: { code: 'model_price_error' } });
    }
  });
});
