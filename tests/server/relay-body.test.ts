import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { moneyOf } from '../helpers/money.js';

interface RawAnswer {
  status: number;
  body: any;
  /** Bytes of the body written before the answer arrived. */
  sent: number;
}

/**
 * Sends a request whose body keeps coming (chunked, 64 KB at a time, up to `total` bytes or for ever)
 * and returns as soon as the answer's head and body arrive, without finishing the upload.
 */
function upload(
  url: string,
  headers: Record<string, string>,
  total = Infinity,
  chunk = Buffer.alloc(64 * 1024, 0x20),
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } });
    const pump = () => {
      while (!answered && sent < total) {
        const piece = sent === 0 ? Buffer.concat([Buffer.from('{"model":"gpt-4o-mini","messages":['), chunk]) : chunk;
        sent += piece.length;
        if (!req.write(piece)) return void req.once('drain', pump);
      }
      if (!answered) req.end();
    };
    req.on('response', (res) => {
      answered = true;
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(text), sent });
      });
    });
    req.on('error', (error) => (answered ? undefined : reject(error)));
    pump();
  });
}

// The key is checked from the headers before any of the body is read, and the body is parsed as it
// arrives, with the route's limit, strict UTF-8, a nesting limit and no `__proto__` keys.
describe('relay bodies', () => {
  let f: RelayFixture;
  beforeAll(async () => {
    f = await startRelayFixture('sqlite');
  });
  afterAll(async () => f?.close());

  it('refuses an anonymous or unknown caller before reading a body that never ends, in each format', async () => {
    const cases: Array<[string, Record<string, string>, (b: any) => void]> = [
      ['/v1/chat/completions', {}, (b) => expect(b.error.code).toBe('missing_api_key')],
      ['/v1/chat/completions', { authorization: 'Bearer sk-nobody' }, (b) => expect(b.error.type).toBeTruthy()],
      [
        '/v1/messages',
        { 'x-api-key': 'sk-nobody' },
        (b) => expect(b).toMatchObject({ type: 'error', error: { type: 'authentication_error' } }),
      ],
      [
        '/v1beta/models/gemini-x:generateContent',
        { 'x-goog-api-key': 'sk-nobody' },
        (b) => expect(b.error.status).toBe('UNAUTHENTICATED'),
      ],
      ['/mj/submit/imagine', { 'mj-api-secret': 'sk-nobody' }, (b) => expect(b).toBeTruthy()],
      ['/suno/submit/music', {}, (b) => expect(b).toBeTruthy()],
    ];
    for (const [path, headers, shape] of cases) {
      const answer = await upload(f.tg.url + path, { ...headers, 'transfer-encoding': 'chunked' });
      expect(answer.status, path).toBe(401);
      shape(answer.body);
    }
  });

  it('refuses a body over the limit from its announced length, and a chunked one once it passes it', async () => {
    const announced = await upload(f.tg.url + '/v1/chat/completions', {
      authorization: `Bearer ${f.key}`,
      'content-length': String(65 * 1024 * 1024),
    });
    expect(announced.status).toBe(413);
    expect(announced.sent).toBeLessThan(65 * 1024 * 1024);
    const chunked = await upload(f.tg.url + '/v1/chat/completions', {
      authorization: `Bearer ${f.key}`,
      'transfer-encoding': 'chunked',
    });
    expect(chunked.status).toBe(413);
    expect(chunked.body.error.code).toBe('request_too_large');
  }, 60_000);

  const post = async (body: string | Buffer, headers: Record<string, string> = {}) => {
    const res = await fetch(f.tg.url + '/v1/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${f.key}`, ...headers },
      body: typeof body === 'string' ? body : new Uint8Array(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  it('refuses invalid UTF-8, deep nesting and __proto__ keys with a 400, in small and large bodies, charging nothing', async () => {
    const before = await moneyOf(f, f.userId, f.tokenId);
    const pad = 'x'.repeat(400 * 1024);
    const message = (content: string) => `{"model":"gpt-4o-mini","messages":[{"role":"user","content":"${content}"}]}`;
    for (const filler of ['', pad]) {
      const bad = Buffer.concat([Buffer.from(message(filler).slice(0, -4)), Buffer.from([0xc3, 0x28]), Buffer.from('"}]}')]);
      const cases: Array<string | Buffer> = [
        bad,
        `{"model":"gpt-4o-mini","pad":"${filler}","messages":[{"role":"user","content":"hi"}],"x":${'['.repeat(200)}${']'.repeat(200)}}`,
        `{"model":"gpt-4o-mini","pad":"${filler}","messages":[{"role":"user","content":"hi","__proto__":{"admin":true}}]}`,
        `{"model":"gpt-4o-mini","pad":"${filler}","messages":[`,
      ];
      for (const body of cases) {
        const res = await post(body);
        expect(res.status, String(body).slice(-60)).toBe(400);
        expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_request' });
      }
    }
    expect(await moneyOf(f, f.userId, f.tokenId)).toEqual(before);
  });

  it('reads a small body after a byte order mark, and refuses an encoded surrogate as invalid UTF-8', async () => {
    const text = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    const withMark = await post(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]));
    expect(withMark.status).toBe(200);
    const [head, tail] = text.split('hi');
    const surrogate = await post(Buffer.concat([Buffer.from(head!), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from(tail!)]));
    expect(surrogate.status).toBe(400);
    expect(surrogate.body.error.code).toBe('invalid_request');
  });

  it('serves a large body parsed as it arrives exactly as the client wrote it', async () => {
    const content = 'é中😀"\\\n'.repeat(60 * 1024);
    const count = f.upstream.requests.length;
    const res = await post(JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] }));
    expect(res.status).toBe(200);
    const forwarded = f.upstream.requests.slice(count).find((r) => r.url.includes('/chat/completions'));
    expect(forwarded?.body.messages[0].content).toBe(content);
  });
});
