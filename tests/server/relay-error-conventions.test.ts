/**
 * Refusals a client must not retry are 4xx in each client format's own terms, one situation has one
 * answer, and an upstream's own error fields reach clients of its protocol. SDKs retry 408, 409, 429
 * and 5xx (Claude clients wait out 429 and 503/529 as rate limits and overloads), so an unknown model
 * answering 500 or an empty balance answering 429 to a Claude client keeps them asking.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';

interface Answer {
  status: number;
  body: any;
}

async function call(url: string, init: RequestInit): Promise<Answer> {
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) };
}

await forEachDatabase('relay error conventions', (kind) => {
  let f: RelayFixture;

  const chat = (model: string, key = f.key, extra: Record<string, unknown> = {}) =>
    call(`${f.tg.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }], ...extra }),
    });
  const claude = (model: string, key = f.key) =>
    call(`${f.tg.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model, max_tokens: 1000, messages: [{ role: 'user', content: 'hi' }] }),
    });
  const gemini = (model: string, key = f.key) =>
    call(`${f.tg.url}/v1beta/models/${model}:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
    });

  /** What a refused call must leave as it was: balances and the consume rows. */
  async function ledger() {
    await f.flush();
    const db = f.tg.gateway.ctx.db;
    const user = await db
      .selectFrom('users')
      .select(['quota', 'used_quota'])
      .where('id', '=', f.userId)
      .executeTakeFirstOrThrow();
    const tokens = await db.selectFrom('tokens').select(['id', 'remain_quota', 'used_quota']).orderBy('id').execute();
    const consumed = await db
      .selectFrom('logs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('type', '=', 2)
      .executeTakeFirstOrThrow();
    return { user, tokens, consumed: Number(consumed.n) };
  }

  async function token(fields: Record<string, unknown>): Promise<string> {
    const made = await f.user.post('/api/token/', { name: `t${Date.now() % 100000}`, expired_time: -1, ...fields });
    expect(made.body.success, made.body.message).toBe(true);
    const id = (await f.tg.gateway.ctx.db.selectFrom('tokens').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id;
    return (await f.user.post(`/api/token/${id}/key`)).body.data.key as string;
  }

  beforeAll(async () => {
    f = await startRelayFixture(kind);
    await f.addChannel({ name: 'extra', models: 'fail-context,unpriced-model' });
    const ratios = JSON.parse((await f.root.get('/api/option/')).body.data.find((o: any) => o.key === 'ModelRatio').value);
    expect(
      (await f.root.put('/api/option/', { key: 'ModelRatio', value: JSON.stringify({ ...ratios, 'fail-context': 1 }) })).body
        .success,
    ).toBe(true);
  });
  afterAll(async () => f?.close());

  it('answers an unknown model 404 model_not_found in every client format, writing nothing', async () => {
    const before = await ledger();
    const openai = await chat('no-such-model');
    expect(openai.status).toBe(404);
    expect(openai.body.error).toMatchObject({ code: 'model_not_found', type: 'invalid_request_error' });
    expect(openai.body.error.message).toContain('no-such-model');
    const anthropic = await claude('no-such-model');
    expect(anthropic).toMatchObject({ status: 404, body: { type: 'error', error: { type: 'not_found_error' } } });
    const google = await gemini('no-such-model');
    expect(google).toMatchObject({ status: 404, body: { error: { code: 404, status: 'NOT_FOUND' } } });
    expect(await ledger()).toEqual(before);
  });

  it('answers a served but unpriced model 404 naming the missing price', async () => {
    const res = await chat('unpriced-model');
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'model_price_error', type: 'invalid_request_error' });
    expect((await claude('unpriced-model')).status).toBe(404);
  });

  it('answers a priced model without a channel as the family does for OpenAI clients, and not as an overload for Claude ones', async () => {
    // gpt-4o has a default price; no channel of the user's group serves it.
    const openai = await chat('gpt-4o');
    expect(openai.status).toBe(503);
    expect(openai.body.error).toMatchObject({ code: 'model_not_found' });
    expect(openai.body.error.message).toBe('当前分组 default 下对于模型 gpt-4o 无可用渠道');
    const anthropic = await claude('gpt-4o');
    expect(anthropic.status).toBe(404);
    expect(anthropic.body.error.type).toBe('not_found_error');
    const google = await gemini('gpt-4o');
    expect(google).toMatchObject({ status: 404, body: { error: { status: 'NOT_FOUND' } } });
  });

  it('answers every exhausted balance 429 insufficient_quota (Claude: 402 billing_error) and writes nothing', async () => {
    const empty = await token({ remain_quota: 0, unlimited_quota: false });
    const dry = await token({ remain_quota: 5, unlimited_quota: false });
    const before = await ledger();
    for (const key of [empty, dry]) {
      const openai = await chat('gpt-4o-mini', key, { max_tokens: 100 });
      expect(openai.status, key === empty ? 'made empty' : 'run dry').toBe(429);
      expect(openai.body.error).toMatchObject({ code: 'insufficient_quota', type: 'insufficient_quota' });
      const anthropic = await claude('gpt-4o-mini', key);
      expect(anthropic).toMatchObject({ status: 402, body: { error: { type: 'billing_error' } } });
      expect((await gemini('gpt-4o-mini', key)).body.error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' });
    }
    // The empty token is marked exhausted on its first refusal and still answered the same way.
    expect((await chat('gpt-4o-mini', empty)).body.error.code).toBe('insufficient_quota');
    // The owner's balance likewise, through an unlimited token.
    const setQuota = async (quota: number) =>
      expect((await f.root.put('/api/user/', { id: f.userId, username: 'alice', quota })).body.success).toBe(true);
    await setQuota(0);
    const emptied = await ledger();
    const owner = await chat('gpt-4o-mini', f.key, { max_tokens: 100 });
    expect(owner.status).toBe(429);
    expect(owner.body.error).toMatchObject({ code: 'insufficient_quota', type: 'insufficient_quota' });
    expect(owner.body.error.message).toBe('用户额度不足');
    const after = await ledger();
    expect(after.tokens).toEqual(before.tokens);
    expect(after.consumed).toBe(before.consumed);
    expect(after.user).toEqual(emptied.user);
    await setQuota(Number(before.user.quota));
  });

  it("passes the upstream's own type, code and param through to OpenAI clients", async () => {
    const res = await chat('fail-context');
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      message: expect.stringContaining('maximum context length'),
      type: 'invalid_request_error',
      param: 'messages',
      code: 'context_length_exceeded',
    });
    // An upstream error without such fields still says where it came from.
    const plain = await chat('fail-500');
    expect(plain.body.error).toMatchObject({ type: 'server_error', code: null });
  });
});
