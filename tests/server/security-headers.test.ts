/**
 * Every answer carries the framing, sniffing, referrer and content-security headers: console pages
 * and files, console API answers (refusals and errors too), and relay answers the relay writes
 * itself (streams and pass-through).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { API_CSP, CONSOLE_CSP } from '../../server/http/security-headers.js';

function expectHardened(res: Response, csp: string, what: string): void {
  expect(res.headers.get('x-frame-options'), what).toBe('DENY');
  expect(res.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(res.headers.get('referrer-policy'), what).toBe('strict-origin-when-cross-origin');
  expect(res.headers.get('content-security-policy'), what).toBe(csp);
}

describe('console pages and files', () => {
  let tg: TestGateway;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gw-console-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>console</title>');
    writeFileSync(join(dir, 'app.js'), 'export {};');
    tg = await startTestGateway('sqlite', { CONSOLE_DIR: dir });
  });
  afterAll(async () => {
    await tg?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(['/', '/login', '/channel?p=2', '/app.js'])('GET %s', async (path) => {
    const res = await fetch(tg.url + path);
    expect(res.status).toBe(200);
    expectHardened(res, CONSOLE_CSP, path);
  });

  it('frames nothing and is framed by no one, on the console and the API', () => {
    expect(CONSOLE_CSP).toContain("frame-ancestors 'none'");
    expect(API_CSP).toContain("frame-ancestors 'none'");
    expect(CONSOLE_CSP).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
  });

  it.each([
    ['GET', '/api/status', 200],
    ['GET', '/api/user/self', 401],
    ['GET', '/api/nope', 404],
    ['POST', '/api/user/login', 400],
    ['GET', '/v1/models', 401],
  ])('%s %s (%i)', async (method, path, status) => {
    const res = await fetch(tg.url + path, {
      method,
      headers: method === 'POST' ? { 'content-type': 'application/json' } : {},
      body: method === 'POST' ? '{"username":' : undefined,
    });
    expect(res.status).toBe(status);
    expectHardened(res, API_CSP, path);
  });
});

describe('relay answers', () => {
  let fx: RelayFixture;
  beforeAll(async () => {
    fx = await startRelayFixture('sqlite');
  });
  afterAll(() => fx?.close());

  const chat = (stream: boolean) =>
    fetch(`${fx.tg.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fx.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], stream }),
    });

  it('carry the headers on a whole answer and on a stream', async () => {
    for (const stream of [false, true]) {
      const res = await chat(stream);
      expect(res.status).toBe(200);
      await res.text();
      expectHardened(res, API_CSP, stream ? 'stream' : 'whole');
    }
  });
});
