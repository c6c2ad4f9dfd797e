/**
 * GET /api/status/update against the real gateway: a local server plays the release feed (named in
 * ALLOW_PRIVATE_HOSTS, as an operator would name an internal mirror). The answer says only what the
 * feed said; no feed, an unreachable one and an unreadable one are refusals with their own codes.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setupRoot, startTestGateway, type ApiClient, type TestGateway } from '../helpers/gateway.js';
import { isNewer, latestRelease } from '../../server/status/update-check.js';

let feed: Server;
let feedUrl = '';
let answer: { status: number; body: string } = { status: 200, body: '{}' };

beforeAll(async () => {
  feed = createServer((_req, res) => {
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve));
  feedUrl = `http://127.0.0.1:${(feed.address() as AddressInfo).port}/releases/latest`;
});

afterAll(async () => {
  feed.closeAllConnections();
  await new Promise<void>((resolve) => feed.close(() => resolve()));
});

describe('release feeds', () => {
  it('compares dotted versions, a leading v and suffixes aside', () => {
    expect(isNewer('v0.2.0', '0.1.9')).toBe(true);
    expect(isNewer('0.1.10', '0.1.9')).toBe(true);
    expect(isNewer('v0.1.0', '0.1.0')).toBe(false);
    expect(isNewer('0.0.9', '0.1.0')).toBe(false);
  });

  it('reads the newest published release of one release or a list', () => {
    const release = { tag_name: 'v1.2.0', html_url: 'https://example.test/r', published_at: '2026-01-01T00:00:00Z' };
    expect(latestRelease(release)).toEqual({ version: 'v1.2.0', url: release.html_url, publishedAt: release.published_at });
    expect(latestRelease([{ tag_name: 'v2.0.0-rc1', prerelease: true }, release])?.version).toBe('v1.2.0');
    expect(latestRelease({ message: 'Not Found' })).toBeNull();
  });
});

describe('GET /api/status/update', () => {
  let tg: TestGateway;
  let root: ApiClient;
  const check = () => root.get('/api/status/update');

  beforeAll(async () => {
    tg = await startTestGateway('sqlite');
    root = await setupRoot(tg);
  });
  afterAll(async () => tg?.close());
  afterEach(() => {
    delete process.env.ALLOW_PRIVATE_HOSTS;
  });

  it('says no feed is configured until one is set', async () => {
    expect((await check()).body).toMatchObject({ success: false, code: 'update.not_configured' });
  });

  it('answers the newest release against the running version', async () => {
    process.env.ALLOW_PRIVATE_HOSTS = '127.0.0.1';
    expect((await root.put('/api/option/', { key: 'UpdateCheckUrl', value: ` ${feedUrl}/ ` })).body.success).toBe(true);
    answer = { status: 200, body: JSON.stringify({ tag_name: 'v99.0.0', html_url: 'https://example.test/v99' }) };
    const res = await check();
    expect(res.body).toMatchObject({
      success: true,
      data: { latest_version: 'v99.0.0', update_available: true, release_url: 'https://example.test/v99' },
    });
    expect(res.body.data.current_version).toBe(tg.gateway.ctx.version);
    answer = { status: 200, body: JSON.stringify([{ tag_name: 'v0.0.1' }]) };
    expect((await check()).body.data).toMatchObject({ latest_version: 'v0.0.1', update_available: false });
  });

  it('refuses an unreachable or unreadable feed with its reason', async () => {
    process.env.ALLOW_PRIVATE_HOSTS = '127.0.0.1';
    await root.put('/api/option/', { key: 'UpdateCheckUrl', value: feedUrl });
    answer = { status: 503, body: '{}' };
    expect((await check()).body).toMatchObject({ success: false, code: 'update.unreachable', params: { detail: 'HTTP 503' } });
    answer = { status: 200, body: '<html>' };
    expect((await check()).body).toMatchObject({ success: false, code: 'update.bad_feed' });
    // Without the operator naming it, a private address is not fetched at all.
    delete process.env.ALLOW_PRIVATE_HOSTS;
    const blocked = (await check()).body;
    expect(blocked).toMatchObject({ success: false, code: 'update.unreachable' });
    expect(blocked.message).toContain('不允许访问内网');
  });

  it('is for root only', async () => {
    expect((await tg.client().get('/api/status/update')).status).toBe(401);
  });
});
