import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { startReplayServer, type ReplayServer } from '../helpers/upstreams/replay.js';
import type { RecordedRequest } from '../helpers/upstreams/openai.js';

// `/v1/responses` (the official SDK's client.responses) reaching channels that do not serve it:
// an OpenAI-compatible chat-only channel (DeepSeek, 43), Claude (14) and Gemini (24), through chat.
describe('OpenAI Responses clients on chat, Claude and Gemini channels', () => {
  let f: RelayFixture;
  let tools: ReplayServer;
  let claude: ReplayServer;
  let gemini: ReplayServer;
  let client: OpenAI;

  const hasTools = (r: RecordedRequest) => Array.isArray((r.body as { tools?: unknown }).tools);
  const streams = (r: RecordedRequest) => (r.body as { stream?: boolean }).stream === true;

  beforeAll(async () => {
    f = await startRelayFixture('sqlite');
    // A chat-completions upstream answering with tool calls (fixtures of this suite).
    tools = await startReplayServer('responses', [
      {
        path: /^\/v1\/chat\/completions$/,
        fixture: (r) => (streams(r) ? 'chat-tool-calls-stream.chunks.txt' : 'chat-tool-calls.json'),
      },
    ]);
    claude = await startReplayServer('claude', [
      {
        path: /^\/v1\/messages$/,
        fixture: (r) => {
          const body = r.body as { thinking?: unknown };
          if (body.thinking) return streams(r) ? 'stream-thinking.chunks.txt' : 'message-thinking.json';
          if (hasTools(r)) return streams(r) ? 'stream-tool-use.chunks.txt' : 'message-tool-use.json';
          return streams(r) ? 'stream-text.chunks.txt' : 'message-text.json';
        },
      },
    ]);
    gemini = await startReplayServer('gemini', [
      {
        path: /:streamGenerateContent$/,
        fixture: (r) => (hasTools(r) ? 'stream-function-call.chunks.txt' : 'stream-text.chunks.txt'),
      },
      { path: /:generateContent$/, fixture: (r) => (hasTools(r) ? 'function-call.json' : 'text.json') },
    ]);
    type PriceKey = 'ModelRatio' | 'CompletionRatio' | 'CacheRatio';
    const option = (key: PriceKey) => JSON.parse(f.tg.gateway.ctx.options.raw(key));
    const put = async (key: PriceKey, extra: Record<string, number>) => {
      const res = await f.root.put('/api/option/', { key, value: JSON.stringify({ ...option(key), ...extra }) });
      expect(res.body.success).toBe(true);
    };
    await put('ModelRatio', {
      'deepseek-chat': 2,
      'deepseek-tools': 2,
      'claude-sonnet-4-20250514': 1.5,
      'gemini-2.5-flash': 0.15,
    });
    await put('CompletionRatio', { 'deepseek-chat': 3, 'deepseek-tools': 3 });
    await put('CacheRatio', { 'deepseek-tools': 0.5 });
    await f.addChannel({ type: 43, name: 'deepseek', key: 'sk-deepseek', base_url: f.upstream.url, models: 'deepseek-chat' });
    await f.addChannel({ type: 43, name: 'deepseek-tools', key: 'sk-deepseek', base_url: tools.url, models: 'deepseek-tools' });
    await f.addChannel({
      type: 14,
      name: 'claude',
      key: 'sk-ant-test',
      base_url: claude.url,
      models: 'claude-sonnet-4-20250514',
    });
    await f.addChannel({ type: 24, name: 'gemini', key: 'AIza-test', base_url: gemini.url, models: 'gemini-2.5-flash' });
    client = f.openai();
  });
  afterAll(async () => {
    await f?.close();
    await tools?.close();
    await claude?.close();
    await gemini?.close();
  });

  const weatherTool: OpenAI.Responses.FunctionTool = {
    type: 'function',
    name: 'get_weather',
    description: 'Current weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    strict: false,
  };

  /** Every event of a streamed answer, checked for order (sequence numbers from 0). */
  async function collect(stream: AsyncIterable<OpenAI.Responses.ResponseStreamEvent>) {
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    expect(events[0]?.type).toBe('response.created');
    const last = events.at(-1)!;
    expect(last.type).toBe('response.completed');
    return { events, response: (last as OpenAI.Responses.ResponseCompletedEvent).response };
  }

  describe('a chat-only OpenAI-compatible channel (DeepSeek)', () => {
    it('sends chat completions and answers a Response, billing the upstream usage', async () => {
      const answer = await client.responses.create({
        model: 'deepseek-chat',
        instructions: 'Be brief.',
        input: 'Hello!',
        max_output_tokens: 64,
        temperature: 0.3,
      });
      expect(answer.object).toBe('response');
      expect(answer.id).toMatch(/^resp_/);
      expect(answer.status).toBe('completed');
      expect(answer.model).toBe('deepseek-chat');
      expect(answer.output_text).toBe('Hello! How can I assist you today?');
      expect(answer.usage).toMatchObject({ input_tokens: 19, output_tokens: 10, total_tokens: 29 });
      const sent = f.upstream.requests.at(-1)!;
      expect(sent.url).toBe('/v1/chat/completions');
      expect(sent.headers.authorization).toBe('Bearer sk-deepseek');
      expect(sent.body).toEqual({
        model: 'deepseek-chat',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hello!' },
        ],
        max_tokens: 64,
        temperature: 0.3,
        stream: false,
      });
      const log = await f.lastLog();
      expect([log.model_name, log.prompt_tokens, log.completion_tokens, log.is_stream]).toEqual(['deepseek-chat', 19, 10, 0]);
      expect(log.quota).toBe((19 + 10 * 3) * 2);
    });

    it('streams Responses events from chat chunks, asking the upstream for usage', async () => {
      const { events, response } = await collect(
        await client.responses.create({ model: 'deepseek-chat', input: 'Hello!', stream: true }),
      );
      const text = events.flatMap((e) => (e.type === 'response.output_text.delta' ? [e.delta] : [])).join('');
      expect(text).toMatch(/^Hello! How can I assist you today\?/);
      expect(response.output[0]).toMatchObject({ type: 'message', content: [{ type: 'output_text', text }] });
      expect(response.usage).toMatchObject({ input_tokens: 19, output_tokens: 18 });
      expect(f.upstream.requests.at(-1)!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
      const log = await f.lastLog();
      expect([log.prompt_tokens, log.completion_tokens, log.is_stream]).toEqual([19, 18, 1]);
      expect(log.quota).toBe((19 + 18 * 3) * 2);
    });

    it('round-trips function calls: tools and call outputs up, function_call items down', async () => {
      const answer = await client.responses.create({
        model: 'deepseek-tools',
        input: [
          { role: 'user', content: 'Weather and time in Paris?' },
          { type: 'function_call', call_id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' },
          { type: 'function_call_output', call_id: 'call_a', output: '{"temp_c":18}' },
        ],
        tools: [weatherTool],
        tool_choice: 'auto',
        reasoning: { effort: 'low' },
      });
      const sent = tools.requests.at(-1)!.body;
      expect(sent.tools).toEqual([
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: weatherTool.description,
            parameters: weatherTool.parameters,
            strict: false,
          },
        },
      ]);
      expect(sent).toMatchObject({ tool_choice: 'auto', reasoning_effort: 'low', stream: false });
      expect(sent.messages).toEqual([
        { role: 'user', content: 'Weather and time in Paris?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
        },
        { role: 'tool', tool_call_id: 'call_a', content: '{"temp_c":18}' },
      ]);
      expect(answer.output.map((o) => o.type)).toEqual(['reasoning', 'function_call', 'function_call']);
      expect(answer.output[1]).toMatchObject({
        type: 'function_call',
        call_id: 'call_00_Q5cXWq0TnDmCg1fNvnb2gR3E',
        name: 'get_weather',
        arguments: '{"city": "Paris"}',
      });
      expect(answer.usage).toMatchObject({
        input_tokens: 212,
        input_tokens_details: { cached_tokens: 128 },
        output_tokens_details: { reasoning_tokens: 41 },
      });
      const log = await f.lastLog();
      expect([log.prompt_tokens, log.completion_tokens]).toEqual([212, 97]);
      expect(JSON.parse(log.other ?? '{}').cache_tokens).toBe(128);
      expect(log.quota).toBe((212 - 128 + 128 * 0.5 + 97 * 3) * 2);
    });

    it('streams function calls the SDK’s stream helper can assemble', async () => {
      const stream = client.responses.stream({ model: 'deepseek-tools', input: 'Weather in Paris?', tools: [weatherTool] });
      const args: string[] = [];
      stream.on('response.function_call_arguments.delta', (e) => args.push(e.delta));
      const response = await stream.finalResponse();
      expect(response.output[0]).toMatchObject({ type: 'message', content: [{ text: 'Let me check the weather.' }] });
      const calls = response.output.filter((o) => o.type === 'function_call');
      expect(calls.map((c) => [c.name, c.arguments])).toEqual([
        ['get_weather', '{"city":"Paris"}'],
        ['get_time', '{"timezone":"Europe/Paris"}'],
      ]);
      expect(args.join('')).toBe('{"city":"Paris"}{"timezone":"Europe/Paris"}');
      expect(tools.requests.at(-1)!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
      const log = await f.lastLog();
      expect([log.prompt_tokens, log.completion_tokens, log.is_stream]).toEqual([187, 46, 1]);
      expect(log.quota).toBe((187 - 64 + 64 * 0.5 + 46 * 3) * 2);
    });

    it('still passes /v1/responses through to an OpenAI channel', async () => {
      const answer = await client.responses.create({ model: 'gpt-4o-mini', input: 'Tell me a story' });
      expect(answer.id).toBe('resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452d3795b');
      expect(f.upstream.requests.at(-1)!.url).toBe('/v1/responses');
    });
  });

  describe('a Claude channel', () => {
    it('converts to Claude Messages and back, billing Claude’s usage', async () => {
      const answer = await client.responses.create({
        model: 'claude-sonnet-4-20250514',
        instructions: 'Be brief.',
        input: [{ role: 'user', content: [{ type: 'input_text', text: 'Hi' }] }],
        max_output_tokens: 100,
      });
      expect(answer.output_text).toBe('Hello! How can I help you today?');
      expect(answer.usage).toMatchObject({ input_tokens: 12, output_tokens: 12 });
      const sent = claude.requests.at(-1)!;
      expect(sent.headers['x-api-key']).toBe('sk-ant-test');
      expect(sent.body).toEqual({
        model: 'claude-sonnet-4-20250514',
        system: 'Be brief.',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
        max_tokens: 100,
        stream: false,
      });
      const log = await f.lastLog();
      expect([log.prompt_tokens, log.completion_tokens]).toEqual([12, 12]);
      expect(log.quota).toBe((12 + 12 * 5) * 1.5);
    });

    it('streams Claude events as Responses events', async () => {
      const { events, response } = await collect(
        await client.responses.create({ model: 'claude-sonnet-4-20250514', input: 'Hi', stream: true }),
      );
      const text = events.flatMap((e) => (e.type === 'response.output_text.delta' ? [e.delta] : [])).join('');
      expect(text).toBe('Hello! How can I help you today?');
      expect(response.usage).toMatchObject({ output_tokens: 12 });
      expect(claude.requests.at(-1)!.body).toMatchObject({ stream: true });
      const log = await f.lastLog();
      expect([log.completion_tokens, log.is_stream]).toEqual([12, 1]);
    });

    it('round-trips tool use and thinking with its signature', async () => {
      const first = await client.responses.create({
        model: 'claude-sonnet-4-20250514',
        input: 'Weather in Paris?',
        tools: [weatherTool],
        tool_choice: { type: 'function', name: 'get_weather' },
      });
      const call = first.output.find((o) => o.type === 'function_call')!;
      expect(call).toMatchObject({
        call_id: 'toolu_01A09q90qw90lq917835lq9',
        name: 'get_weather',
        arguments: JSON.stringify({ location: 'Paris, France', unit: 'celsius' }),
      });
      expect(claude.requests.at(-1)!.body).toMatchObject({
        tools: [{ name: 'get_weather', description: weatherTool.description, input_schema: weatherTool.parameters }],
        tool_choice: { type: 'tool', name: 'get_weather' },
      });

      const stream = client.responses.stream({
        model: 'claude-sonnet-4-20250514',
        input: [
          { role: 'user', content: 'Weather in Paris?' },
          ...first.output,
          { type: 'function_call_output', call_id: call.call_id, output: '18°C' },
        ],
        tools: [weatherTool],
      } as OpenAI.Responses.ResponseCreateParamsStreaming);
      const second = await stream.finalResponse();
      expect(second.output.find((o) => o.type === 'function_call')).toMatchObject({
        name: 'get_weather',
        arguments: expect.stringContaining('San Francisco'),
      });
      const messages = claude.requests.at(-1)!.body.messages;
      expect(messages[1]).toEqual({
        role: 'assistant',
        content: [
          { type: 'text', text: "I'll look up the current weather in Paris for you." },
          {
            type: 'tool_use',
            id: 'toolu_01A09q90qw90lq917835lq9',
            name: 'get_weather',
            input: { location: 'Paris, France', unit: 'celsius' },
          },
        ],
      });
      expect(messages[2]).toMatchObject({
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_01A09q90qw90lq917835lq9', content: '18°C' }],
      });

      // Thinking (reasoning.effort turns it on): its signature comes back as encrypted_content and goes up again.
      const { response: thought } = await collect(
        await client.responses.create({
          model: 'claude-sonnet-4-20250514',
          input: 'What is 27 * 453?',
          reasoning: { effort: 'high' },
          stream: true,
        }),
      );
      expect(claude.requests.at(-1)!.body.thinking).toMatchObject({ type: 'enabled' });
      const reasoning = thought.output[0] as OpenAI.Responses.ResponseReasoningItem;
      expect(reasoning.type).toBe('reasoning');
      expect(reasoning.encrypted_content).toMatch(/^ErUBCkYIBxgCIkA4NFQV7/);
      await client.responses.create({
        model: 'claude-sonnet-4-20250514',
        input: [{ role: 'user', content: 'What is 27 * 453?' }, ...thought.output, { role: 'user', content: 'And times 2?' }],
        reasoning: { effort: 'high' },
      } as OpenAI.Responses.ResponseCreateParamsNonStreaming);
      expect(claude.requests.at(-1)!.body.messages[1].content[0]).toEqual({
        type: 'thinking',
        thinking: reasoning.summary[0]!.text,
        signature: reasoning.encrypted_content,
      });
    });
  });

  describe('a Gemini channel', () => {
    it('converts to generateContent and back, streaming and not', async () => {
      const answer = await client.responses.create({
        model: 'gemini-2.5-flash',
        instructions: 'Be brief.',
        input: 'Capital of France?',
      });
      expect(answer.output_text).toContain('Paris is the capital of France');
      const sent = gemini.requests.at(-1)!;
      expect(sent.url).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
      expect(sent.headers['x-goog-api-key']).toBe('AIza-test');
      expect(sent.body).toMatchObject({
        systemInstruction: { parts: [{ text: 'Be brief.' }] },
        contents: [{ role: 'user', parts: [{ text: 'Capital of France?' }] }],
      });
      let log = await f.lastLog();
      expect([log.prompt_tokens, log.completion_tokens]).toEqual([14, 20]);
      expect(log.quota).toBe(Math.round((14 + 20) * 0.15));

      const { events } = await collect(await client.responses.create({ model: 'gemini-2.5-flash', input: 'joke', stream: true }));
      const text = events.flatMap((e) => (e.type === 'response.output_text.delta' ? [e.delta] : [])).join('');
      expect(text).toContain('outstanding in his field');
      expect(gemini.requests.at(-1)!.url).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
      log = await f.lastLog();
      expect([log.prompt_tokens, log.completion_tokens, log.is_stream]).toEqual([9, 17 + 386, 1]);
    });

    it('turns function declarations and calls both ways', async () => {
      const answer = await client.responses.create({
        model: 'gemini-2.5-flash',
        input: [
          { role: 'user', content: 'Weather in Paris?' },
          { type: 'function_call', call_id: 'call_w', name: 'get_weather', arguments: '{"city":"Paris"}' },
          { type: 'function_call_output', call_id: 'call_w', output: '{"temp_c":18}' },
        ],
        tools: [weatherTool],
      });
      const body = gemini.requests.at(-1)!.body;
      expect(body.tools[0].functionDeclarations[0]).toMatchObject({ name: 'get_weather', description: weatherTool.description });
      expect(body.contents[1]).toMatchObject({
        role: 'model',
        parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }],
      });
      expect(body.contents[2].parts[0].functionResponse).toMatchObject({ name: 'get_weather' });
      expect(answer.output.filter((o) => o.type === 'function_call').map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([
        ['get_weather', { city: 'Paris', unit: 'celsius' }],
        ['get_local_time', { timezone: 'Europe/Paris' }],
      ]);
      expect((await f.lastLog()).prompt_tokens).toBe(96);

      const { response } = await collect(
        await client.responses.create({
          model: 'gemini-2.5-flash',
          input: 'Weather in Tokyo?',
          tools: [weatherTool],
          stream: true,
        }),
      );
      expect(response.output.map((o) => o.type)).toEqual(['reasoning', 'function_call']);
      expect(response.output[1]).toMatchObject({ name: 'get_weather', arguments: '{"city":"Tokyo","unit":"celsius"}' });
    });
  });

  it('answers an upstream error in OpenAI’s shape', async () => {
    await f.addChannel({
      type: 43,
      name: 'down',
      key: 'sk-upstream-invalid',
      base_url: f.upstream.url,
      models: 'deepseek-down',
    });
    await f.root.put('/api/option/', {
      key: 'ModelRatio',
      value: JSON.stringify({ ...JSON.parse(f.tg.gateway.ctx.options.raw('ModelRatio')), 'deepseek-down': 1 }),
    });
    await expect(client.responses.create({ model: 'deepseek-down', input: 'x' })).rejects.toMatchObject({
      status: 401,
      message: expect.stringContaining('Incorrect API key'),
    });
    expect(f.upstream.requests.at(-1)!.url).toBe('/v1/chat/completions');
  });
});
