/**
 * Calls of the family's console we now serve (SQLite): the settings cards it saves, the legal
 * pages, Uptime Kuma status (against a local Kuma stand-in), the performance panel, the migration of
 * its older dashboard settings, and the channel key reveal it is refused.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupRoot, startTestGateway, type ApiClient, type TestGateway } from '../helpers/gateway.js';
import { loginAs, PASSWORD } from '../helpers/users.js';
import { createUser } from '../../server/users/repository.js';

let tg: TestGateway;
let root: ApiClient;
let admin: ApiClient;
let kuma: Server;
let kumaUrl: string;
let kumaHits = 0;

const option = async (key: string) =>
  ((await root.get('/api/option/')).body.data as { key: string; value: string }[]).find((o) => o.key === key)?.value;
const put = (key: string, value: unknown) => root.put('/api/option/', { key, value });

beforeAll(async () => {
  process.env.ALLOW_PRIVATE_HOSTS = '127.0.0.1';
  kuma = createServer((req, res) => {
    kumaHits++;
    res.setHeader('Content-Type', 'application/json');
    if (req.url === '/api/status-page/main')
      return res.end(
        JSON.stringify({
          publicGroupList: [
            {
              id: 1,
              name: 'API',
              monitorList: [
                { id: 7, name: 'chat' },
                { id: 8, name: 'images' },
              ],
            },
          ],
        }),
      );
    if (req.url === '/api/status-page/heartbeat/main')
      return res.end(
        JSON.stringify({ heartbeatList: { '7': [{ status: 0 }, { status: 1 }], '8': [] }, uptimeList: { '7_24': 0.995 } }),
      );
    res.statusCode = 404;
    res.end('{}');
  });
  await new Promise<void>((resolve) => kuma.listen(0, '127.0.0.1', resolve));
  kumaUrl = `http://127.0.0.1:${(kuma.address() as AddressInfo).port}`;
  tg = await startTestGateway('sqlite');
  root = await setupRoot(tg);
  const { db, dbKind } = tg.gateway.ctx;
  await createUser(db, dbKind, { username: 'admin1', password: PASSWORD, role: 10 });
  admin = await loginAs(tg, 'admin1');
});
afterAll(async () => {
  delete process.env.ALLOW_PRIVATE_HOSTS;
  await tg?.close();
  await new Promise((resolve) => kuma?.close(resolve));
});

describe('settings cards', () => {
  it('saves the three keys it was refused and reads them back', async () => {
    expect((await put('global.thinking_model_blacklist', '["kimi-k2-thinking"]')).body.success).toBe(true);
    expect((await put('model_deployment.ionet.enabled', 'true')).body.success).toBe(true);
    expect((await put('performance_setting.disk_cache_enabled', 'true')).body.success).toBe(true);
    expect(await option('global.thinking_model_blacklist')).toBe('["kimi-k2-thinking"]');
    expect(await option('model_deployment.ionet.enabled')).toBe('true');
    expect(await option('performance_setting.disk_cache_enabled')).toBe('true');
  });

  it('refuses malformed values by code and keeps what was saved', async () => {
    expect((await put('global.thinking_model_blacklist', '{"a":1}')).body.code).toBe('option.not_string_list');
    expect((await put('global.thinking_model_blacklist', '[1]')).body.code).toBe('option.not_string_list');
    expect((await put('performance_setting.monitor_cpu_threshold', '150')).body).toMatchObject({
      code: 'option.out_of_range',
      params: { max: 100 },
    });
    expect((await put('console_setting.uptime_kuma_groups', '[{"categoryName":"x","url":"ftp://a","slug":"s"}]')).body.code).toBe(
      'option.bad_uptime_groups',
    );
    expect((await put('discord.enabled', 'true')).body.code).toBe('option.discord_incomplete');
    expect(await option('global.thinking_model_blacklist')).toBe('["kimi-k2-thinking"]');
    expect(await option('performance_setting.monitor_cpu_threshold')).toBe('90');
  });

  it('keeps the io.net key write-only', async () => {
    expect((await put('model_deployment.ionet.api_key', 'io-secret')).body.success).toBe(true);
    expect(JSON.stringify((await root.get('/api/option/')).body)).not.toContain('io-secret');
  });
});

describe('legal pages', () => {
  it('serves what the root wrote and says so in the status', async () => {
    expect((await tg.client().get('/api/user-agreement')).body).toMatchObject({ success: true, data: '' });
    expect((await tg.client().get('/api/status')).body.data.user_agreement_enabled).toBe(false);
    expect((await put('legal.user_agreement', '<h1>Terms</h1><p style="color:red">Be nice.</p>')).body.success).toBe(true);
    expect((await put('legal.privacy_policy', '# Privacy\n\nWe keep logs.')).body.success).toBe(true);
    expect((await tg.client().get('/api/user-agreement')).body.data).toBe('<h1>Terms</h1><p style="color:red">Be nice.</p>');
    expect((await tg.client().get('/api/privacy-policy')).body.data).toBe('# Privacy\n\nWe keep logs.');
    expect((await tg.client().get('/api/status')).body.data).toMatchObject({
      user_agreement_enabled: true,
      privacy_policy_enabled: true,
    });
  });

  it('refuses active HTML and keeps the page as it was', async () => {
    for (const bad of [
      '<script>alert(1)</script>',
      '<img src=x onerror="alert(1)">',
      '<a href="javascript:alert(1)">x</a>',
      '<iframe src="//x">',
    ])
      expect((await put('legal.user_agreement', bad)).body.code, bad).toBe('option.unsafe_html');
    expect((await tg.client().get('/api/user-agreement')).body.data).toContain('Be nice.');
  });
});

describe('Uptime Kuma status', () => {
  it('answers no groups until some are configured', async () => {
    expect((await tg.client().get('/api/uptime/status')).body).toEqual({ success: true, message: '', data: [] });
  });

  it('reads each status page and its heartbeats, and keeps the answer a minute', async () => {
    const groups = [
      { categoryName: 'Core', url: kumaUrl, slug: 'main' },
      { categoryName: 'Gone', url: kumaUrl, slug: 'missing' },
    ];
    expect((await put('console_setting.uptime_kuma_groups', JSON.stringify(groups))).body.success).toBe(true);
    const res = await tg.client().get('/api/uptime/status');
    expect(res.body.data).toEqual([
      {
        categoryName: 'Core',
        monitors: [
          { name: 'chat', group: 'API', uptime: 0.995, status: 1 },
          { name: 'images', group: 'API', uptime: 0, status: 0 },
        ],
      },
      { categoryName: 'Gone', monitors: [] },
    ]);
    const hits = kumaHits;
    await tg.client().get('/api/uptime/status');
    expect(kumaHits).toBe(hits);
  });
});

describe('performance panel', () => {
  it('is root-only and answers this process and the saved settings', async () => {
    expect((await admin.get('/api/performance/stats')).body.success).toBe(false);
    const stats = (await root.get('/api/performance/stats')).body.data;
    expect(stats.memory_stats.sys).toBeGreaterThan(0);
    expect(stats.memory_stats.num_goroutine).toBeNull();
    expect(stats.config).toMatchObject({ disk_cache_enabled: true, monitor_cpu_threshold: 90 });
    expect(stats.disk_space_info.total).toBeGreaterThan(0);
    expect((await root.delete('/api/performance/logs')).body.code).toBe('performance.no_log_files');
    const gc = (await root.post('/api/performance/gc', {})).body;
    expect(gc.success || gc.code === 'performance.gc_unavailable').toBe(true);
  });
});

describe('migrate_console_setting', () => {
  it('moves the older dashboard settings to console_setting.* and deletes them', async () => {
    const { options } = tg.gateway.ctx;
    await options.setInternal('Announcements', '[{"content":"hello"}]');
    await options.setInternal('FAQ', '[{"title":"Q?","content":"A."}]');
    const res = await root.post('/api/option/migrate_console_setting', {});
    expect(res.body).toMatchObject({ success: true, message: 'migrated' });
    expect(await option('console_setting.announcements')).toBe('[{"content":"hello"}]');
    expect(JSON.parse((await option('console_setting.faq'))!)).toEqual([{ question: 'Q?', answer: 'A.' }]);
    expect(options.internal('FAQ')).toBeUndefined();
    expect((await admin.post('/api/option/migrate_console_setting', {})).body.success).toBe(false);
  });
});

describe('channel key reveal', () => {
  it('is refused with a stable code, to the root too', async () => {
    const res = await root.post('/api/channel/1/key', {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: false, code: 'channel.key_write_only' });
    expect((await admin.post('/api/channel/1/key', {})).body.code).not.toBe('channel.key_write_only');
  });
});
