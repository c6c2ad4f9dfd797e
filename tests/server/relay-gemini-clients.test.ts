import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { startReplayServer, type ReplayServer } from '../helpers/upstreams/replay.js';
import { publishUserChange } from '../../server/users/user-cache.js';

// Gemini-format clients (the official Google Gen AI SDK) on /v1beta, to Gemini channels and to OpenAI ones.
describe('Gemini clients on /v1beta', () => {
  let f: RelayFixture;
  let gemini: ReplayServer;
  let ai: GoogleGenAI;
  beforeAll(async () => {
    f = await startRelayFixture('sqlite');
    gemini = await startReplayServer('gemini', [
      { path: /:streamGenerateContent$/, fixture: () => 'stream-text.chunks.txt' },
      { path: /:generateContent$/, fixture: () => 'text.json' },
    ]);
    const ratios = JSON.parse(f.tg.gateway.ctx.options.raw('ModelRatio'));
    await f.root.put('/api/option/', { key: 'ModelRatio', value: JSON.stringify({ ...ratios, 'gemini-2.5-flash': 0.15 }) });
    await f.addChannel({ type: 24, name: 'gemini', key: 'AIza-upstream', base_url: gemini.url, models: 'gemini-2.5-flash' });
    ai = new GoogleGenAI({ apiKey: f.key, httpOptions: { baseUrl: f.tg.url } });
  });
  afterAll(async () => {
    await f?.close();
    await gemini?.close();
  });

  it('passes a Gemini request through to a Gemini channel', async () => {
    const answer = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'What is the capital of France?' });
    expect(answer.text).toContain('Paris is the capital of France');
    const sent = gemini.requests.at(-1)!;
    expect(sent.url).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(sent.headers['x-goog-api-key']).toBe('AIza-upstream');
    expect(sent.body).toMatchObject({ contents: [{ role: 'user', parts: [{ text: 'What is the capital of France?' }] }] });
    const log = await f.lastLog();
    expect([log.prompt_tokens, log.completion_tokens]).toEqual([14, 20]);
  });

  it('streams a Gemini channel’s chunks to the client untouched, billing thoughts', async () => {
    const stream = await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'joke' });
    let text = '';
    for await (const chunk of stream) text += chunk.text ?? '';
    expect(text).toContain('outstanding in his field');
    expect(gemini.requests.at(-1)!.url).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    const log = await f.lastLog();
    expect([log.prompt_tokens, log.completion_tokens]).toEqual([9, 17 + 386]);
  });

  it('reaches an OpenAI channel, converted both ways, streaming and not', async () => {
    const answer = await ai.models.generateContent({ model: 'gpt-4o-mini', contents: 'Hello!' });
    expect(answer.text).toBe('Hello! How can I assist you today?');
    expect(answer.usageMetadata?.promptTokenCount).toBe(19);
    expect(f.upstream.requests.at(-1)!.body).toMatchObject({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Hello!' }],
    });

    const stream = await ai.models.generateContentStream({ model: 'gpt-4o-mini', contents: 'Hello!' });
    let text = '';
    for await (const chunk of stream) text += chunk.text ?? '';
    expect(text.startsWith('Hello! How can I assist you today?')).toBe(true);
    expect((await f.lastLog()).completion_tokens).toBe(18);
  });

  it('answers errors in Google’s shape', async () => {
    const res = await fetch(`${f.tg.url}/v1beta/models/gemini-2.5-flash:generateContent?key=sk-${'z'.repeat(48)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [] }),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });
  });

  it('refuses a caller with an empty balance before calling upstream (the estimate reads Gemini contents)', async () => {
    const ctx = f.tg.gateway.ctx;
    const before = await ctx.db.selectFrom('users').select('quota').where('id', '=', f.userId).executeTakeFirstOrThrow();
    await ctx.db.updateTable('users').set({ quota: 0 }).where('id', '=', f.userId).execute();
    publishUserChange(ctx.bus, f.userId);
    const sent = gemini.requests.length;
    try {
      const res = await fetch(`${f.tg.url}/v1beta/models/gemini-2.5-flash:generateContent`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': f.key },
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Tell me a long story about the sea.' }] }] }),
      });
      expect(res.status).toBe(429);
      expect((await res.json()).error.status).toBe('RESOURCE_EXHAUSTED');
      expect(gemini.requests.length).toBe(sent);
    } finally {
      await ctx.db.updateTable('users').set({ quota: before.quota }).where('id', '=', f.userId).execute();
      publishUserChange(ctx.bus, f.userId);
    }
  });

  it('lists models in Gemini’s shape for Gemini clients', async () => {
    const res = await fetch(`${f.tg.url}/v1beta/models`, { headers: { 'x-goog-api-key': f.key } });
    const body = await res.json();
    expect(body.models.map((m: { name: string }) => m.name)).toContain('models/gemini-2.5-flash');
  });
});
