/**
 * The Claude conversion layer, both directions, replayed from tests/fixtures/providers/claude/.
 * Pure unit tests: no gateway, no network.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../server/relay/wire/events.js';
import { createOpenAIChunkSerializer } from '../../../server/relay/wire/openai/openai-chunks.js';
import { type OpenAIChatRequest } from '../../../server/relay/wire/openai/openai-types.js';
import type { ClaudeRequest } from '../../../server/relay/wire/claude/claude-api-types.js';
import { createClaudeStreamParser } from '../../../server/relay/wire/claude/claude-stream.js';
import { claudeErrorOf, convertClaudeResponse } from '../../../server/relay/wire/claude/convert-claude-response.js';
import {
  convertFromClaudeRequest,
  convertToClaudeResponse,
  createClaudeSseSerializer,
} from '../../../server/relay/wire/claude/convert-from-claude-messages.js';
import {
  convertToClaudeMessages,
  defaultMaxTokens,
  parseToolArguments,
  thinkingBudget,
  type ClaudeSettings,
} from '../../../server/relay/wire/claude/convert-to-claude-messages.js';
import { mapClaudeFinishReason, toClaudeStopReason } from '../../../server/relay/wire/claude/map-claude-finish-reason.js';
import { SseParser, type SseEvent } from '../../../server/relay/wire/sse.js';
import { fitNotes, fitToModel } from '../../../server/relay/wire/fit-to-model.js';
import type { RelayInput } from '../../../server/relay/types.js';

const dir = new URL('../../fixtures/providers/claude/', import.meta.url);
const text = (name: string) => readFileSync(new URL(name, dir), 'utf8');
const json = (name: string): any => JSON.parse(text(name));

/** Parses SSE text the way the relay does, fed in small slices as a network would deliver it. */
function sse(raw: string, slice = 7): SseEvent[] {
  const bytes = new TextEncoder().encode(raw);
  const parser = new SseParser();
  const out: SseEvent[] = [];
  for (let i = 0; i < bytes.length; i += slice) out.push(...parser.push(bytes.subarray(i, i + slice)));
  return [...out, ...parser.end()];
}

function replay(name: string): StreamEvent[] {
  const parser = createClaudeStreamParser({ created: 1_700_000_000 });
  return sse(text(name)).flatMap((e) => parser.push(e));
}

const settings = (over: Partial<ClaudeSettings> = {}): ClaudeSettings => ({
  defaultMaxTokens: { default: 8192, 'claude-sonnet-4-20250514': 16000 },
  thinkingAdapterEnabled: true,
  thinkingBudgetPercentage: 0.8,
  modelHeaders: {},
  ...over,
});

const chat = (over: Partial<OpenAIChatRequest> = {}): OpenAIChatRequest => ({
  model: 'claude-3-5-haiku-20241022',
  messages: [{ role: 'user', content: 'Hi' }],
  ...over,
});

describe('OpenAI chat request → Claude request', () => {
  it('converts system, images, tool calls, tool results, merged turns, stops and tools', () => {
    const { body, headers } = convertToClaudeMessages(json('openai-request-tools.json'), settings());
    expect(body).toEqual(json('claude-request-tools.expected.json'));
    expect(headers).toEqual({ 'anthropic-version': '2023-06-01' });
  });

  it('keeps user and assistant turns alternating', () => {
    const { body } = convertToClaudeMessages(
      chat({
        messages: [
          { role: 'user', content: 'one' },
          { role: 'user', content: [{ type: 'text', text: 'two' }] },
          { role: 'assistant', content: 'three' },
          { role: 'assistant', content: '' },
          { role: 'assistant', content: 'four' },
        ],
      }),
      settings(),
    );
    expect(body.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(body.messages[0]!.content).toEqual([
      { type: 'text', text: 'one' },
      { type: 'text', text: 'two' },
    ]);
    expect(body.messages[1]!.content).toEqual([
      { type: 'text', text: 'three' },
      { type: 'text', text: 'four' },
    ]);
  });

  it('takes max_tokens from the request, then the model, then the default, then 8192', () => {
    expect(convertToClaudeMessages(chat({ max_tokens: 300 }), settings()).body.max_tokens).toBe(300);
    expect(convertToClaudeMessages(chat({ max_completion_tokens: 400 }), settings()).body.max_tokens).toBe(400);
    expect(convertToClaudeMessages(chat({ model: 'claude-sonnet-4-20250514' }), settings()).body.max_tokens).toBe(16000);
    expect(convertToClaudeMessages(chat(), settings({ defaultMaxTokens: { default: 4096 } })).body.max_tokens).toBe(4096);
    expect(defaultMaxTokens(settings({ defaultMaxTokens: {} }), 'x')).toBe(8192);
  });

  it('computes the thinking budget and raises max_tokens when it must', () => {
    expect(thinkingBudget(8192, 0.8)).toEqual({ budgetTokens: 6553, maxTokens: 8192 });
    expect(thinkingBudget(1280, 0.8)).toEqual({ budgetTokens: 1024, maxTokens: 1280 });
    expect(thinkingBudget(1000, 0.8)).toEqual({ budgetTokens: 1024, maxTokens: 2024 });
    expect(thinkingBudget(4096, 1)).toEqual({ budgetTokens: 4096, maxTokens: 8192 });
    expect(thinkingBudget(10000, Number.NaN)).toEqual({ budgetTokens: 8000, maxTokens: 10000 });
  });

  it('turns a -thinking model into thinking, without temperature, top_k or forced tools', () => {
    const tools = [{ type: 'function' as const, function: { name: 'f', parameters: { type: 'object' } } }];
    const { body } = convertToClaudeMessages(
      chat({
        model: 'claude-sonnet-4-20250514-thinking',
        temperature: 0.2,
        top_k: 5,
        top_p: 0.5,
        tools,
        tool_choice: 'required',
      }),
      settings(),
    );
    expect(body.model).toBe('claude-sonnet-4-20250514');
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 12800 });
    expect(body.max_tokens).toBe(16000);
    expect(body).not.toHaveProperty('temperature');
    expect(body).not.toHaveProperty('top_k');
    expect(body).not.toHaveProperty('top_p');
    expect(body.tool_choice).toEqual({ type: 'auto' });
    expect(convertToClaudeMessages(chat({ model: 'm-thinking', top_p: 0.97 }), settings()).body.top_p).toBe(0.97);
  });

  it('turns reasoning_effort into thinking of its level’s budget, only for low/medium/high and with the adapter on', () => {
    const low = convertToClaudeMessages(chat({ reasoning_effort: 'low', max_tokens: 8192 }), settings()).body;
    expect([low.thinking, low.max_tokens]).toEqual([{ type: 'enabled', budget_tokens: 1024 }, 8192]);
    // A budget above max_tokens grows max_tokens, keeping the answer's room.
    const high = convertToClaudeMessages(chat({ reasoning_effort: 'high', max_tokens: 2000 }), settings()).body;
    expect([high.thinking, high.max_tokens]).toEqual([{ type: 'enabled', budget_tokens: 24576 }, 26576]);
    expect(convertToClaudeMessages(chat({ reasoning_effort: 'minimal' }), settings()).body.thinking).toBeUndefined();
    const off = convertToClaudeMessages(
      chat({ model: 'm-thinking', reasoning_effort: 'high' }),
      settings({ thinkingAdapterEnabled: false }),
    );
    expect(off.body.thinking).toBeUndefined();
    expect(off.body.model).toBe('m-thinking');
  });

  it('keeps a model of the thinking blacklist (global.thinking_model_blacklist) as named', () => {
    const listed = convertToClaudeMessages(
      chat({ model: 'kimi-k2-thinking' }),
      settings({ thinkingSuffixExempt: ['kimi-k2-thinking'] }),
    );
    expect([listed.body.model, listed.body.thinking]).toEqual(['kimi-k2-thinking', undefined]);
    const other = convertToClaudeMessages(
      chat({ model: 'm-thinking' }),
      settings({ thinkingSuffixExempt: ['kimi-k2-thinking'] }),
    );
    expect(other.body.model).toBe('m');
    expect(other.body.thinking).toBeDefined();
  });

  it('adds the per-model headers', () => {
    const modelHeaders = { 'claude-sonnet-4-20250514': { 'anthropic-beta': 'context-1m-2025-08-07' } };
    const { headers } = convertToClaudeMessages(chat({ model: 'claude-sonnet-4-20250514-thinking' }), settings({ modelHeaders }));
    expect(headers).toEqual({ 'anthropic-version': '2023-06-01', 'anthropic-beta': 'context-1m-2025-08-07' });
  });

  it('sends signed thinking blocks back untouched and drops unsigned reasoning', () => {
    const answer = convertClaudeResponse(json('message-thinking.json')).body.choices[0]!.message;
    const { body } = convertToClaudeMessages(
      chat({ messages: [{ role: 'user', content: '27 * 453?' }, answer, { role: 'user', content: 'Thanks' }] }),
      settings(),
    );
    const original = json('message-thinking.json').content;
    expect(body.messages[1]!.content).toEqual(original);
    const unsigned = convertToClaudeMessages(
      chat({
        messages: [
          { role: 'user', content: 'q' },
          { role: 'assistant', content: 'a', reasoning_content: 'hmm' },
        ],
      }),
      settings(),
    );
    expect(unsigned.body.messages[1]!.content).toEqual([{ type: 'text', text: 'a' }]);
  });

  it('maps tool_choice and leaves it out without tools', () => {
    const tools = [{ type: 'function' as const, function: { name: 'lookup' } }];
    const choice = (tool_choice: OpenAIChatRequest['tool_choice']) =>
      convertToClaudeMessages(chat({ tools, tool_choice }), settings()).body;
    expect(choice('auto').tool_choice).toEqual({ type: 'auto' });
    expect(choice('none').tool_choice).toEqual({ type: 'none' });
    expect(choice({ type: 'function', function: { name: 'lookup' } }).tool_choice).toEqual({ type: 'tool', name: 'lookup' });
    expect(choice('auto').tools).toEqual([{ name: 'lookup', input_schema: { type: 'object', properties: {} } }]);
    expect(convertToClaudeMessages(chat({ tool_choice: 'required' }), settings()).body).not.toHaveProperty('tool_choice');
  });

  it('drops images it cannot express and arguments that are not a JSON object', () => {
    const { body } = convertToClaudeMessages(
      chat({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image_url', image_url: { url: 'data:image/png,rawbytes' } },
              { type: 'image_url', image_url: { url: 'ftp://example.org/a.png' } },
              { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/4AAQ' } },
            ],
          },
        ],
      }),
      settings(),
    );
    expect(body.messages[0]!.content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/4AAQ' } },
    ]);
    expect(parseToolArguments('{"a":1}')).toEqual({ a: 1 });
    expect(parseToolArguments('[1,2]')).toEqual({});
    expect(parseToolArguments('{"a":')).toEqual({});
    expect(parseToolArguments('')).toEqual({});
  });
});

describe('Claude answer → OpenAI chat.completion', () => {
  it('converts a text answer', () => {
    const { body, usage } = convertClaudeResponse(json('message-text.json'), { created: 1_700_000_000 });
    expect(body).toEqual({
      id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'claude-sonnet-4-20250514',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello! How can I help you today?' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 12, completion_tokens: 12, total_tokens: 24, prompt_tokens_details: { cached_tokens: 0 } },
    });
    expect(usage).toEqual({ promptTokens: 12, completionTokens: 12, cachedTokens: 0, cacheWriteTokens: 0 });
  });

  it('converts tool_use into tool_calls', () => {
    const { body } = convertClaudeResponse(json('message-tool-use.json'), { model: 'asked-name' });
    const choice = body.choices[0]!;
    expect(body.model).toBe('asked-name');
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBe("I'll look up the current weather in Paris for you.");
    expect(choice.message.tool_calls).toEqual([
      { id: 'toolu_01A09q90qw90lq917835lq9', type: 'function', function: { name: 'get_weather', arguments: expect.any(String) } },
    ]);
    expect(JSON.parse(choice.message.tool_calls![0]!.function.arguments)).toEqual({ location: 'Paris, France', unit: 'celsius' });
  });

  it('gives thinking as reasoning_content and keeps every signature', () => {
    const fixture = json('message-thinking.json');
    const message = convertClaudeResponse(fixture).body.choices[0]!.message;
    expect(message.content).toBe('27 × 453 = 12,231.');
    expect(message.reasoning_content).toBe(fixture.content[0].thinking);
    expect(message.thinking_blocks).toEqual([fixture.content[0], fixture.content[1]]);
  });

  it('counts cache reads and writes into the prompt', () => {
    const { body, usage } = convertClaudeResponse(json('message-cache-usage.json'));
    expect(usage).toEqual({
      promptTokens: 21 + 12045 + 1888,
      completionTokens: 393,
      cachedTokens: 12045,
      cacheWriteTokens: 1888,
    });
    expect(body.usage).toEqual({
      prompt_tokens: 13954,
      completion_tokens: 393,
      total_tokens: 14347,
      prompt_tokens_details: { cached_tokens: 12045 },
    });
    expect(body.choices[0]!.finish_reason).toBe('length');
  });

  it('maps stop reasons both ways and reads error bodies', () => {
    const reasons = ['end_turn', 'stop_sequence', 'max_tokens', 'tool_use', 'refusal', 'pause_turn', null];
    expect(reasons.map(mapClaudeFinishReason)).toEqual([
      'stop',
      'stop',
      'length',
      'tool_calls',
      'content_filter',
      'stop',
      'stop',
    ]);
    expect(['stop', 'length', 'tool_calls', 'content_filter'].map(toClaudeStopReason)).toEqual([
      'end_turn',
      'max_tokens',
      'tool_use',
      'refusal',
    ]);
    expect(claudeErrorOf(json('error-overloaded.json'))).toEqual({ type: 'overloaded_error', message: 'Overloaded' });
    expect(claudeErrorOf(json('error-invalid-request.json'))?.type).toBe('invalid_request_error');
    expect(claudeErrorOf(json('message-text.json'))).toBeNull();
  });
});

describe('Claude stream → StreamEvents', () => {
  it('replays a text stream', () => {
    expect(replay('stream-text.chunks.txt')).toEqual([
      { type: 'start', id: 'msg_01LSPsY3xL3nkGVgu8m4oDfj', model: 'claude-sonnet-4-20250514', created: 1_700_000_000 },
      { type: 'usage', usage: { promptTokens: 14, completionTokens: 1, cachedTokens: 0, cacheWriteTokens: 0 } },
      { type: 'text', index: 0, text: 'Hello' },
      { type: 'text', index: 0, text: '! How can I' },
      { type: 'text', index: 0, text: ' help you today?' },
      { type: 'finish', index: 0, reason: 'stop' },
      { type: 'usage', usage: { promptTokens: 14, completionTokens: 12, cachedTokens: 0, cacheWriteTokens: 0 } },
    ]);
  });

  it('assembles tool-call arguments from partial JSON, with cached usage', () => {
    const events = replay('stream-tool-use.chunks.txt');
    const calls = events.filter((e) => e.type === 'tool_call');
    expect(calls[0]).toEqual({
      type: 'tool_call',
      index: 0,
      callIndex: 0,
      id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
      name: 'get_weather',
      arguments: '',
    });
    expect(calls.slice(1).every((c) => c.id === undefined && c.callIndex === 0)).toBe(true);
    expect(JSON.parse(calls.map((c) => c.arguments).join(''))).toEqual({ location: 'San Francisco, CA', unit: 'fahrenheit' });
    expect(events.find((e) => e.type === 'finish')).toEqual({ type: 'finish', index: 0, reason: 'tool_calls' });
    expect(events.at(-1)).toEqual({
      type: 'usage',
      usage: { promptTokens: 472 + 2048, completionTokens: 89, cachedTokens: 2048, cacheWriteTokens: 0 },
    });
  });

  it('passes thinking and its signature through', () => {
    const events = replay('stream-thinking.chunks.txt');
    const signature = sse(text('stream-thinking.chunks.txt'))
      .map((e) => JSON.parse(e.data))
      .find((d) => d.delta?.type === 'signature_delta').delta.signature;
    const reasoning = events.filter((e) => e.type === 'reasoning');
    expect(reasoning.map((e) => e.text).join('')).toBe(
      'Let me solve this step by step.\n\nFirst, break down 27 * 453\n27 * 453 = 27 * 400 + 27 * 53 = 10800 + 1431 = 12231',
    );
    expect(reasoning.at(-1)).toEqual({ type: 'reasoning', index: 0, text: '', signature });
    expect(events.filter((e) => e.type === 'text').map((e) => e.text)).toEqual(['27 × 453 = ', '12,231.']);
  });

  it('ends with an error event', () => {
    const events = replay('stream-error.chunks.txt');
    expect(events.at(-1)).toEqual({ type: 'error', message: 'overloaded_error: Overloaded' });
  });

  it('gives a tool without input "{}" and takes later usage fields from message_delta', () => {
    const parser = createClaudeStreamParser({ created: 1 });
    const push = (data: object) => parser.push({ event: 'message', data: JSON.stringify(data) });
    push({ type: 'message_start', message: { id: 'm', model: 'c', usage: { input_tokens: 10, output_tokens: 1 } } });
    push({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 't', name: 'now', input: {} } });
    expect(push({ type: 'content_block_stop', index: 0 })).toEqual([
      { type: 'tool_call', index: 0, callIndex: 0, arguments: '{}' },
    ]);
    push({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use' },
      usage: { input_tokens: 30, cache_read_input_tokens: 5, output_tokens: 7 },
    });
    expect(parser.usage()).toEqual({ promptTokens: 35, completionTokens: 7, cachedTokens: 5, cacheWriteTokens: 0 });
    expect(push({ type: 'ping' })).toEqual([]);
    expect(parser.push({ event: 'message', data: 'not json' })[0]?.type).toBe('error');
  });
});

describe('StreamEvents → OpenAI chat chunks', () => {
  const serialize = (events: StreamEvent[], includeUsage: boolean, model?: string) => {
    const s = createOpenAIChunkSerializer({ includeUsage, model });
    const raw = events.map((e) => s.push(e)).join('') + s.end();
    const parsed = sse(raw, 13);
    expect(parsed.at(-1)?.data).toBe('[DONE]');
    return parsed.slice(0, -1).map((e) => JSON.parse(e.data));
  };

  it('streams role, reasoning, the signed thinking block, text, finish and usage', () => {
    const events = replay('stream-thinking.chunks.txt');
    const chunks = serialize(events, true);
    const deltas = chunks.map((c) => c.choices[0]?.delta);
    expect(chunks.every((c) => c.object === 'chat.completion.chunk' && c.id === 'msg_01Cxm6uE3YEDspWfcUhHDyb2')).toBe(true);
    expect(deltas[0]).toEqual({ role: 'assistant', content: '' });
    expect(deltas.slice(1, 4).map((d) => d.reasoning_content)).toEqual([
      'Let me solve this step by step.\n\n',
      'First, break down 27 * 453',
      '\n27 * 453 = 27 * 400 + 27 * 53 = 10800 + 1431 = 12231',
    ]);
    const signature = events.flatMap((e) => (e.type === 'reasoning' && e.signature ? [e.signature] : []))[0];
    expect(signature).toMatch(/^ErUB/);
    expect(deltas[4]).toEqual({
      thinking_blocks: [
        {
          type: 'thinking',
          thinking: deltas
            .slice(1, 4)
            .map((d) => d.reasoning_content)
            .join(''),
          signature,
        },
      ],
    });
    expect(deltas.slice(5, 7)).toEqual([{ content: '27 × 453 = ' }, { content: '12,231.' }]);
    expect(chunks[7].choices[0]).toEqual({ index: 0, delta: {}, finish_reason: 'stop' });
    expect(chunks[8]).toMatchObject({ choices: [], usage: { prompt_tokens: 47, completion_tokens: 178, total_tokens: 225 } });
    expect(chunks).toHaveLength(9);
  });

  it('streams tool calls with index, id, name and arguments, and no usage unless asked', () => {
    const chunks = serialize(replay('stream-tool-use.chunks.txt'), false, 'client-model');
    const pieces = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(pieces[0]).toEqual({
      index: 0,
      id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
      type: 'function',
      function: { name: 'get_weather', arguments: '' },
    });
    expect(pieces.slice(1).every((p) => p.index === 0 && p.id === undefined && p.function.name === undefined)).toBe(true);
    expect(JSON.parse(pieces.map((p) => p.function.arguments).join(''))).toEqual({
      location: 'San Francisco, CA',
      unit: 'fahrenheit',
    });
    expect(chunks.at(-1).choices[0].finish_reason).toBe('tool_calls');
    expect(chunks.every((c) => c.model === 'client-model' && c.choices.length === 1)).toBe(true);
  });

  it('gives an upstream error as an error payload', () => {
    const chunks = serialize(replay('stream-error.chunks.txt'), true);
    expect(chunks.at(-3)).toMatchObject({ choices: [{ delta: { content: 'Once upon' } }] });
    expect(chunks.at(-2)).toEqual({
      error: { message: 'overloaded_error: Overloaded', type: 'upstream_error', param: null, code: null },
    });
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 25 } });
  });
});

describe('Claude-format clients on OpenAI channels', () => {
  it('converts a Claude Code request', () => {
    const request: ClaudeRequest = json('claude-code-request.json');
    // Thinking travels as reasoning_effort, which an OpenAI model that does not think is not sent
    // (the request is fitted to the model it goes to).
    const converted = convertFromClaudeRequest(request);
    expect(converted).toEqual({ ...json('openai-from-claude-code.expected.json'), reasoning_effort: 'high' });
    const input = { client: 'claude' } as RelayInput;
    const forChannel = fitToModel(input, { ...converted, model: 'gpt-4.1' }, 'openai', {});
    expect(forChannel).toEqual({ ...json('openai-from-claude-code.expected.json'), model: 'gpt-4.1' });
    expect(fitNotes(input)).toEqual(['reasoning_effort dropped: gpt-4.1 does not think']);
  });

  it('round-trips thinking blocks and their signatures untouched', () => {
    const request: ClaudeRequest = json('claude-code-request.json');
    const back = convertToClaudeMessages(convertFromClaudeRequest(request), settings()).body;
    const original = request.messages[1]!.content as object[];
    expect((back.messages[1]!.content as object[]).slice(0, 2)).toEqual(original.slice(0, 2));
  });

  it('converts an OpenAI answer into a Claude message', () => {
    const answer = {
      id: 'chatcmpl-1',
      model: 'deepseek-reasoner',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            reasoning_content: 'Need the file.',
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'Read', arguments: '{"file_path":"/a"}' } }],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120, prompt_tokens_details: { cached_tokens: 64 } },
    };
    expect(convertToClaudeResponse(answer)).toEqual({
      id: 'chatcmpl-1',
      type: 'message',
      role: 'assistant',
      model: 'deepseek-reasoner',
      content: [
        { type: 'thinking', thinking: 'Need the file.', signature: '' },
        { type: 'tool_use', id: 'call_1', name: 'Read', input: { file_path: '/a' } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 36, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 64 },
    });
    const text = convertToClaudeResponse(JSON.parse(readFileSync(new URL('../openai/chat-completion.json', dir), 'utf8')));
    expect(text.content).toEqual([{ type: 'text', text: 'Hello! How can I assist you today?' }]);
    expect(text.usage).toMatchObject({ input_tokens: 19, output_tokens: 10 });
  });

  it('serializes StreamEvents as Claude events that parse back to the same events', () => {
    const events = replay('stream-thinking.chunks.txt');
    const s = createClaudeSseSerializer();
    const raw = events.map((e) => s.push(e)).join('') + s.end();
    const parsed = sse(raw, 11);
    const data = parsed.map((e) => JSON.parse(e.data));
    expect(parsed.every((e, i) => e.event === data[i].type)).toBe(true);
    expect(data.map((d) => d.delta?.type ?? d.content_block?.type ?? d.type)).toEqual([
      'message_start',
      'thinking',
      'thinking_delta',
      'thinking_delta',
      'thinking_delta',
      'signature_delta',
      'content_block_stop',
      'text',
      'text_delta',
      'text_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(data.at(-2)).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { input_tokens: 47, output_tokens: 178, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
    const again = createClaudeStreamParser({ created: 1_700_000_000 });
    expect(parsed.flatMap((e) => again.push(e)).filter((e) => e.type !== 'usage')).toEqual(
      events.filter((e) => e.type !== 'usage'),
    );
  });

  it('serializes OpenAI-style tool calls as tool_use blocks', () => {
    const s = createClaudeSseSerializer({ model: 'claude-sonnet-4-20250514' });
    const events: StreamEvent[] = [
      { type: 'start', id: 'chatcmpl-9', model: 'gpt-4o', created: 1 },
      { type: 'text', index: 0, text: 'Reading both.' },
      { type: 'tool_call', index: 0, callIndex: 0, id: 'call_a', name: 'Read', arguments: '' },
      { type: 'tool_call', index: 0, callIndex: 0, arguments: '{"file_path":' },
      { type: 'tool_call', index: 0, callIndex: 0, arguments: '"/a"}' },
      { type: 'tool_call', index: 0, callIndex: 1, id: 'call_b', name: 'Read', arguments: '{"file_path":"/b"}' },
      { type: 'finish', index: 0, reason: 'tool_calls' },
      { type: 'usage', usage: { promptTokens: 50, completionTokens: 9, cachedTokens: 10 } },
    ];
    const data = sse(events.map((e) => s.push(e)).join('') + s.end()).map((e) => JSON.parse(e.data));
    expect(data[0].message).toMatchObject({ id: 'chatcmpl-9', model: 'claude-sonnet-4-20250514', content: [] });
    const starts = data.filter((d) => d.type === 'content_block_start');
    expect(starts.map((d) => [d.index, d.content_block])).toEqual([
      [0, { type: 'text', text: '' }],
      [1, { type: 'tool_use', id: 'call_a', name: 'Read', input: {} }],
      [2, { type: 'tool_use', id: 'call_b', name: 'Read', input: {} }],
    ]);
    const json1 = data.filter((d) => d.index === 1 && d.delta?.type === 'input_json_delta').map((d) => d.delta.partial_json);
    expect(JSON.parse(json1.join(''))).toEqual({ file_path: '/a' });
    expect(data.filter((d) => d.type === 'content_block_stop').map((d) => d.index)).toEqual([0, 1, 2]);
    expect(data.at(-2)).toMatchObject({
      delta: { stop_reason: 'tool_use' },
      usage: { input_tokens: 40, output_tokens: 9, cache_read_input_tokens: 10 },
    });
  });

  it('sends an error event and nothing after it', () => {
    const s = createClaudeSseSerializer();
    const raw = s.push({ type: 'error', message: 'upstream 500' });
    expect(s.end()).toBe('');
    expect(sse(raw).map((e) => [e.event, JSON.parse(e.data)])).toEqual([
      ['message_start', expect.objectContaining({ type: 'message_start' })],
      ['error', { type: 'error', error: { type: 'api_error', message: 'upstream 500' } }],
    ]);
  });
});
