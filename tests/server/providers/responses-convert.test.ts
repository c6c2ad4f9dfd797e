/**
 * The OpenAI Responses conversion layer: Responses request → chat request, chat.completion →
 * Response, and StreamEvents → Responses server-sent events, replayed from
 * tests/fixtures/providers/{responses,openai,claude,gemini}/. Pure unit tests: no gateway, no network.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../server/relay/wire/events.js';
import { createOpenAIStreamParser } from '../../../server/relay/wire/openai/openai-stream-parser.js';
import { convertResponsesToChat } from '../../../server/relay/wire/openai/responses-request.js';
import { convertChatToResponse, newResponseId, responseShell } from '../../../server/relay/wire/openai/responses-answer.js';
import { createResponsesSseSerializer } from '../../../server/relay/wire/openai/responses-stream.js';
import { createClaudeStreamParser } from '../../../server/relay/wire/claude/claude-stream.js';
import { convertClaudeResponse } from '../../../server/relay/wire/claude/convert-claude-response.js';
import { createGeminiStreamParser } from '../../../server/relay/wire/gemini/gemini-stream.js';
import { SseParser, type SseEvent } from '../../../server/relay/wire/sse.js';

const text = (provider: string, name: string) =>
  readFileSync(new URL(`../../fixtures/providers/${provider}/${name}`, import.meta.url), 'utf8');
const json = (provider: string, name: string): any => JSON.parse(text(provider, name));

function sse(raw: string): SseEvent[] {
  const parser = new SseParser();
  return [...parser.push(new TextEncoder().encode(raw)), ...parser.end()];
}

/** Replays a provider's stream fixture through its parser into StreamEvents. */
function replay(provider: 'openai' | 'claude' | 'gemini', dir: string, name: string): StreamEvent[] {
  const parser =
    provider === 'openai'
      ? createOpenAIStreamParser()
      : provider === 'claude'
        ? createClaudeStreamParser({ created: 1_700_000_000 })
        : createGeminiStreamParser({ model: 'gemini-2.5-flash', newId: () => 'gemini_1' });
  return sse(text(dir, name)).flatMap((e) => parser.push(e));
}

interface Emitted {
  event: string;
  data: any;
}

/** Serializes StreamEvents as Responses SSE and parses the text back, checking the framing. */
function serialize(events: StreamEvent[], request: Record<string, unknown> | null = null): Emitted[] {
  const serializer = createResponsesSseSerializer({ model: 'test-model', request, id: 'resp_test', createdAt: 1_700_000_000 });
  const raw = events.map((e) => serializer.push(e)).join('') + serializer.end();
  const out = sse(raw).map((e) => ({ event: e.event, data: JSON.parse(e.data) }));
  out.forEach((e, i) => {
    expect(e.data.type).toBe(e.event);
    expect(e.data.sequence_number).toBe(i);
  });
  return out;
}

const final = (events: Emitted[]) => events.at(-1)!.data.response;

describe('Responses request → OpenAI chat request', () => {
  it('converts instructions, message, reasoning, function call and output items, tools, format and limits', () => {
    expect(convertResponsesToChat(json('responses', 'request-tools.json'))).toEqual(
      json('responses', 'request-tools.chat.expected.json'),
    );
  });

  it('takes a plain string input and leaves out what was not asked', () => {
    expect(
      convertResponsesToChat({ model: 'm', instructions: 'Be brief.', input: 'Hi', metadata: { a: 1 }, store: true }),
    ).toEqual({
      model: 'm',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
      ],
    });
  });

  it('maps function tool choices, allowed tools, json_object and drops a tool choice without tools', () => {
    const tools = [{ type: 'function', name: 'f', parameters: { type: 'object' } }];
    expect(convertResponsesToChat({ input: 'x', tools, tool_choice: { type: 'function', name: 'f' } }).tool_choice).toEqual({
      type: 'function',
      function: { name: 'f' },
    });
    expect(
      convertResponsesToChat({ input: 'x', tools, tool_choice: { type: 'allowed_tools', mode: 'required' } }).tool_choice,
    ).toBe('required');
    const hostedOnly = convertResponsesToChat({ input: 'x', tools: [{ type: 'web_search' }], tool_choice: 'required' });
    expect(hostedOnly.tools).toBeUndefined();
    expect(hostedOnly.tool_choice).toBeUndefined();
    expect(convertResponsesToChat({ input: 'x', text: { format: { type: 'json_object' } } }).response_format).toEqual({
      type: 'json_object',
    });
    expect(convertResponsesToChat({ input: 'x', text: { format: { type: 'text' } } }).response_format).toBeUndefined();
  });

  it('starts a new assistant turn after text or calls, and reads function outputs given as parts', () => {
    const chat = convertResponsesToChat({
      input: [
        { role: 'user', content: 'one' },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'two' }] },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'three' }] },
        { type: 'reasoning', summary: [{ type: 'summary_text', text: 'thinking' }] },
        { type: 'function_call', call_id: 'c1', name: 'f', arguments: '' },
        {
          type: 'function_call_output',
          call_id: 'c1',
          output: [
            { type: 'input_text', text: 'a' },
            { type: 'input_text', text: 'b' },
          ],
        },
        { type: 'input_file', file_id: 'file-1' },
        { role: 'user', content: [{ type: 'input_file', filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBE' }] },
      ],
    });
    expect(chat.messages).toEqual([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'two' },
      { role: 'assistant', content: 'three' },
      {
        role: 'assistant',
        content: null,
        reasoning_content: 'thinking',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'a\nb' },
      { role: 'user', content: [{ type: 'file', file: { file_data: 'data:application/pdf;base64,JVBE', filename: 'a.pdf' } }] },
    ]);
  });

  it('never throws on odd bodies', () => {
    expect(convertResponsesToChat({})).toEqual({ model: '', messages: [] });
    expect(convertResponsesToChat({ input: [null, 3, { type: 'message', role: 'user', content: 7 }] }).messages).toEqual([
      { role: 'user', content: [] },
    ]);
  });
});

describe('OpenAI chat.completion → Response', () => {
  it('turns reasoning and tool calls into output items, echoes the request and maps usage', () => {
    const response = convertChatToResponse(json('responses', 'chat-tool-calls.json'), {
      model: 'deepseek-reasoner',
      request: json('responses', 'request-tools.json'),
      id: 'resp_test',
    });
    expect(response).toEqual(json('responses', 'chat-tool-calls.response.expected.json'));
  });

  it('has the shape of a real Response (tests/fixtures/providers/openai/response.json)', () => {
    const real = json('openai', 'response.json');
    const response = convertChatToResponse(json('openai', 'chat-completion.json'), {
      model: 'gpt-4o-mini',
      request: { input: 'Hello!' },
    });
    expect(Object.keys(response).sort()).toEqual(Object.keys(real).sort());
    expect(Object.keys(response.usage!).sort()).toEqual(Object.keys(real.usage).sort());
    expect(Object.keys(response.output[0]!).sort()).toEqual(Object.keys(real.output[0]).sort());
    expect(response.id).toMatch(/^resp_[0-9a-f]{48}$/);
    expect(response.output).toEqual([
      {
        type: 'message',
        id: `msg_${response.id.slice(5)}_0`,
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Hello! How can I assist you today?', annotations: [] }],
      },
    ]);
    expect(response).toMatchObject({
      object: 'response',
      status: 'completed',
      created_at: 1741570283,
      model: 'gpt-4o-mini',
      tool_choice: 'auto',
      text: { format: { type: 'text' } },
      usage: { input_tokens: 19, output_tokens: 10, total_tokens: 29, input_tokens_details: { cached_tokens: 0 } },
    });
  });

  it('marks an answer cut by the token limit or a filter as incomplete', () => {
    const cut = (finish_reason: string) =>
      convertChatToResponse(
        { choices: [{ index: 0, message: { role: 'assistant', content: 'part' }, finish_reason }] },
        { model: 'm', request: null, id: 'resp_x' },
      );
    expect(cut('length')).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
    expect(cut('content_filter')).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'content_filter' } });
    expect(cut('stop')).toMatchObject({ status: 'completed', incomplete_details: null, usage: null });
  });

  it('keeps Claude thinking signatures and redacted thinking as encrypted_content, which a client sends back unchanged', () => {
    const claude = json('claude', 'message-thinking.json');
    const { body } = convertClaudeResponse(claude, { model: 'claude-sonnet-4-20250514' });
    const response = convertChatToResponse(body, { model: 'claude-sonnet-4-20250514', request: null, id: 'resp_t' });
    const [thinking, redacted] = claude.content;
    expect(response.output.slice(0, 2)).toEqual([
      {
        type: 'reasoning',
        id: 'rs_t_0',
        summary: [{ type: 'summary_text', text: thinking.thinking }],
        encrypted_content: thinking.signature,
      },
      { type: 'reasoning', id: 'rs_t_1', summary: [], encrypted_content: `redacted_thinking:${redacted.data}` },
    ]);
    expect(response.output[2]).toMatchObject({ type: 'message', id: 'msg_t_2', content: [{ text: '27 × 453 = 12,231.' }] });
    const next = convertResponsesToChat({
      input: [{ role: 'user', content: 'q' }, ...response.output, { role: 'user', content: 'more' }],
    });
    expect(next.messages[1]).toEqual({
      role: 'assistant',
      content: '27 × 453 = 12,231.',
      reasoning_content: thinking.thinking,
      thinking_blocks: [
        { type: 'thinking', thinking: thinking.thinking, signature: thinking.signature },
        { type: 'redacted_thinking', data: redacted.data },
      ],
    });
  });

  it('makes unique response ids and a shell with defaults', () => {
    expect(newResponseId()).not.toBe(newResponseId());
    expect(responseShell({ model: 'm', request: null }, 'resp_1', 5)).toMatchObject({
      status: 'in_progress',
      output: [],
      usage: null,
      temperature: 1,
      top_p: 1,
      parallel_tool_calls: true,
      store: false,
    });
  });
});

describe('StreamEvents → Responses server-sent events', () => {
  it('streams text then two function calls from chat chunks, each item opened, filled and closed in order', () => {
    const events = serialize(replay('openai', 'responses', 'chat-tool-calls-stream.chunks.txt'));
    expect(events.map((e) => e.event)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      ...Array<string>(5).fill('response.function_call_arguments.delta'),
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.output_item.added',
      ...Array<string>(2).fill('response.function_call_arguments.delta'),
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events[0]!.data.response).toMatchObject({ id: 'resp_test', status: 'in_progress', output: [], usage: null });
    expect(events[2]!.data).toMatchObject({
      output_index: 0,
      item: { id: 'msg_test_0', type: 'message', status: 'in_progress', role: 'assistant', content: [] },
    });
    expect(events[3]!.data).toMatchObject({
      item_id: 'msg_test_0',
      output_index: 0,
      content_index: 0,
      part: { type: 'output_text', text: '' },
    });
    expect(events[4]!.data).toMatchObject({
      item_id: 'msg_test_0',
      output_index: 0,
      content_index: 0,
      delta: 'Let me',
      logprobs: [],
    });
    expect(events[10]!.data.item).toEqual({
      type: 'function_call',
      id: 'fc_test_1',
      status: 'in_progress',
      call_id: 'call_00_b3X9kQ2mVn7YpL4rT8sW1eZc',
      name: 'get_weather',
      arguments: '',
    });
    expect(events[16]!.data).toMatchObject({ item_id: 'fc_test_1', output_index: 1, arguments: '{"city":"Paris"}' });
    const response = final(events);
    expect(response.status).toBe('completed');
    expect(response.output).toEqual([
      {
        type: 'message',
        id: 'msg_test_0',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Let me check the weather.', annotations: [] }],
      },
      {
        type: 'function_call',
        id: 'fc_test_1',
        status: 'completed',
        call_id: 'call_00_b3X9kQ2mVn7YpL4rT8sW1eZc',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
      },
      {
        type: 'function_call',
        id: 'fc_test_2',
        status: 'completed',
        call_id: 'call_01_h6Fq0Zt3Nc8WmR5yK2pD9uJa',
        name: 'get_time',
        arguments: '{"timezone":"Europe/Paris"}',
      },
    ]);
    expect(response.usage).toEqual({
      input_tokens: 187,
      input_tokens_details: { cached_tokens: 64 },
      output_tokens: 46,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 233,
    });
  });

  it('matches the events of a real Responses stream (tests/fixtures/providers/openai/response-stream.chunks.txt)', () => {
    const real = sse(text('openai', 'response-stream.chunks.txt')).map((e) => JSON.parse(e.data));
    const ours = serialize(replay('openai', 'openai', 'chat-completion-stream.chunks.txt')).map((e) => e.data);
    const keysOf = (type: string, list: any[]) => Object.keys(list.find((e) => e.type === type)).sort();
    for (const type of ['response.created', 'response.output_text.delta', 'response.output_text.done', 'response.completed']) {
      expect(keysOf(type, ours).filter((k) => k !== 'logprobs')).toEqual(keysOf(type, real));
    }
    const done = ours.at(-1).response;
    const realDone = real.at(-1).response;
    expect(Object.keys(done).sort()).toEqual(Object.keys(realDone).sort());
    expect(Object.keys(done.output[0]).sort()).toEqual(Object.keys(realDone.output[0]).sort());
    expect(done.output[0].content[0].text).toMatch(/^Hello! How can I assist you today\? I'm here to help/);
    expect(done.usage).toMatchObject({ input_tokens: 19, output_tokens: 18, total_tokens: 37 });
  });

  it('streams Claude thinking as a reasoning item whose signature becomes encrypted_content', () => {
    const events = serialize(replay('claude', 'claude', 'stream-thinking.chunks.txt'));
    const types = events.map((e) => e.event);
    expect(types.slice(2, 4)).toEqual(['response.output_item.added', 'response.reasoning_summary_part.added']);
    expect(events[2]!.data.item).toEqual({ type: 'reasoning', id: 'rs_test_0', summary: [] });
    const deltas = events.filter((e) => e.event === 'response.reasoning_summary_text.delta');
    expect(deltas[0]!.data).toMatchObject({ item_id: 'rs_test_0', output_index: 0, summary_index: 0 });
    const thinking = deltas.map((e) => e.data.delta).join('');
    expect(thinking).toContain('27 * 453');
    expect(events.find((e) => e.event === 'response.reasoning_summary_text.done')!.data.text).toBe(thinking);
    const response = final(events);
    expect(response.output[0]).toEqual({
      type: 'reasoning',
      id: 'rs_test_0',
      summary: [{ type: 'summary_text', text: thinking }],
      encrypted_content: expect.stringMatching(/^ErUBCkYIBxgCIkA4NFQV7/),
    });
    expect(response.output[1]).toMatchObject({
      type: 'message',
      id: 'msg_test_1',
      content: [{ text: expect.stringContaining('12,231') }],
    });
    expect(response.usage.input_tokens).toBe(47);
  });

  it('streams a Claude tool use as a message then a function call', () => {
    const response = final(serialize(replay('claude', 'claude', 'stream-tool-use.chunks.txt')));
    expect(response.output.map((o: any) => o.type)).toEqual(['message', 'function_call']);
    expect(response.output[1]).toEqual({
      type: 'function_call',
      id: 'fc_test_1',
      status: 'completed',
      call_id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
      name: 'get_weather',
      arguments: '{"location": "San Francisco, CA", "unit": "fahrenheit"}',
    });
    // Claude's usage: cache reads are part of the input.
    expect(response.usage).toMatchObject({
      input_tokens: 472 + 2048,
      input_tokens_details: { cached_tokens: 2048 },
      output_tokens: 89,
    });
  });

  it('streams Gemini thoughts and a whole function call', () => {
    const events = serialize(replay('gemini', 'gemini', 'stream-function-call.chunks.txt'));
    const response = final(events);
    expect(response.output.map((o: any) => o.type)).toEqual(['reasoning', 'function_call']);
    expect(response.output[1]).toMatchObject({
      call_id: 'call_gemini_1',
      name: 'get_weather',
      arguments: '{"city":"Tokyo","unit":"celsius"}',
    });
    expect(events.filter((e) => e.event === 'response.function_call_arguments.delta')).toHaveLength(1);
  });

  it('ends with response.incomplete after the token limit and response.failed after an error', () => {
    const start: StreamEvent = { type: 'start', id: 'x', model: 'm', created: 1 };
    const cut = serialize([start, { type: 'text', index: 0, text: 'Once' }, { type: 'finish', index: 0, reason: 'length' }]);
    expect(cut.at(-1)!.event).toBe('response.incomplete');
    expect(final(cut)).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
      output: [{ status: 'incomplete' }],
    });
    const failed = serialize([start, { type: 'text', index: 0, text: 'Once' }, { type: 'error', message: 'overloaded' }]);
    expect(failed.map((e) => e.event).slice(-5)).toEqual([
      'error',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.failed',
    ]);
    expect(failed.at(-5)!.data).toMatchObject({ message: 'overloaded' });
    expect(final(failed)).toMatchObject({ status: 'failed', error: { code: 'server_error', message: 'overloaded' } });
  });

  it('answers an empty stream with an empty completed response, and ignores other choices', () => {
    expect(serialize([]).map((e) => e.event)).toEqual(['response.created', 'response.in_progress', 'response.completed']);
    const other = serialize([{ type: 'text', index: 1, text: 'second choice' }]);
    expect(final(other).output).toEqual([]);
  });
});
