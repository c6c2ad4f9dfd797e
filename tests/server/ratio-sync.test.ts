/**
 * Ratio sync (SQLite) against a local stand-in gateway: the channel list, the differences and test
 * results of POST /api/ratio_sync/fetch for both answer shapes (`/api/ratio_config` and
 * `/api/pricing`), upstreams that fail (HTTP error, not JSON, too large, a redirect to a blocked
 * address), refusals that change nothing, and GET /api/ratio_config behind ExposeRatioEnabled —
 * read back by a second ratio sync pointed at the gateway itself.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupRoot, startTestGateway, type ApiClient, type TestGateway } from '../helpers/gateway.js';
import { expectOk, newKey } from '../helpers/channels.js';
import { listenLocally, sendJson } from '../helpers/upstreams/stand-in-server.js';
import { RATIO_SYNC_MAX_BYTES } from '../../server/pricing/ratio-fetch.js';

let tg: TestGateway;
let root: ApiClient;
let upstream: { url: string; close: () => Promise<void> };
const hits: string[] = [];

const RATIO_CONFIG = {
  success: true,
  data: {
    model_ratio: { 'gpt-4o': 2, 'new-model': 3, 'gpt-4o-mini': 0.075, weird: 'x', negative: -1 },
    completion_ratio: { 'new-model': 4 },
    cache_ratio: {},
    model_price: { 'mj-imagine': 0.25 },
  },
};
const PRICING_ROWS = {
  success: true,
  data: [
    { model_name: 'gpt-4o', quota_type: 0, model_ratio: 1.25, completion_ratio: 4 },
    { model_name: 'pricey', quota_type: 1, model_price: 0.5, model_ratio: 9 },
    { model_name: 'unset-model', quota_type: 0, model_ratio: 37.5, completion_ratio: 1 },
  ],
};

beforeAll(async () => {
  process.env.ALLOW_PRIVATE_HOSTS = '127.0.0.1';
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/api/ratio_config') return sendJson(res, 200, RATIO_CONFIG);
    if (req.url === '/api/pricing') return sendJson(res, 200, PRICING_ROWS);
    if (req.url === '/broken') return sendJson(res, 200, '<html>not json');
    if (req.url === '/failing') return sendJson(res, 500, { success: false });
    if (req.url === '/refusing') return sendJson(res, 200, { success: false, message: 'closed for maintenance' });
    if (req.url === '/to-metadata') {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' });
      return res.end();
    }
    if (req.url === '/huge') {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      for (let sent = 0; sent <= RATIO_SYNC_MAX_BYTES; sent += chunk.length) res.write(chunk);
      return res.end();
    }
    sendJson(res, 404, {});
  });
  upstream = await listenLocally(server);
  tg = await startTestGateway('sqlite');
  root = await setupRoot(tg);
});
afterAll(async () => {
  delete process.env.ALLOW_PRIVATE_HOSTS;
  await tg?.close();
  await upstream?.close();
});

const fetchRatios = (body: unknown) => root.post('/api/ratio_sync/fetch', body);
const option = async (key: string) =>
  ((await root.get('/api/option/')).body.data as { key: string; value: string }[]).find((o) => o.key === key)?.value;

describe('GET /api/ratio_sync/channels', () => {
  it('lists channels with a base URL, and the official preset', async () => {
    const id = expectOk(
      await root.post('/api/channel/', { name: 'peer', type: 1, key: newKey(), models: ['gpt-4o'], base_url: upstream.url }),
    ).id;
    expectOk(await root.post('/api/channel/', { name: 'no-base', type: 1, key: newKey(), models: ['gpt-4o'] }));
    const list = expectOk(await root.get('/api/ratio_sync/channels'));
    expect(list).toEqual([
      { id, name: 'peer', base_url: upstream.url, status: 1, type: 1 },
      { id: -100, name: '官方倍率预设', base_url: 'https://basellm.github.io', status: 1, type: 0 },
    ]);
  });
});

describe('POST /api/ratio_sync/fetch', () => {
  it('answers the differences from a ratio_config upstream, with null for what we do not set', async () => {
    const data = expectOk(
      await fetchRatios({ upstreams: [{ id: 7, name: 'peer', base_url: upstream.url, endpoint: '/api/ratio_config' }] }),
    );
    expect(data.test_results).toEqual([{ name: 'peer(7)', status: 'success' }]);
    expect(data.differences['gpt-4o']).toEqual({
      model_ratio: { current: 1.25, upstreams: { 'peer(7)': 2 }, confidence: { 'peer(7)': true } },
    });
    expect(data.differences['new-model']).toEqual({
      model_ratio: { current: null, upstreams: { 'peer(7)': 3 }, confidence: { 'peer(7)': true } },
      completion_ratio: { current: null, upstreams: { 'peer(7)': 4 }, confidence: { 'peer(7)': true } },
    });
    expect(data.differences['mj-imagine'].model_price).toEqual({
      current: null,
      upstreams: { 'peer(7)': 0.25 },
      confidence: { 'peer(7)': true },
    });
    // Equal values, and values that are not prices, are no differences.
    expect(data.differences['gpt-4o-mini']).toBeUndefined();
    expect(data.differences.weird).toBeUndefined();
    expect(data.differences.negative).toBeUndefined();
  });

  it('reads a /api/pricing upstream by stored channel id, and marks the unset-model filler untrusted', async () => {
    const channels = expectOk(await root.get('/api/ratio_sync/channels'));
    const peer = channels.find((c: { name: string }) => c.name === 'peer');
    const byId = expectOk(await fetchRatios({ channel_ids: [peer.id, 999999] }));
    expect(byId.test_results).toEqual([{ name: `peer(${peer.id})`, status: 'success' }]);
    expect(hits.at(-1)).toBe('/api/ratio_config');

    const data = expectOk(
      await fetchRatios({ upstreams: [{ name: 'shop', base_url: `${upstream.url}/`, endpoint: 'api/pricing' }] }),
    );
    expect(hits.at(-1)).toBe('/api/pricing');
    // Same model ratio (1.25); a completion ratio our CompletionRatio option does not set is null, not 0.
    expect(data.differences['gpt-4o']).toEqual({
      completion_ratio: { current: null, upstreams: { shop: 4 }, confidence: { shop: true } },
    });
    expect(data.differences.pricey).toEqual({
      model_price: { current: null, upstreams: { shop: 0.5 }, confidence: { shop: true } },
    });
    expect(data.differences['unset-model'].model_ratio).toEqual({
      current: null,
      upstreams: { shop: 37.5 },
      confidence: { shop: false },
    });
  });

  it('reports each failing upstream in its test result and still compares the others', async () => {
    const at = (name: string, endpoint: string) => ({ name, base_url: upstream.url, endpoint });
    const data = expectOk(
      await fetchRatios({
        upstreams: [
          at('good', '/api/ratio_config'),
          at('html', '/broken'),
          at('five-hundred', '/failing'),
          at('closed', '/refusing'),
          at('huge', '/huge'),
          at('redirect', '/to-metadata'),
          at('shape', `${upstream.url}/api/status-nothing`),
        ],
        timeout: 5,
      }),
    );
    const results = Object.fromEntries(data.test_results.map((r: { name: string }) => [r.name, r]));
    expect(results.good).toEqual({ name: 'good', status: 'success' });
    expect(results.html).toMatchObject({ status: 'error', error: '上游返回的不是 JSON' });
    expect(results['five-hundred']).toMatchObject({ status: 'error', error: 'HTTP 500' });
    expect(results.closed).toMatchObject({ status: 'error', error: 'closed for maintenance' });
    expect(results.huge).toMatchObject({ status: 'error' });
    expect(results.huge.error).toContain(String(RATIO_SYNC_MAX_BYTES));
    expect(results.redirect).toMatchObject({ status: 'error' });
    expect(results.redirect.error).toContain('169.254.169.254');
    expect(results.shape).toMatchObject({ status: 'error', error: 'HTTP 404' });
    expect(Object.keys(data.differences['new-model'].model_ratio.upstreams)).toEqual(['good']);
  });

  it('refuses bad requests by code and changes no option', async () => {
    const before = await option('ModelRatio');
    expect((await fetchRatios({})).body.code).toBe('ratio_sync.no_upstreams');
    expect((await fetchRatios({ channel_ids: [999999] })).body.code).toBe('ratio_sync.no_upstreams');
    expect((await fetchRatios({ upstreams: [{ name: 'x', base_url: 'ftp://example.com' }] })).body.code).toBe(
      'ratio_sync.bad_url',
    );
    expect((await fetchRatios({ upstreams: [{ name: 'x', base_url: 'http://169.254.169.254' }] })).body.code).toBe(
      'ratio_sync.blocked_url',
    );
    expect((await fetchRatios({ upstreams: [{ name: 'x', base_url: upstream.url, endpoint: 'openrouter' }] })).body.code).toBe(
      'ratio_sync.unsupported_endpoint',
    );
    expect((await fetchRatios({ upstreams: [{ name: 'x', base_url: 'http://exa mple.com' }] })).body.code).toBe(
      'ratio_sync.bad_url',
    );
    const modelsDev = { name: 'x', base_url: 'https://models.dev', endpoint: 'https://models.dev/api.json' };
    expect((await fetchRatios({ upstreams: [modelsDev] })).body.code).toBe('ratio_sync.unsupported_endpoint');
    const slow = await fetchRatios({ upstreams: [{ name: 'x', base_url: upstream.url }], timeout: 600 });
    expect(slow.body).toMatchObject({ success: false, code: 'request.invalid_params' });
    expect(await option('ModelRatio')).toBe(before);
  });
});

describe('GET /api/ratio_config', () => {
  it('is refused while ExposeRatioEnabled is off, and serves our maps once it is on', async () => {
    const off = await tg.client().get('/api/ratio_config');
    expect(off.status).toBe(403);
    expect(off.body).toMatchObject({ success: false, code: 'ratio_config.disabled' });
    expectOk(await root.put('/api/option/', { key: 'ModelRatio', value: JSON.stringify({ 'gpt-4o': 1.5, 'ours-only': 2 }) }));
    expectOk(await root.put('/api/option/', { key: 'ExposeRatioEnabled', value: 'true' }));
    const on = await tg.client().get('/api/ratio_config');
    expect(on.status).toBe(200);
    expect(on.body.data.model_ratio).toEqual({ 'gpt-4o': 1.5, 'ours-only': 2 });
    expect(Object.keys(on.body.data).sort()).toEqual(['cache_ratio', 'completion_ratio', 'model_price', 'model_ratio']);
  });

  it('is what another gateway syncs from: the peer reads our maps and sees no difference with itself', async () => {
    const data = expectOk(await fetchRatios({ upstreams: [{ name: 'self', base_url: tg.url, endpoint: '/api/ratio_config' }] }));
    expect(data.test_results).toEqual([{ name: 'self', status: 'success' }]);
    expect(data.differences).toEqual({});
    expectOk(await root.put('/api/option/', { key: 'ExposeRatioEnabled', value: 'false' }));
    const refused = expectOk(await fetchRatios({ upstreams: [{ name: 'self', base_url: tg.url }] }));
    expect(refused.test_results).toEqual([{ name: 'self', status: 'error', error: 'HTTP 403' }]);
  });
});
