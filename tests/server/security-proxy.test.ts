/**
 * TRUST_PROXY through the real gateway: forwarded addresses and protocols are believed only from
 * trusted proxies, so a client cannot pass a key's IP allow-list by naming an address, and the
 * session cookie is marked Secure whenever the browser reached the gateway over HTTPS.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { ROOT, setupRoot, startTestGateway, type TestGateway } from '../helpers/gateway.js';

describe('TRUST_PROXY values', () => {
  it.each([
    [undefined, false],
    ['false', false],
    ['0', false],
    ['true', 1],
    ['2', 2],
    ['10.0.0.1, 192.168.0.0/16,::1', ['10.0.0.1', '192.168.0.0/16', '::1']],
  ])('%s → %o', (raw, expected) => {
    expect(loadConfig(raw === undefined ? {} : { TRUST_PROXY: raw }).trustProxy).toEqual(expected);
  });

  it.each(['11', 'yes', '10.0.0.0/33', 'example.com', '10.0.0.1/8/1'])('refuses %s', (raw) => {
    expect(() => loadConfig({ TRUST_PROXY: raw })).toThrow(/^TRUST_PROXY:/);
  });
});

async function ipLockedKey(tg: TestGateway): Promise<string> {
  const root = await setupRoot(tg);
  const created = await root.post('/api/token/', {
    name: 'office',
    remain_quota: 0,
    unlimited_quota: true,
    allow_ips: '203.0.113.7',
  });
  expect(created.body.success).toBe(true);
  const list = await root.get('/api/token/?p=1&page_size=10');
  const id = list.body.data.items[0].id;
  const key = await root.post(`/api/token/${id}/key`);
  return key.body.data.key as string;
}

const models = (tg: TestGateway, key: string, headers: Record<string, string> = {}) =>
  fetch(`${tg.url}/v1/models`, { headers: { authorization: `Bearer ${key}`, ...headers } });

const loginCookie = async (tg: TestGateway, headers: Record<string, string>) => {
  const res = await fetch(`${tg.url}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(ROOT),
  });
  return res.headers.getSetCookie().find((c) => c.startsWith('session=')) ?? '';
};

describe('without TRUST_PROXY', () => {
  let tg: TestGateway;
  let key: string;
  beforeAll(async () => {
    tg = await startTestGateway('sqlite');
    key = await ipLockedKey(tg);
  });
  afterAll(() => tg?.close());

  it('ignores X-Forwarded-For: naming an allowed address does not pass the allow-list', async () => {
    expect((await models(tg, key, { 'x-forwarded-for': '203.0.113.7' })).status).toBe(403);
  });

  it('ignores X-Forwarded-Proto: a plain-HTTP login gets a cookie without Secure', async () => {
    const cookie = await loginCookie(tg, { 'x-forwarded-proto': 'https' });
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).not.toMatch(/;\s*Secure/i);
  });
});

describe('behind one trusted proxy', () => {
  let tg: TestGateway;
  let key: string;
  beforeAll(async () => {
    tg = await startTestGateway('sqlite', { TRUST_PROXY: 'true' });
    key = await ipLockedKey(tg);
  });
  afterAll(() => tg?.close());

  it('takes the address the proxy saw, not one the client put before it', async () => {
    expect((await models(tg, key, { 'x-forwarded-for': '203.0.113.7' })).status).toBe(200);
    // The client wrote 203.0.113.7 itself; the proxy appended the address it really came from.
    expect((await models(tg, key, { 'x-forwarded-for': '203.0.113.7, 198.51.100.1' })).status).toBe(403);
  });

  it('marks the session cookie Secure when the proxy says the browser used HTTPS', async () => {
    expect(await loginCookie(tg, { 'x-forwarded-proto': 'https' })).toMatch(/;\s*Secure/i);
    expect(await loginCookie(tg, { 'x-forwarded-proto': 'http' })).not.toMatch(/;\s*Secure/i);
  });
});
