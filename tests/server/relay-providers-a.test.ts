/**
 * The real gateway relaying OpenAI SDK calls to Ollama (4), Cohere (34), Dify (37), Coze (49),
 * Jina (38), FastGPT (22), MiniMax (35) and the AI Proxy knowledge base (21), each behind a local
 * stand-in speaking the provider's own wire format (fixtures under tests/fixtures/providers/).
 * Checked: the outbound URL, headers and body; the client's answer, whole and streamed; usage and
 * quota in the log row.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { startReplayServer, type ReplayServer } from '../helpers/upstreams/replay.js';
import { startOllamaStandIn } from '../helpers/upstreams/ollama.js';

const MODELS = [
  'llama3.2',
  'llama9',
  'nomic-embed-text',
  'command-a-03-2025',
  'embed-v4.0',
  'rerank-v3.5',
  'dify-app',
  'coze-bot',
  'coze-denied',
  'jina-embeddings-v3',
  'jina-reranker-v2-base-multilingual',
  'fastgpt-app',
  'MiniMax-M1',
  'minimax-denied',
  'library-qa',
];

const streamed = (body: { stream?: boolean }) => body.stream === true;

describe('providers with their own wire formats (Ollama, Cohere, Dify, Coze, Jina, FastGPT, MiniMax, AI Proxy)', () => {
  let f: RelayFixture;
  let ollama: ReplayServer;
  let cohere: ReplayServer;
  let dify: ReplayServer;
  let coze: ReplayServer;
  let jina: ReplayServer;
  let fastgpt: ReplayServer;
  let minimax: ReplayServer;
  let library: ReplayServer;
  const channels: Record<string, number> = {};

  beforeAll(async () => {
    f = await startRelayFixture('sqlite');
    ollama = await startOllamaStandIn();
    cohere = await startReplayServer('cohere', [
      { path: /^\/v2\/chat$/, fixture: (r) => (streamed(r.body) ? 'chat-stream.chunks.txt' : 'chat.json') },
      { path: /^\/v2\/embed$/, fixture: () => 'embed.json' },
      { path: /^\/v2\/rerank$/, fixture: () => 'rerank.json' },
    ]);
    dify = await startReplayServer('dify', [
      {
        path: /^\/v1\/chat-messages$/,
        fixture: (r) => (r.body.response_mode === 'streaming' ? 'chat-stream.chunks.txt' : 'chat-blocking.json'),
      },
    ]);
    coze = await startReplayServer('coze', [
      { path: /^\/v3\/chat$/, fixture: (r) => (r.body.bot_id === 'denied' ? 'error-token.json' : 'chat-stream.chunks.txt') },
    ]);
    jina = await startReplayServer('jina', [
      { path: /^\/v1\/embeddings$/, fixture: () => 'embeddings.json' },
      { path: /^\/v1\/rerank$/, fixture: () => 'rerank.json' },
    ]);
    fastgpt = await startReplayServer('fastgpt', [
      { path: /^\/api\/v1\/chat\/completions$/, fixture: (r) => (streamed(r.body) ? 'chat-stream.chunks.txt' : 'chat.json') },
    ]);
    minimax = await startReplayServer('minimax', [
      {
        path: /^\/v1\/text\/chatcompletion_v2$/,
        fixture: (r) =>
          r.body.model === 'minimax-denied' ? 'error-login-fail.json' : streamed(r.body) ? 'chat-stream.chunks.txt' : 'chat.json',
      },
    ]);
    library = await startReplayServer('aiproxy-library', [
      { path: /^\/api\/library\/ask$/, fixture: (r) => (streamed(r.body) ? 'stream.chunks.txt' : 'answer.json') },
    ]);

    const ratios = JSON.parse(f.tg.gateway.ctx.options.raw('ModelRatio'));
    for (const m of MODELS) ratios[m] = 1;
    await f.root.put('/api/option/', { key: 'ModelRatio', value: JSON.stringify(ratios) });

    const add = async (name: string, fields: Record<string, unknown>) => {
      channels[name] = await f.addChannel({ name, ...fields });
    };
    await add('ollama', { type: 4, key: 'ollama-key', base_url: ollama.url, models: 'llama3.2,llama9,nomic-embed-text' });
    await add('cohere', { type: 34, key: 'co-key', base_url: cohere.url, models: 'command-a-03-2025,embed-v4.0,rerank-v3.5' });
    await add('dify', { type: 37, key: 'app-dify-key', base_url: dify.url, models: 'dify-app' });
    await add('coze', { type: 49, key: 'pat_coze', base_url: coze.url, other: '7379462189365198898', models: 'coze-bot' });
    await add('coze-denied', {
      type: 49,
      key: 'pat_bad',
      base_url: coze.url,
      other: 'denied',
      models: 'coze-denied',
      auto_ban: 0,
    });
    await add('jina', {
      type: 38,
      key: 'jina_key',
      base_url: jina.url,
      models: 'jina-embeddings-v3,jina-reranker-v2-base-multilingual',
    });
    await add('fastgpt', { type: 22, key: 'fastgpt-key-app1', base_url: `${fastgpt.url}/api`, models: 'fastgpt-app' });
    await add('minimax', { type: 35, key: 'mm-key', base_url: minimax.url, models: 'MiniMax-M1,minimax-denied', auto_ban: 0 });
    await add('library', { type: 21, key: 'ak-library', base_url: library.url, other: 'lib-42', models: 'library-qa' });
  });

  afterAll(async () => {
    await f?.close();
    for (const s of [ollama, cohere, dify, coze, jina, fastgpt, minimax, library]) await s?.close();
  });

  const ask = (model: string, extra: Partial<OpenAI.ChatCompletionCreateParamsNonStreaming> = {}) =>
    f.openai().chat.completions.create({
      model,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
      ],
      ...extra,
    });

  async function askStream(
    model: string,
    wantUsage = true,
  ): Promise<{ text: string; usage: OpenAI.CompletionUsage | undefined; finish: string | null }> {
    const stream = await f.openai().chat.completions.create({
      model,
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
      ...(wantUsage ? { stream_options: { include_usage: true } } : {}),
    });
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined;
    let finish: string | null = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    return { text, usage, finish };
  }

  async function expectLog(prompt: number, completion: number, stream: boolean) {
    const log = await f.lastLog();
    expect([log.prompt_tokens, log.completion_tokens, log.is_stream]).toEqual([prompt, completion, stream ? 1 : 0]);
    expect(log.quota).toBe(prompt + completion);
    return log;
  }

  async function rerank(model: string) {
    const res = await fetch(`${f.tg.url}/v1/rerank`, {
      method: 'POST',
      headers: { authorization: `Bearer ${f.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model,
        query: 'Organic skincare products for sensitive skin',
        documents: ['Organic skincare for sensitive skin.', 'New makeup trends.', 'Bio-Hautpflege für empfindliche Haut.'],
        top_n: 2,
      }),
    });
    return { status: res.status, body: (await res.json()) as any };
  }

  describe('Ollama', () => {
    it('converts chat to /api/chat and bills the eval counters', async () => {
      const answer = await ask('llama3.2', { max_tokens: 50, temperature: 0.1 });
      expect(answer.choices[0]?.message.content).toBe('The sky is blue because of Rayleigh scattering.');
      const sent = ollama.requests.at(-1)!;
      expect(sent.url).toBe('/api/chat');
      expect(sent.headers.authorization).toBe('Bearer ollama-key');
      expect(sent.body).toEqual({
        model: 'llama3.2',
        stream: false,
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hi' },
        ],
        options: { temperature: 0.1, num_predict: 50 },
      });
      await expectLog(26, 11, false);
    });

    it('streams NDJSON as OpenAI chunks with usage', async () => {
      const { text, usage, finish } = await askStream('llama3.2');
      expect(text).toBe('The sky is blue.');
      expect(finish).toBe('stop');
      expect(usage).toMatchObject({ prompt_tokens: 26, completion_tokens: 4 });
      expect(ollama.requests.at(-1)!.body).toMatchObject({ stream: true });
      await expectLog(26, 4, true);
    });

    it('converts embeddings to /api/embed, answering the base64 the SDK asks for', async () => {
      const answer = await f.openai().embeddings.create({ model: 'nomic-embed-text', input: ['a', 'b'] });
      expect(ollama.requests.at(-1)).toMatchObject({ url: '/api/embed', body: { model: 'nomic-embed-text', input: ['a', 'b'] } });
      expect(answer.data).toHaveLength(2);
      expect(answer.data[0]!.embedding[2]).toBeCloseTo(0.05007221, 6);
      expect(answer.usage).toMatchObject({ prompt_tokens: 8 });
      await expectLog(8, 0, false);
    });

    it('refuses an image given by link with a 400, without calling Ollama', async () => {
      const before = ollama.requests.length;
      const refused = f.openai().chat.completions.create({
        model: 'llama3.2',
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://x.test/cat.png' } }] }],
      });
      await expect(refused).rejects.toMatchObject({ status: 400, message: expect.stringContaining('data: URLs') });
      expect(ollama.requests.length).toBe(before);
    });

    it("relays Ollama's error message", async () => {
      await expect(ask('llama9')).rejects.toMatchObject({
        status: 404,
        message: expect.stringContaining('try pulling it first'),
      });
    });
  });

  describe('Cohere', () => {
    it('converts chat to /v2/chat and bills the billed units', async () => {
      const answer = await ask('command-a-03-2025', { top_p: 0.5, stop: ['###'] });
      expect(answer.choices[0]?.message.content).toBe('LLMs are neural networks trained on large amounts of text.');
      const sent = cohere.requests.at(-1)!;
      expect(sent.url).toBe('/v2/chat');
      expect(sent.headers.authorization).toBe('Bearer co-key');
      expect(sent.body).toEqual({
        model: 'command-a-03-2025',
        stream: false,
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hi' },
        ],
        p: 0.5,
        stop_sequences: ['###'],
      });
      await expectLog(17, 12, false);
    });

    it('streams typed events as OpenAI chunks', async () => {
      const { text, usage } = await askStream('command-a-03-2025');
      expect(text).toBe('LLMs are neural networks.');
      expect(usage).toMatchObject({ prompt_tokens: 9, completion_tokens: 5 });
      await expectLog(9, 5, true);
    });

    it('converts embeddings to /v2/embed', async () => {
      const answer = await f.openai().embeddings.create({ model: 'embed-v4.0', input: 'hello' });
      expect(cohere.requests.at(-1)).toMatchObject({
        url: '/v2/embed',
        body: { model: 'embed-v4.0', texts: ['hello'], input_type: 'search_document', embedding_types: ['float'] },
      });
      expect(answer.data[1]!.embedding[0]).toBeCloseTo(-0.0206604, 6);
      await expectLog(2, 0, false);
    });

    it('takes a Gemini client’s batchEmbedContents through Cohere’s own embed API', async () => {
      const res = await fetch(`${f.tg.url}/v1beta/models/embed-v4.0:batchEmbedContents`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': f.key },
        body: JSON.stringify({
          requests: [
            { model: 'models/embed-v4.0', content: { parts: [{ text: 'hello' }] } },
            { model: 'models/embed-v4.0', content: { parts: [{ text: 'goodbye' }] } },
          ],
        }),
      });
      expect(res.status).toBe(200);
      expect(cohere.requests.at(-1)).toMatchObject({
        url: '/v2/embed',
        body: { model: 'embed-v4.0', texts: ['hello', 'goodbye'] },
      });
      const body = await res.json();
      expect(body.embeddings).toHaveLength(2);
      expect(body.embeddings[1].values[0]).toBeCloseTo(-0.0206604, 6);
    });

    it('converts rerank to /v2/rerank, documents from the request, prompt counted locally', async () => {
      const { status, body } = await rerank('rerank-v3.5');
      expect(status).toBe(200);
      expect(cohere.requests.at(-1)).toMatchObject({ url: '/v2/rerank', body: { model: 'rerank-v3.5', top_n: 2 } });
      expect(body.results).toEqual([
        { index: 2, relevance_score: 0.999071, document: { text: 'Bio-Hautpflege für empfindliche Haut.' } },
        { index: 0, relevance_score: 0.32713068, document: { text: 'Organic skincare for sensitive skin.' } },
      ]);
      const log = await f.lastLog();
      expect(log.prompt_tokens).toBeGreaterThan(10);
      expect(log.completion_tokens).toBe(0);
    });
  });

  describe('Dify', () => {
    it('asks the app in blocking mode and bills metadata.usage', async () => {
      const answer = await ask('dify-app', { user: 'alice-1' });
      expect(answer.choices[0]?.message.content).toBe('iPhone 13 Pro Max specs are listed here:...');
      const sent = dify.requests.at(-1)!;
      expect(sent.url).toBe('/v1/chat-messages');
      expect(sent.headers.authorization).toBe('Bearer app-dify-key');
      expect(sent.body).toEqual({ inputs: {}, query: 'Hi', response_mode: 'blocking', conversation_id: '', user: 'alice-1' });
      await expectLog(1033, 128, false);
    });

    it('streams message events', async () => {
      const { text, usage } = await askStream('dify-app');
      expect(text).toBe(" I'm glad to meet you!");
      expect(usage).toMatchObject({ prompt_tokens: 1033, completion_tokens: 135 });
      expect(dify.requests.at(-1)!.body).toMatchObject({ response_mode: 'streaming' });
      await expectLog(1033, 135, true);
    });
  });

  describe('Coze', () => {
    it('streams the bot named by the channel', async () => {
      const { text, usage } = await askStream('coze-bot');
      expect(text).toBe('2024 is a leap year.');
      expect(usage).toMatchObject({ prompt_tokens: 614, completion_tokens: 19 });
      const sent = coze.requests.at(-1)!;
      expect(sent.url).toBe('/v3/chat');
      expect(sent.headers.authorization).toBe('Bearer pat_coze');
      expect(sent.body).toMatchObject({
        bot_id: '7379462189365198898',
        stream: true,
        additional_messages: [{ role: 'user', type: 'question', content: 'Hi', content_type: 'text' }],
      });
      await expectLog(614, 19, true);
    });

    it('answers whole answers gathered from the stream', async () => {
      const answer = await ask('coze-bot');
      expect(answer.choices[0]?.message.content).toBe('2024 is a leap year.');
      expect(answer.usage).toMatchObject({ prompt_tokens: 614, completion_tokens: 19 });
      expect(coze.requests.at(-1)!.body).toMatchObject({ stream: true });
      await expectLog(614, 19, false);
    });

    it('turns an error sent behind a 200 into an error status', async () => {
      await expect(ask('coze-denied')).rejects.toMatchObject({
        status: 401,
        message: expect.stringContaining('authentication is invalid'),
      });
    });

    it('tests the channel through the same exchange', async () => {
      const res = await f.root.get(`/api/channel/test/${channels.coze}`);
      expect(res.body, JSON.stringify(res.body)).toMatchObject({ success: true });
    });
  });

  describe('Jina', () => {
    it('relays embeddings, asking Jina for floats', async () => {
      const answer = await f.openai().embeddings.create({ model: 'jina-embeddings-v3', input: ['x', 'y'] });
      const sent = jina.requests.at(-1)!;
      expect(sent.url).toBe('/v1/embeddings');
      expect(sent.headers.authorization).toBe('Bearer jina_key');
      expect(sent.body).toEqual({ model: 'jina-embeddings-v3', input: ['x', 'y'], embedding_type: 'float' });
      expect(answer.data[0]!.embedding[0]).toBeCloseTo(0.0134, 6);
      await expectLog(8, 0, false);
    });

    it('relays rerank in the gateway shape, billing Jina’s token count', async () => {
      const { status, body } = await rerank('jina-reranker-v2-base-multilingual');
      expect(status).toBe(200);
      expect(jina.requests.at(-1)).toMatchObject({ url: '/v1/rerank', body: { top_n: 2 } });
      expect(body.results.map((r: { index: number }) => r.index)).toEqual([0, 2]);
      expect(body.usage).toEqual({ prompt_tokens: 815, completion_tokens: 0, total_tokens: 815 });
      await expectLog(815, 0, false);
    });

    it('tests an embedding channel through the converted answer', async () => {
      const res = await f.root.get(`/api/channel/test/${channels.jina}`);
      expect(res.body, JSON.stringify(res.body)).toMatchObject({ success: true });
    });
  });

  describe('FastGPT', () => {
    it('relays OpenAI chat under the /api base, whole and streamed', async () => {
      const answer = await ask('fastgpt-app');
      expect(answer.choices[0]?.message.content).toBe('The director is Christopher Nolan.');
      const sent = fastgpt.requests.at(-1)!;
      expect(sent.url).toBe('/api/v1/chat/completions');
      expect(sent.headers.authorization).toBe('Bearer fastgpt-key-app1');
      await expectLog(112, 16, false);

      // FastGPT streams no usage: the gateway does not ask for it, and counts locally.
      const { text } = await askStream('fastgpt-app', false);
      expect(text).toBe('The director is Christopher Nolan.');
      expect(fastgpt.requests.at(-1)!.body).toEqual({
        model: 'fastgpt-app',
        messages: [{ role: 'user', content: 'Hi' }],
        stream: true,
      });
      const log = await f.lastLog();
      expect(log.is_stream).toBe(1);
      expect(log.completion_tokens).toBeGreaterThan(0);
    });
  });

  describe('MiniMax', () => {
    it('relays chatcompletion_v2, whole and streamed', async () => {
      const answer = await ask('MiniMax-M1');
      expect(answer.choices[0]?.message.content).toBe('Hello! How can I assist you?');
      const sent = minimax.requests.at(-1)!;
      expect(sent.url).toBe('/v1/text/chatcompletion_v2');
      expect(sent.headers.authorization).toBe('Bearer mm-key');
      expect(sent.body).toMatchObject({ model: 'MiniMax-M1', stream: false });
      await expectLog(26, 13, false);

      const { text, usage } = await askStream('MiniMax-M1');
      expect(text).toBe('Hello! How can I assist you?');
      expect(usage).toMatchObject({ prompt_tokens: 26, completion_tokens: 13 });
      expect(minimax.requests.at(-1)!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
      await expectLog(26, 13, true);
    });

    it('turns base_resp failures behind a 200 into error statuses', async () => {
      await expect(ask('minimax-denied')).rejects.toMatchObject({ status: 401, message: expect.stringContaining('login fail') });
    });
  });

  describe('AI Proxy knowledge base', () => {
    it('asks the library named by the channel, whole and streamed', async () => {
      const answer = await ask('library-qa');
      expect(answer.choices[0]?.message.content).toContain(
        'The gateway keeps usage logs for 30 days.\n\n参考文档：\n1. [Usage logs]',
      );
      const sent = library.requests.at(-1)!;
      expect(sent.url).toBe('/api/library/ask');
      expect(sent.headers.authorization).toBe('Bearer ak-library');
      expect(sent.body).toEqual({ model: 'library-qa', query: 'Hi', libraryId: 'lib-42', stream: false });
      const log = await f.lastLog();
      expect(log.completion_tokens).toBeGreaterThan(0);

      const { text, finish } = await askStream('library-qa');
      expect(text).toBe(
        'The gateway keeps usage logs for 30 days.\n\n参考文档：\n1. [Usage logs](https://docs.example.com/logs)',
      );
      expect(finish).toBe('stop');
      expect((await f.lastLog()).is_stream).toBe(1);
    });
  });
});
