/**
 * At LOG_LEVEL=info every request is logged, and no credential with it: the gateway runs as its
 * own process and the test reads everything it writes while clients send keys in query strings
 * and headers, session cookies and OAuth codes.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/databases.js';
import { ApiClient, ROOT } from '../helpers/gateway.js';
import { spawnGateway, type GatewayProcess } from '../helpers/process.js';
import Fastify from 'fastify';
import { loggerOptions, redactQuery } from '../../server/http/log-redaction.js';

describe('redactQuery', () => {
  it.each([
    ['/v1beta/models/x:generateContent?key=AIza123&alt=sse', '/v1beta/models/x:generateContent?key=[redacted]&alt=sse'],
    ['/api/x?access_token=abc&p=1&api_key=z', '/api/x?access_token=[redacted]&p=1&api_key=[redacted]'],
    ['/api/oauth/github?code=c0de&state=s1', '/api/oauth/github?code=[redacted]&state=s1'],
    ['/api/x?%6Bey=hidden', '/api/x?%6Bey=[redacted]'],
    ['/api/log/?p=1&page_size=10', '/api/log/?p=1&page_size=10'],
    ['GET https://h/v1?key=abc failed: timeout', 'GET https://h/v1?key=[redacted] failed: timeout'],
  ])('%s', (input, output) => {
    expect(redactQuery(input)).toBe(output);
  });
});

describe("the gateway's logger options", () => {
  it('censor credential headers in any logged object that holds them', async () => {
    let out = '';
    const options = loggerOptions('info');
    if (typeof options !== 'object' || options === null) throw new Error('expected logger options');
    const app = Fastify({ logger: { ...options, stream: { write: (line: string) => void (out += line) } } });
    app.get('/', (request) => {
      request.log.info({ headers: request.headers }, 'headers');
      request.log.info({ upstream: { headers: { authorization: 'Bearer sk-upstream-secret' } } }, 'nested');
      return 'ok';
    });
    await app.inject({
      url: '/?token=t0k',
      headers: {
        authorization: 'Bearer sk-h1',
        'x-api-key': 'xk-h2',
        'x-goog-api-key': 'gk-h3',
        cookie: 'session=c-h4',
        'mj-api-secret': 'mj-h5',
      },
    });
    await app.close();
    for (const value of ['sk-h1', 'xk-h2', 'gk-h3', 'c-h4', 'mj-h5', 'sk-upstream-secret', 't0k'])
      expect(out).not.toContain(value);
    expect(out).toContain('"authorization":"[redacted]"');
    expect(out).toContain('"user-agent"');
  });
});

describe('the request log at LOG_LEVEL=info', () => {
  let db: TestDatabase;
  let gw: GatewayProcess;
  let log = '';

  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
    if (db.target.kind !== 'sqlite') throw new Error('expected SQLite');
    gw = await spawnGateway({ SQLITE_PATH: db.target.path, LOG_LEVEL: 'info', SESSION_SECRET: randomBytes(24).toString('hex') });
    const collect = (chunk: Buffer) => (log += chunk.toString());
    gw.child.stdout?.on('data', collect);
    gw.child.stderr?.on('data', collect);
  }, 30_000);

  afterAll(async () => {
    await gw?.stop();
    await db?.drop();
  });

  it('holds no key, token, cookie or code, and still says what was asked', async () => {
    const secret = (label: string) => `${label}-${randomBytes(6).toString('hex')}`;
    const secrets = {
      queryKey: secret('qkey'),
      queryToken: secret('qtok'),
      oauthCode: secret('code'),
      bearer: secret('sk-bearer'),
      apiKey: secret('sk-xapi'),
      googKey: secret('goog'),
      mjSecret: secret('mj'),
      cookie: secret('cookie'),
    };
    const root = new ApiClient(gw.url);
    expect((await root.post('/api/setup', { ...ROOT, confirmPassword: ROOT.password })).body.success).toBe(true);
    expect((await root.login(ROOT.username, ROOT.password)).body.success).toBe(true);
    const sessionCookie = root.cookie.split('=').slice(1).join('=');

    const call = (path: string, headers: Record<string, string> = {}, method = 'GET', body?: string) =>
      fetch(gw.url + path, { method, headers, body }).then((r) => r.text());
    await call(`/v1beta/models?key=${secrets.queryKey}&pageSize=5`);
    await call(
      `/v1beta/models/gemini-pro:generateContent?key=${secrets.queryKey}&alt=sse`,
      { 'content-type': 'application/json' },
      'POST',
      '{"contents":[]}',
    );
    await call(`/api/status?access_token=${secrets.queryToken}&lang=en`);
    await call(`/api/oauth/github?code=${secrets.oauthCode}&state=abc`);
    await call(`/v1/nope?key=${secrets.queryKey}`);
    await call('/v1/models', { authorization: `Bearer ${secrets.bearer}` });
    await call('/v1/messages', { 'x-api-key': secrets.apiKey, 'content-type': 'application/json' }, 'POST', '{}');
    await call('/v1beta/models', { 'x-goog-api-key': secrets.googKey });
    await call('/mj/task/1/fetch', { 'mj-api-secret': secrets.mjSecret });
    await call('/api/user/self', { cookie: `session=${secrets.cookie}`, 'new-api-user': '1' });
    await call('/api/user/self', { cookie: root.cookie, 'new-api-user': String(root.userId) });

    // Let the last lines reach the pipe.
    for (let i = 0; i < 50 && !log.includes('/api/user/self'); i++) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 200));

    for (const [name, value] of Object.entries(secrets)) expect(log, name).not.toContain(value);
    expect(log).not.toContain(sessionCookie);
    // The requests are there, with what is not secret.
    expect(log).toContain('"url":"/api/status?access_token=[redacted]&lang=en"');
    expect(log).toContain('"url":"/v1beta/models/gemini-pro:generateContent?key=[redacted]&alt=sse"');
    expect(log).toContain('"url":"/api/oauth/github?code=[redacted]&state=abc"');
    expect(log).toContain('"statusCode"');
  });
});
