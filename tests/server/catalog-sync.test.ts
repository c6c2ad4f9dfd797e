/**
 * Syncing model metadata from the official catalogue (SYNC_UPSTREAM_BASE), through the real app
 * against a stand-in catalogue on loopback: the preview (served models without a row that the
 * catalogue knows; fields that differ on rows that allow syncing), the sync creating rows and
 * their vendors and overwriting only the fields asked for on rows that allow it, the locale's
 * address, hostile values held to the columns (NUL characters dropped), and a catalogue that cannot be read refused with
 * nothing written.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { setupRoot, startTestGateway, type ApiClient, type TestGateway } from '../helpers/gateway.js';
import { expectOk } from '../helpers/channels.js';

const MODELS = [
  {
    model_name: 'gpt-4o',
    // A NUL, which PostgreSQL refuses in text, is dropped rather than failing the sync there.
    description: 'Omni\u0000 model',
    icon: 'OpenAI',
    tags: 'chat,vision',
    vendor_name: 'OpenAI',
    name_rule: 0,
    status: 1,
    context_length: 128000,
  },
  {
    model_name: 'claude-sonnet-4-5',
    description: 'x'.repeat(20_000),
    icon: 'javascript:alert(1)',
    tags: 'chat',
    vendor_name: 'Anthropic',
    context_length: -5,
    knowledge_cutoff: '2025-01',
  },
  { model_name: 'only-upstream', description: 'not served here', vendor_name: 'OpenAI' },
];
const VENDORS = [
  { name: 'OpenAI', description: 'The GPT people', icon: 'OpenAI', status: 1 },
  { name: 'Anthropic', icon: 'https://anthropic.test/logo.png' },
];

let standIn: Server;
let base = '';
let broken = false;
const asked: string[] = [];
const hostsBefore = process.env.ALLOW_PRIVATE_HOSTS;

beforeAll(async () => {
  standIn = createServer((req, res) => {
    asked.push(req.url ?? '');
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (broken) return send(503, { message: 'down' });
    if (req.url?.endsWith('/newapi/models.json')) return send(200, { success: true, data: MODELS });
    // The vendors come as a bare array: both shapes are read.
    if (req.url?.endsWith('/newapi/vendors.json')) return send(200, VENDORS);
    send(404, {});
  });
  await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}/`;
  // The stand-in runs on loopback: the operator names it as a trusted private host.
  process.env.ALLOW_PRIVATE_HOSTS = '127.0.0.1';
});
afterAll(async () => {
  if (hostsBefore === undefined) delete process.env.ALLOW_PRIVATE_HOSTS;
  else process.env.ALLOW_PRIVATE_HOSTS = hostsBefore;
  await new Promise((resolve) => standIn?.close(resolve));
});

await forEachDatabase('model catalogue sync', (kind) => {
  let tg: TestGateway;
  let root: ApiClient;
  const count = async (table: 'vendors' | 'models') =>
    Number(
      (
        await tg.gateway.ctx.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const row = (name: string) =>
    tg.gateway.ctx.db.selectFrom('models').selectAll().where('model_name', '=', name).executeTakeFirstOrThrow();

  beforeAll(async () => {
    broken = false;
    tg = await startTestGateway(kind, { SYNC_UPSTREAM_BASE: base });
    root = await setupRoot(tg);
    expectOk(
      await root.post('/api/channel/', {
        type: 1,
        key: 'sk-sync',
        base_url: 'http://127.0.0.1:9',
        name: 'main',
        models: 'gpt-4o,claude-sonnet-4-5,house-model',
        group: 'default',
      }),
    );
    await tg.gateway.ctx.channels.reload();
  });
  afterAll(async () => tg?.close());

  it('refuses when the catalogue cannot be read, writing nothing', async () => {
    broken = true;
    const res = await root.post('/api/models/sync_upstream', {});
    broken = false;
    expect(res.body).toMatchObject({ success: false, code: 'model.sync_fetch_failed' });
    expect(await count('models')).toBe(0);
    expect(await count('vendors')).toBe(0);
  });

  it('previews the served models the catalogue knows, from the locale asked for', async () => {
    asked.length = 0;
    const preview = expectOk(await root.get('/api/models/sync_upstream/preview?locale=ZH-cn'));
    expect(preview.missing.sort()).toEqual(['claude-sonnet-4-5', 'gpt-4o']);
    expect(preview.conflicts).toEqual([]);
    expect(preview.source.models_url).toBe(`${base.replace(/\/$/, '')}/api/i18n/zh-CN/newapi/models.json`);
    expect(asked).toContain('/api/i18n/zh-CN/newapi/models.json');
  });

  it('creates the missing rows and their vendors, holding hostile values to the columns', async () => {
    const result = expectOk(await root.post('/api/models/sync_upstream', {}));
    expect(result).toMatchObject({ created_models: 2, created_vendors: 2, updated_models: 0, skipped_models: ['house-model'] });
    const gpt = await row('gpt-4o');
    expect(gpt).toMatchObject({
      description: 'Omni model',
      icon: 'OpenAI',
      tags: 'chat,vision',
      context_length: 128000,
      status: 1,
    });
    const claude = await row('claude-sonnet-4-5');
    expect(claude.icon).toBe('');
    expect(claude.description).toHaveLength(10_000);
    expect(claude.context_length).toBe(0);
    const vendors = await tg.gateway.ctx.db.selectFrom('vendors').selectAll().orderBy('name').execute();
    expect(vendors.map((v) => [v.name, v.icon])).toEqual([
      ['Anthropic', 'https://anthropic.test/logo.png'],
      ['OpenAI', 'OpenAI'],
    ]);
    // The pricing page now names the catalogue's vendor.
    const pricing = (await tg.client().get('/api/pricing')).body;
    const item = pricing.data.find((i: { model_name: string }) => i.model_name === 'gpt-4o');
    expect(pricing.vendors.find((v: { id: number }) => v.id === item.vendor_id)).toMatchObject({ name: 'OpenAI' });
    // A second sync finds nothing left to create.
    expect(expectOk(await root.post('/api/models/sync_upstream', {}))).toMatchObject({
      created_models: 0,
      skipped_models: ['house-model'],
    });
  });

  it('shows where a row differs and overwrites only the fields asked for, on rows that allow it', async () => {
    const gpt = await row('gpt-4o');
    expectOk(await root.put('/api/models/', { id: gpt.id, description: 'Ours', tags: 'mine' }));
    const claude = await row('claude-sonnet-4-5');
    expectOk(await root.put('/api/models/', { id: claude.id, description: 'Keep me', sync_official: 0 }));

    const preview = expectOk(await root.get('/api/models/sync_upstream/preview'));
    expect(preview.missing).toEqual([]);
    expect(preview.conflicts).toEqual([
      {
        model_name: 'gpt-4o',
        fields: [
          { field: 'description', local: 'Ours', upstream: 'Omni model' },
          { field: 'tags', local: 'mine', upstream: 'chat,vision' },
        ],
      },
    ]);

    const result = expectOk(
      await root.post('/api/models/sync_upstream', {
        overwrite: [
          { model_name: 'gpt-4o', fields: ['description'] },
          { model_name: 'claude-sonnet-4-5', fields: ['description'] },
        ],
      }),
    );
    expect(result).toMatchObject({ updated_models: 1, updated_list: ['gpt-4o'] });
    expect(await row('gpt-4o')).toMatchObject({ description: 'Omni model', tags: 'mine' });
    expect((await row('claude-sonnet-4-5')).description).toBe('Keep me');
  });

  it('refuses a malformed sync request before reading anything', async () => {
    asked.length = 0;
    const res = await root.post('/api/models/sync_upstream', { overwrite: 'all' });
    expect(res.body).toMatchObject({ success: false, code: 'request.invalid_params' });
    expect(asked).toEqual([]);
  });
});
