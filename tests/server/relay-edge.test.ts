import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { moneyOf } from '../helpers/money.js';

// Bodies that do not have the shape a client format promises are refused at the edge with a 400 in
// that format's own error shape, before any quota is held and before any converter runs.
describe('malformed bodies at the edge', () => {
  let f: RelayFixture;
  beforeAll(async () => {
    f = await startRelayFixture('sqlite');
    await f.addChannel({ type: 14, name: 'claude', key: 'k', base_url: 'http://127.0.0.1:9', models: 'claude-x' });
    await f.addChannel({ type: 24, name: 'gemini', key: 'k', base_url: 'http://127.0.0.1:9', models: 'gemini-x' });
  });
  afterAll(async () => f?.close());

  const post = async (path: string, body: unknown, headers: Record<string, string>) => {
    const res = await fetch(f.tg.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  const openai = (body: unknown) => post('/v1/chat/completions', body, { authorization: `Bearer ${f.key}` });
  const claude = (body: unknown) => post('/v1/messages', body, { 'x-api-key': f.key, 'anthropic-version': '2023-06-01' });
  const gemini = (action: string, body: unknown) => post(`/v1beta/models/gemini-x:${action}`, body, { 'x-goog-api-key': f.key });

  it('answers OpenAI clients with an OpenAI 400 naming the field', async () => {
    for (const body of [
      { model: 'gpt-4o-mini', messages: 'hello' },
      { model: 'gpt-4o-mini', messages: [] },
      { model: 'gpt-4o-mini', messages: [{ role: 1, content: 'x' }] },
      { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }], tools: true },
      { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }], max_tokens: -1 },
    ]) {
      const res = await openai(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_request' });
      expect(res.body.error.message).toMatch(/^(messages|tools|max_tokens)/);
    }
  });

  it('answers Claude clients with a Claude 400', async () => {
    for (const body of [
      { model: 'claude-x', max_tokens: 10, messages: -1 },
      { model: 'claude-x', max_tokens: 10, messages: [{ role: 'user', content: 'x' }], tools: true },
      { model: 'claude-x', max_tokens: 10, messages: [{ role: 'system', content: 'x' }] },
      { model: 'claude-x', max_tokens: 10, messages: [{ role: 'user', content: [null] }] },
    ]) {
      const res = await claude(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    }
  });

  it('answers Gemini clients with a Google 400', async () => {
    for (const [action, body] of [
      ['generateContent', { contents: [null] }],
      ['generateContent', { contents: [{ parts: [{ inlineData: { mimeType: 5, data: 'AAAA' } }] }] }],
      ['generateContent', { contents: 'hello' }],
      ['embedContent', { requests: [{ content: { parts: [{ text: 'x' }] } }] }],
      ['batchEmbedContents', { requests: [] }],
    ] as const) {
      const res = await gemini(action, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
    }
  });

  it('holds no quota and writes no log for a refused body', async () => {
    const before = await moneyOf(f, f.userId, f.tokenId);
    await openai({ model: 'gpt-4o-mini', messages: 'x' });
    await claude({ model: 'claude-x', messages: -1 });
    await gemini('generateContent', { contents: [null] });
    await f.flush();
    const after = await moneyOf(f, f.userId, f.tokenId);
    expect(after.user.quota).toBe(before.user.quota);
    expect(after.consume.length).toBe(before.consume.length);
    expect(after.reservations).toBe(0);
  });
});
