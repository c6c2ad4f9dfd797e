import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { startReplayServer, type ReplayServer } from '../helpers/upstreams/replay.js';
import { OPENAI_FIXTURES } from '../helpers/upstreams/openai.js';
import { countTokens } from '../../server/relay/metering/tokenizer.js';

const SINGLE = [0.0311, -0.0172, 0.0548, -0.0027, 0.0093, -0.0415, 0.0266, 0.0081];

// Gemini-format embedding calls (the official Gen AI SDK's embedContent) to Gemini channels, passed
// through, and to OpenAI-compatible ones, converted through /v1/embeddings; billed either way.
describe('Gemini clients’ embeddings on /v1beta', () => {
  let f: RelayFixture;
  let gemini: ReplayServer;
  let ai: GoogleGenAI;
  const embedUrl = (model: string, action: string) => `${f.tg.url}/v1beta/models/${model}:${action}?key=${f.key}`;
  const post = (url: string, body: unknown) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  beforeAll(async () => {
    f = await startRelayFixture('sqlite');
    gemini = await startReplayServer('gemini', [
      { path: /^\/v1beta\/models\/gemini-embedding-broken:/, fixture: () => 'error-invalid-key.json', status: 400 },
      { path: /:batchEmbedContents$/, fixture: () => 'embeddings.json' },
      { path: /:embedContent$/, fixture: () => 'embed-content.json' },
    ]);
    const ratios = JSON.parse(f.tg.gateway.ctx.options.raw('ModelRatio'));
    const added = { 'gemini-embedding-001': 0.075, 'gemini-embed-alias': 0.075, 'gemini-embedding-broken': 1 };
    await f.root.put('/api/option/', { key: 'ModelRatio', value: JSON.stringify({ ...ratios, ...added }) });
    await f.addChannel({
      type: 24,
      name: 'gemini',
      key: 'AIza-upstream',
      base_url: gemini.url,
      models: 'gemini-embedding-001,gemini-embed-alias,gemini-embedding-broken',
      model_mapping: JSON.stringify({ 'gemini-embed-alias': 'gemini-embedding-001' }),
    });
    ai = new GoogleGenAI({ apiKey: f.key, httpOptions: { baseUrl: f.tg.url } });
  });
  afterAll(async () => {
    await f?.close();
    await gemini?.close();
  });

  it('passes the SDK’s batch through to a Gemini channel and bills the locally counted prompt', async () => {
    const texts = ['What is the meaning of life?', 'How do embeddings work?'];
    const answer = await ai.models.embedContent({ model: 'gemini-embedding-001', contents: texts });
    expect(answer.embeddings?.map((e) => e.values)).toEqual([
      [0.0123, -0.0456, 0.0789, 0.0012, -0.0334, 0.0567, -0.0891, 0.0245],
      [-0.0211, 0.0387, 0.0054, -0.0712, 0.0499, 0.0031, 0.0666, -0.0158],
    ]);
    const sent = gemini.requests.at(-1)!;
    expect(sent.url).toBe('/v1beta/models/gemini-embedding-001:batchEmbedContents');
    expect(sent.headers['x-goog-api-key']).toBe('AIza-upstream');
    expect(sent.body).toEqual({
      requests: texts.map((text) => ({ model: 'models/gemini-embedding-001', content: { parts: [{ text }], role: 'user' } })),
    });
    const tokens = await countTokens(texts.join('\n'));
    const log = await f.lastLog();
    expect([log.type, log.model_name, log.prompt_tokens, log.completion_tokens]).toEqual([2, 'gemini-embedding-001', tokens, 0]);
    expect(log.quota).toBe(Math.max(1, Math.round(tokens * 0.075)));
  });

  it('follows the channel’s model mapping into the URL and each batch request', async () => {
    await ai.models.embedContent({ model: 'gemini-embed-alias', contents: 'mapped' });
    const sent = gemini.requests.at(-1)!;
    expect(sent.url).toBe('/v1beta/models/gemini-embedding-001:batchEmbedContents');
    expect(sent.body.requests[0].model).toBe('models/gemini-embedding-001');
    const log = await f.lastLog();
    expect(JSON.parse(log.other ?? '{}')).toMatchObject({ is_model_mapped: true, upstream_model_name: 'gemini-embedding-001' });
  });

  it('passes a single embedContent through untouched', async () => {
    const body = { content: { parts: [{ text: 'Hello world' }] }, taskType: 'RETRIEVAL_QUERY', outputDimensionality: 8 };
    const res = await post(embedUrl('gemini-embedding-001', 'embedContent'), body);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ embedding: { values: SINGLE } });
    const sent = gemini.requests.at(-1)!;
    expect(sent.url).toBe('/v1beta/models/gemini-embedding-001:embedContent');
    expect(sent.body).toEqual(body);
    expect((await f.lastLog()).prompt_tokens).toBe(await countTokens('Hello world'));
  });

  it('converts for an OpenAI-compatible channel, both ways, billing the upstream’s usage', async () => {
    const answer = await ai.models.embedContent({
      model: 'text-embedding-3-small',
      contents: 'The food was delicious',
      config: { outputDimensionality: 5 },
    });
    expect(answer.embeddings?.map((e) => e.values)).toEqual([OPENAI_FIXTURES.embeddings.data[0].embedding]);
    const sent = f.upstream.requests.at(-1)!;
    expect(sent.url).toBe('/v1/embeddings');
    expect(sent.body).toEqual({ model: 'text-embedding-3-small', input: ['The food was delicious'], dimensions: 5 });
    const log = await f.lastLog();
    expect([log.model_name, log.prompt_tokens]).toEqual(['text-embedding-3-small', 8]);

    const single = await post(embedUrl('text-embedding-3-small', 'embedContent'), { content: { parts: [{ text: 'hi' }] } });
    expect(await single.json()).toEqual({ embedding: { values: OPENAI_FIXTURES.embeddings.data[0].embedding } });
    expect(f.upstream.requests.at(-1)!.body).toEqual({ model: 'text-embedding-3-small', input: 'hi' });
  });

  it('answers errors in Google’s shape', async () => {
    const bad = await post(embedUrl('gemini-embedding-001', 'embedContent'), { requests: [] });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
    const emptyBatch = await post(embedUrl('gemini-embedding-001', 'batchEmbedContents'), { requests: [] });
    expect(emptyBatch.status).toBe(400);

    const upstream = await post(embedUrl('gemini-embedding-broken', 'embedContent'), { content: { parts: [{ text: 'x' }] } });
    expect(upstream.status).toBe(400);
    expect(await upstream.json()).toMatchObject({
      error: { code: 400, status: 'INVALID_ARGUMENT', message: 'API key not valid. Please pass a valid API key.' },
    });

    const denied = await fetch(`${f.tg.url}/v1beta/models/gemini-embedding-001:embedContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': `sk-${'z'.repeat(48)}` },
      body: JSON.stringify({ content: { parts: [{ text: 'x' }] } }),
    });
    expect(denied.status).toBe(401);
    expect(await denied.json()).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });
  });
});
