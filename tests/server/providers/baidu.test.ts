/**
 * Baidu ERNIE: endpoint mapping, the pure converters replayed from tests/fixtures/providers/baidu/,
 * error statuses, and the access-token cache (its clock and fetcher given). No network.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { baiduChatEndpoint } from '../../../server/relay/providers/baidu/endpoints.js';
import {
  baiduErrorOf,
  baiduErrorStatus,
  convertBaiduResponse,
  convertToBaiduRequest,
  createBaiduStreamParser,
} from '../../../server/relay/providers/baidu/convert.js';
import {
  AccessTokenCache,
  TokenError,
  parseTokenAnswer,
  splitBaiduKey,
  tokenUrl,
  type FetchedToken,
} from '../../../server/relay/providers/baidu/access-token.js';
import type { StreamEvent } from '../../../server/relay/wire/events.js';
import { SseParser } from '../../../server/relay/wire/sse.js';

const dir = new URL('../../fixtures/providers/baidu/', import.meta.url);
const text = (name: string) => readFileSync(new URL(name, dir), 'utf8');

function replay(name: string, model: string): StreamEvent[] {
  const parser = new SseParser();
  const stream = createBaiduStreamParser(model);
  const events = [...parser.push(new TextEncoder().encode(text(name))), ...parser.end()];
  return events.flatMap((e) => stream.push(e));
}

describe('Baidu endpoints', () => {
  it('maps models to their documented endpoint paths, others to their lower-cased name', () => {
    expect(baiduChatEndpoint('ERNIE-4.0-8K')).toBe('completions_pro');
    expect(baiduChatEndpoint('ERNIE-3.5-8K')).toBe('completions');
    expect(baiduChatEndpoint('ERNIE-Speed-8K')).toBe('ernie_speed');
    expect(baiduChatEndpoint('ERNIE-Lite-8K-0922')).toBe('eb-instant');
    expect(baiduChatEndpoint('ERNIE-Character-8K')).toBe('ernie-char-8k');
    expect(baiduChatEndpoint('ERNIE-Speed-128K')).toBe('ernie-speed-128k');
    expect(baiduChatEndpoint('ERNIE-4.0-Turbo-8K')).toBe('ernie-4.0-turbo-8k');
  });
});

describe('Baidu request conversion', () => {
  it('moves system prompts to `system`, joins turns of one role and maps the parameters', () => {
    const body = convertToBaiduRequest(
      {
        model: 'ERNIE-4.0-8K',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hi' },
          { role: 'user', content: [{ type: 'text', text: 'Where is Beijing?' }] },
          { role: 'assistant', content: 'In China.' },
          { role: 'user', content: 'More?' },
        ],
        temperature: 0.3,
        top_p: 0.8,
        stop: 'END',
        max_tokens: 100,
        user: 'u-1',
        response_format: { type: 'json_object' },
      },
      true,
    );
    expect(body).toEqual({
      messages: [
        { role: 'user', content: 'Hi\n\nWhere is Beijing?' },
        { role: 'assistant', content: 'In China.' },
        { role: 'user', content: 'More?' },
      ],
      system: 'Be brief.',
      stream: true,
      temperature: 0.3,
      top_p: 0.8,
      stop: ['END'],
      max_output_tokens: 100,
      user_id: 'u-1',
      response_format: 'json_object',
    });
  });
});

describe('Baidu answers', () => {
  it('converts a whole answer with its usage', () => {
    const { completion, usage } = convertBaiduResponse(JSON.parse(text('chat.json')), 'ERNIE-4.0-8K');
    expect(completion).toMatchObject({
      id: 'as-fg4g836x8n',
      object: 'chat.completion',
      created: 1709716601,
      model: 'ERNIE-4.0-8K',
      choices: [
        { index: 0, message: { role: 'assistant', content: '北京，简称“京”，是中华人民共和国的首都。' }, finish_reason: 'stop' },
      ],
      usage: { prompt_tokens: 6, completion_tokens: 17, total_tokens: 23 },
    });
    expect(usage).toEqual({ promptTokens: 6, completionTokens: 17 });
  });

  it('streams the results and takes the completion from the running total', () => {
    const events = replay('stream.chunks.txt', 'ERNIE-3.5-8K');
    expect(events[0]).toMatchObject({ type: 'start', id: 'as-vb0m37ti8y', model: 'ERNIE-3.5-8K', created: 1709089502 });
    const textOut = events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('');
    expect(textOut).toBe('北京是中国的首都，也是政治和文化中心。');
    const usages = events.flatMap((e) => (e.type === 'usage' ? [e.usage] : []));
    expect(usages.at(-1)).toEqual({ promptTokens: 5, completionTokens: 19 });
    expect(events.at(-1)).toEqual({ type: 'finish', index: 0, reason: 'stop' });
  });

  it('reads errors and gives each code family its status', () => {
    expect(baiduErrorOf(JSON.parse(text('error-token-invalid.json')))).toEqual({
      code: 110,
      message: 'Access token invalid or no longer valid',
    });
    expect(baiduErrorOf(JSON.parse(text('chat.json')))).toBeNull();
    expect(baiduErrorStatus(110)).toBe(401);
    expect(baiduErrorStatus(111)).toBe(401);
    expect(baiduErrorStatus(6)).toBe(403);
    expect(baiduErrorStatus(18)).toBe(429);
    expect(baiduErrorStatus(336501)).toBe(429);
    expect(baiduErrorStatus(336003)).toBe(400);
    expect(baiduErrorStatus(336100)).toBe(500);
    const streamed = createBaiduStreamParser('m').push({ event: 'message', data: text('error-qps.json') });
    expect(streamed).toEqual([{ type: 'error', message: 'Open api qps request limit reached' }]);
  });
});

describe('Baidu access tokens', () => {
  it('splits `ak|sk` keys and builds the token URL', () => {
    expect(splitBaiduKey('ak1|sk1')).toEqual({ ak: 'ak1', sk: 'sk1' });
    expect(splitBaiduKey('only-one')).toBeNull();
    expect(splitBaiduKey('a|b|c')).toBeNull();
    expect(tokenUrl('https://aip.baidubce.com', 'a k', 's&k')).toBe(
      'https://aip.baidubce.com/oauth/2.0/token?grant_type=client_credentials&client_id=a+k&client_secret=s%26k',
    );
  });

  it('parses the token answer, and refuses bad credentials with 401', () => {
    expect(parseTokenAnswer(200, text('token.json'))).toEqual({
      token: '24.6c5e1ff107f0e8bcef8c46d3424a0e78.2592000.1485516651.282335-8574074',
      expiresIn: 2592000,
    });
    let error: unknown;
    try {
      parseTokenAnswer(401, text('error-invalid-client.json'));
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(TokenError);
    expect((error as TokenError).status).toBe(401);
    expect((error as TokenError).message).toContain('unknown client id');
  });

  it('caches a token until shortly before it expires, sharing one fetch between concurrent callers', async () => {
    let now = 1_000_000;
    const cache = new AccessTokenCache(() => now);
    let fetches = 0;
    let release: (t: FetchedToken) => void = () => undefined;
    const fetcher = () => {
      fetches++;
      return new Promise<FetchedToken>((resolve) => (release = resolve));
    };
    const first = cache.get('k', fetcher);
    const second = cache.get('k', fetcher);
    release({ token: 'tok-1', expiresIn: 2592000 });
    expect(await first).toBe('tok-1');
    expect(await second).toBe('tok-1');
    expect(fetches).toBe(1);

    now += (2592000 - 3601) * 1000;
    expect(await cache.get('k', async () => ({ token: 'tok-2', expiresIn: 2592000 }))).toBe('tok-1');
    now += 2000;
    expect(await cache.get('k', async () => ({ token: 'tok-2', expiresIn: 2592000 }))).toBe('tok-2');
  });

  it('forgets an invalidated token and never caches a failed fetch', async () => {
    const cache = new AccessTokenCache(() => 0);
    expect(await cache.get('k', async () => ({ token: 'a', expiresIn: 100 }))).toBe('a');
    cache.invalidate('k', 'stale-other');
    expect(await cache.get('k', async () => ({ token: 'b', expiresIn: 100 }))).toBe('a');
    cache.invalidate('k', 'a');
    await expect(cache.get('k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('k', async () => ({ token: 'c', expiresIn: 100 }))).toBe('c');
  });
});
