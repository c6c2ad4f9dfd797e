/**
 * MiniMax ChatCompletion v2: OpenAI-shaped bodies, failures behind a 200 status. Pure unit tests
 * over tests/fixtures/providers/minimax/.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../server/relay/wire/events.js';
import { SseParser } from '../../../server/relay/wire/sse.js';
import { miniMaxErrorStatus, miniMaxFailure, minimax } from '../../../server/relay/providers/minimax/index.js';
import type { ProviderSettings } from '../../../server/relay/providers/types.js';

const dir = new URL('../../fixtures/providers/minimax/', import.meta.url);
const text = (name: string) => readFileSync(new URL(name, dir), 'utf8');
const channel = { key: 'mm-key', base_url: null, other: null, openai_organization: null };
const adapter = minimax.chat!;

describe('MiniMax', () => {
  it('posts OpenAI chat bodies to chatcompletion_v2, asking for stream usage', async () => {
    const plan = await adapter.request(
      channel,
      { model: 'MiniMax-M1', messages: [{ role: 'user', content: 'hello' }] },
      true,
      {} as ProviderSettings,
    );
    expect(plan.target).toEqual({
      url: 'https://api.minimax.chat/v1/text/chatcompletion_v2',
      headers: { authorization: 'Bearer mm-key' },
    });
    expect(JSON.parse(String(plan.body))).toEqual({
      model: 'MiniMax-M1',
      messages: [{ role: 'user', content: 'hello' }],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('passes whole answers through with their usage', () => {
    const { completion, usage } = adapter.answer(JSON.parse(text('chat.json')), 'MiniMax-M1');
    expect(completion).toMatchObject({
      model: 'MiniMax-M1',
      choices: [{ message: { content: 'Hello! How can I assist you?' } }],
    });
    expect(usage).toMatchObject({ promptTokens: 26, completionTokens: 13 });
  });

  it('streams deltas without repeating the whole message of the last chunk', () => {
    const sse = new SseParser();
    const parser = adapter.stream('MiniMax-M1');
    const events: StreamEvent[] = [...sse.push(new TextEncoder().encode(text('chat-stream.chunks.txt'))), ...sse.end()].flatMap(
      (e) => parser.push(e),
    );
    expect(
      events
        .filter((e) => e.type === 'text')
        .map((e) => (e as { text: string }).text)
        .join(''),
    ).toBe('Hello! How can I assist you?');
    expect(events.filter((e) => e.type === 'usage').at(-1)).toMatchObject({ usage: { promptTokens: 26, completionTokens: 13 } });
    expect(events.some((e) => e.type === 'finish' && e.reason === 'stop')).toBe(true);
  });

  it('finds failures in base_resp and maps their codes to statuses', () => {
    expect(miniMaxFailure(JSON.parse(text('error-login-fail.json')))).toEqual({
      code: 1004,
      message: expect.stringContaining('login fail'),
    });
    expect(miniMaxFailure(JSON.parse(text('chat.json')))).toBeNull();
    expect([1004, 1002, 1039, 1008, 1013, 2013].map(miniMaxErrorStatus)).toEqual([401, 429, 429, 403, 500, 400]);
    expect(adapter.stream('m').push({ event: 'message', data: text('error-login-fail.json') })).toEqual([
      { type: 'error', message: expect.stringContaining('login fail') },
    ]);
  });
});
