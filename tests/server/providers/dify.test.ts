/**
 * Dify chat-messages converters, replayed from tests/fixtures/providers/dify/. Pure unit tests.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../server/relay/wire/events.js';
import { SseParser } from '../../../server/relay/wire/sse.js';
import {
  DIFY_DEFAULT_USER,
  convertDifyAnswer,
  convertToDifyChat,
  createDifyStreamParser,
  difyErrorMessage,
} from '../../../server/relay/providers/dify/convert-dify.js';
import { dify } from '../../../server/relay/providers/dify/index.js';

const dir = new URL('../../fixtures/providers/dify/', import.meta.url);
const text = (name: string) => readFileSync(new URL(name, dir), 'utf8');

function replay(name: string): StreamEvent[] {
  const sse = new SseParser();
  const parser = createDifyStreamParser('dify');
  return [...sse.push(new TextEncoder().encode(text(name))), ...sse.end()].flatMap((e) => parser.push(e));
}

const joined = (events: StreamEvent[]) =>
  events
    .filter((e) => e.type === 'text')
    .map((e) => (e as { text: string }).text)
    .join('');

describe('OpenAI chat → Dify /v1/chat-messages', () => {
  it('asks the last user message, statelessly, with linked images as files', () => {
    const body = convertToDifyChat(
      {
        model: 'dify',
        user: 'alice-42',
        messages: [
          { role: 'system', content: 'ignored: the app has its own prompt' },
          { role: 'user', content: 'first question' },
          { role: 'assistant', content: 'first answer' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is in it?' },
              { type: 'image_url', image_url: { url: 'https://x.test/a.png' } },
              { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
            ],
          },
        ],
      },
      true,
    );
    expect(body).toEqual({
      inputs: {},
      query: 'What is in it?',
      response_mode: 'streaming',
      conversation_id: '',
      user: 'alice-42',
      files: [{ type: 'image', transfer_method: 'remote_url', url: 'https://x.test/a.png' }],
    });
  });

  it('blocks for whole answers and names a default user', () => {
    expect(convertToDifyChat({ model: 'dify', messages: [{ role: 'user', content: 'hi' }] }, false)).toEqual({
      inputs: {},
      query: 'hi',
      response_mode: 'blocking',
      conversation_id: '',
      user: DIFY_DEFAULT_USER,
    });
  });
});

describe('Dify answers → OpenAI', () => {
  it('converts a blocking answer with metadata.usage', () => {
    const { completion, usage } = convertDifyAnswer(JSON.parse(text('chat-blocking.json')), 'dify');
    expect(completion).toMatchObject({
      id: '9da23599-e713-473b-982c-4328d4f5c78a',
      created: 1705407629,
      model: 'dify',
      choices: [
        { message: { role: 'assistant', content: 'iPhone 13 Pro Max specs are listed here:...' }, finish_reason: 'stop' },
      ],
      usage: { prompt_tokens: 1033, completion_tokens: 128, total_tokens: 1161 },
    });
    expect(usage).toEqual({ promptTokens: 1033, completionTokens: 128 });
  });

  it('streams message events, skipping workflow events and pings, with usage from message_end', () => {
    const events = replay('chat-stream.chunks.txt');
    expect(events[0]).toMatchObject({ type: 'start', model: 'dify', created: 1679586595 });
    expect(joined(events)).toBe(" I'm glad to meet you!");
    expect(events.slice(-2)).toEqual([
      { type: 'usage', usage: { promptTokens: 1033, completionTokens: 135 } },
      { type: 'finish', index: 0, reason: 'stop' },
    ]);
  });

  it('streams agent_message events of agent apps', () => {
    const events = replay('chat-stream-agent.chunks.txt');
    expect(joined(events)).toBe('I have created an image.');
    expect(events.find((e) => e.type === 'usage')).toEqual({ type: 'usage', usage: { promptTokens: 412, completionTokens: 9 } });
  });

  it('reports error events and error bodies', () => {
    expect(replay('chat-stream-error.chunks.txt').at(-1)).toEqual({ type: 'error', message: 'Model quota exceeded' });
    expect(difyErrorMessage(text('error-invalid-param.json'), 400)).toBe('query is required');
  });

  it('ends a moderated (replaced) answer as content_filter', () => {
    const parser = createDifyStreamParser('dify');
    const events = [
      { event: 'message', data: '{"event":"message","message_id":"m","answer":"bad words"}' },
      { event: 'message', data: '{"event":"message_replace","message_id":"m","answer":"[removed]"}' },
      { event: 'message', data: '{"event":"message_end","message_id":"m","metadata":{}}' },
    ].flatMap((e) => parser.push(e));
    expect(events.at(-1)).toEqual({ type: 'finish', index: 0, reason: 'content_filter' });
  });
});

describe('Dify provider', () => {
  it('posts to the app API with the app key', () => {
    const channel = { key: 'app-123', base_url: 'https://dify.internal/', other: null, openai_organization: null };
    expect(dify.target(channel, 'chat.completions', 'dify')).toEqual({
      url: 'https://dify.internal/v1/chat-messages',
      headers: { authorization: 'Bearer app-123' },
    });
    expect(dify.supports('embeddings')).toBe(false);
  });
});
