/**
 * A percent-encoded path is the path it decodes to: the router serves `/%61pi/status` as
 * `/api/status`, so everything decided by path decides the same for both — the global per-address
 * limit of the console API, the route's guard, the error format and the Content-Security-Policy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_CSP } from '../../server/http/security-headers.js';
import { setupRoot, startTestGateway, type ApiClient, type TestGateway } from '../helpers/gateway.js';

const LIMIT = 6;

describe('the global per-address limit', () => {
  let tg: TestGateway;
  beforeAll(async () => {
    tg = await startTestGateway('sqlite', { GLOBAL_API_RATE_LIMIT: String(LIMIT) });
  });
  afterAll(async () => tg?.close());

  it('counts and refuses encoded paths like plain ones', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT; i++) statuses.push((await fetch(`${tg.url}/%61pi/status`)).status);
    expect(statuses).toEqual(Array(LIMIT).fill(200));
    // The encoded calls used the address's allowance up.
    expect((await fetch(`${tg.url}/api/status`)).status).toBe(429);
    for (const path of ['/%61pi/status', '/%61%70%69/status', '/api/st%61tus', '/%61pi/%75ser/self']) {
      const res = await fetch(tg.url + path);
      expect(res.status, path).toBe(429);
      expect(await res.json()).toMatchObject({ success: false, code: 'request.rate_limited' });
    }
  });
});

describe('guards, error formats and headers', () => {
  let tg: TestGateway;
  let root: ApiClient;
  beforeAll(async () => {
    tg = await startTestGateway('sqlite');
    root = await setupRoot(tg);
  });
  afterAll(async () => tg?.close());

  it('guards an encoded route like the plain one', async () => {
    for (const path of ['/api/%75ser/self', '/%61pi/user/self']) {
      expect((await tg.client().get(path)).status, path).toBe(401);
      expect((await root.get(path)).body, path).toMatchObject({ success: true, data: { username: 'root' } });
    }
    expect((await tg.client().get('/api/%6Fption/')).status).toBe(401);
  });

  it('answers unknown encoded paths in the format the decoded path implies, with the API’s CSP', async () => {
    const api = await fetch(`${tg.url}/%61pi/no-such-thing`);
    expect(api.status).toBe(404);
    expect(api.headers.get('content-security-policy')).toBe(API_CSP);
    expect(await api.json()).toMatchObject({ success: false, code: 'request.not_found' });
    const relay = await fetch(`${tg.url}/%761/no-such-thing`, { method: 'POST' });
    expect(relay.status).toBe(404);
    expect(relay.headers.get('content-security-policy')).toBe(API_CSP);
    expect(await relay.json()).toMatchObject({ error: { code: 'invalid_url' } });
  });
});
