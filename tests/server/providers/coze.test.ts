/**
 * Coze Chat v3 converters, replayed from tests/fixtures/providers/coze/. Pure unit tests.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../server/relay/wire/events.js';
import { SseParser, type SseEvent } from '../../../server/relay/wire/sse.js';
import {
  COZE_DEFAULT_USER,
  convertCozeAnswer,
  convertToCozeChat,
  cozeBotId,
  cozeErrorMessage,
  cozeErrorStatus,
  createCozeStreamParser,
  gatherCozeChat,
} from '../../../server/relay/providers/coze/convert-coze.js';

const dir = new URL('../../fixtures/providers/coze/', import.meta.url);
const text = (name: string) => readFileSync(new URL(name, dir), 'utf8');

function sse(name: string): SseEvent[] {
  const parser = new SseParser();
  return [...parser.push(new TextEncoder().encode(text(name))), ...parser.end()];
}

function replay(name: string): StreamEvent[] {
  const parser = createCozeStreamParser('coze-bot');
  return sse(name).flatMap((e) => parser.push(e));
}

describe('OpenAI chat → Coze /v3/chat', () => {
  it('picks the bot from a bot- model, else the channel, else the model', () => {
    expect(cozeBotId('bot-7379462189365198898', '111')).toBe('7379462189365198898');
    expect(cozeBotId('coze-bot', ' 7379462189365198898 ')).toBe('7379462189365198898');
    expect(cozeBotId('7379462189365198898', null)).toBe('7379462189365198898');
  });

  it('sends user and assistant turns as additional messages, always streaming', () => {
    const body = convertToCozeChat(
      {
        model: 'coze-bot',
        user: 'u-1',
        messages: [
          { role: 'system', content: 'not sent' },
          { role: 'user', content: 'Is 2024 a leap year?' },
          { role: 'assistant', content: 'Yes.' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'And this?' },
              { type: 'image_url', image_url: { url: 'https://x.test/cal.png' } },
            ],
          },
        ],
      },
      '7379462189365198898',
    );
    expect(body).toEqual({
      bot_id: '7379462189365198898',
      user_id: 'u-1',
      stream: true,
      additional_messages: [
        { role: 'user', type: 'question', content: 'Is 2024 a leap year?', content_type: 'text' },
        { role: 'assistant', type: 'answer', content: 'Yes.', content_type: 'text' },
        {
          role: 'user',
          type: 'question',
          content: JSON.stringify([
            { type: 'text', text: 'And this?' },
            { type: 'image', file_url: 'https://x.test/cal.png' },
          ]),
          content_type: 'object_string',
        },
      ],
    });
    expect(convertToCozeChat({ model: 'm', messages: [] }, 'b').user_id).toBe(COZE_DEFAULT_USER);
  });
});

describe('Coze streams → OpenAI', () => {
  it('streams answer deltas only, then usage and finish from chat.completed', () => {
    const events = replay('chat-stream.chunks.txt');
    expect(events[0]).toEqual({ type: 'start', id: '7382159487131697202', model: 'coze-bot', created: 1718792949 });
    expect(
      events
        .filter((e) => e.type === 'text')
        .map((e) => (e as { text: string }).text)
        .join(''),
    ).toBe('2024 is a leap year.');
    expect(events.slice(-2)).toEqual([
      { type: 'usage', usage: { promptTokens: 614, completionTokens: 19 } },
      { type: 'finish', index: 0, reason: 'stop' },
    ]);
  });

  it('reports a failed chat and error events', () => {
    expect(replay('chat-stream-failed.chunks.txt').at(-1)).toEqual({
      type: 'error',
      message: 'Your coze token balance is insufficient',
    });
    const parser = createCozeStreamParser('m');
    expect(parser.push({ event: 'error', data: '{"code":4000,"msg":"bad request"}' })).toEqual([
      { type: 'error', message: 'bad request' },
    ]);
  });

  it('gathers a stream into the documented whole result and converts it', () => {
    const whole = gatherCozeChat(sse('chat-stream.chunks.txt'));
    expect(whole).toMatchObject({ chat: { id: '7382159487131697202', status: 'completed' } });
    expect('messages' in whole && whole.messages.map((m) => m.type)).toEqual(['answer', 'verbose', 'follow_up']);
    const { completion, usage } = convertCozeAnswer(whole, 'coze-bot');
    expect(completion).toMatchObject({
      id: '7382159487131697202',
      created: 1718792949,
      model: 'coze-bot',
      choices: [{ message: { role: 'assistant', content: '2024 is a leap year.' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 614, completion_tokens: 19, total_tokens: 633 },
    });
    expect(usage).toEqual({ promptTokens: 614, completionTokens: 19 });
    expect(gatherCozeChat(sse('chat-stream-failed.chunks.txt'))).toEqual({ error: 'Your coze token balance is insufficient' });
    expect(gatherCozeChat(sse('chat-stream.chunks.txt').slice(0, 4))).toEqual({ error: expect.stringContaining('ended') });
  });

  it('reads error bodies sent behind a 200 and gives them a status', () => {
    expect(cozeErrorMessage(text('error-token.json'), 200)).toBe('authentication is invalid');
    expect(cozeErrorMessage('{"error":{"message":"wrapped"}}', 502)).toBe('wrapped');
    expect([cozeErrorStatus(4100), cozeErrorStatus(4101), cozeErrorStatus(4000)]).toEqual([401, 401, 400]);
  });
});
