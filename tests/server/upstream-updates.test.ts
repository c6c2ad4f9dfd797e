/**
 * Upstream model-update detection (SQLite) against a local OpenAI-style stand-in whose model list
 * the tests change: detect and detect_all record what the upstream added and dropped in the
 * channel's settings (mapping targets count as present, mapping sources are kept, ignored models
 * are not offered again); apply and apply_all change the channel's models and abilities; refusals
 * change nothing.
 */
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupRoot, startTestGateway, type ApiClient, type TestGateway } from '../helpers/gateway.js';
import { expectOk, newKey } from '../helpers/channels.js';
import { loginAs, PASSWORD } from '../helpers/users.js';
import { listenLocally, sendJson } from '../helpers/upstreams/stand-in-server.js';
import { createUser } from '../../server/users/repository.js';
import { loadConfig } from '../../server/config.js';
import { runUpstreamModelCheck } from '../../server/channels/upstream-task.js';

let tg: TestGateway;
let root: ApiClient;
let admin: ApiClient;
let upstream: { url: string; close: () => Promise<void> };
let offered = ['gpt-4o', 'gpt-4o-2024', 'new-a', 'new-b'];
const CHECK = { upstream_model_update_check_enabled: true, keep: 1 };

beforeAll(async () => {
  const server = createServer((req, res) => {
    if (req.headers.authorization === 'Bearer sk-upstream-invalid') return sendJson(res, 401, { error: { message: 'bad key' } });
    if (req.url === '/v1/models')
      return sendJson(res, 200, { object: 'list', data: offered.map((id) => ({ id, object: 'model' })) });
    sendJson(res, 404, {});
  });
  upstream = await listenLocally(server);
  tg = await startTestGateway('sqlite');
  root = await setupRoot(tg);
  const { db, dbKind } = tg.gateway.ctx;
  await createUser(db, dbKind, { username: 'admin1', password: PASSWORD, role: 10 });
  admin = await loginAs(tg, 'admin1');
});
afterAll(async () => {
  await tg?.close();
  await upstream?.close();
});

async function channel(name: string, settings: object, extra: object = {}): Promise<number> {
  const body = { name, type: 1, key: newKey(), base_url: upstream.url, models: ['gpt-4o', 'old-model', 'alias'], ...extra };
  return expectOk(await root.post('/api/channel/', { ...body, settings: JSON.stringify(settings) })).id;
}
const view = async (id: number) => expectOk(await root.get(`/api/channel/${id}`));
const settingsOf = async (id: number) => JSON.parse((await view(id)).settings);
const abilities = async (id: number) =>
  (await tg.gateway.ctx.db.selectFrom('abilities').select('model').where('channel_id', '=', id).execute())
    .map((r) => r.model)
    .sort();

describe('detect and apply one channel', () => {
  let id: number;
  beforeAll(async () => {
    id = await channel('watched', CHECK, { model_mapping: JSON.stringify({ alias: 'gpt-4o-2024' }) });
  });

  it('records what the upstream added and dropped, keeping the other settings', async () => {
    const data = expectOk(await admin.post('/api/channel/upstream_updates/detect', { id }));
    expect(data).toMatchObject({
      channel_id: id,
      channel_name: 'watched',
      add_models: ['new-a', 'new-b'],
      remove_models: ['old-model'],
    });
    expect(data.last_check_time).toBeGreaterThan(0);
    expect(await settingsOf(id)).toMatchObject({
      ...CHECK,
      upstream_model_update_last_detected_models: ['new-a', 'new-b'],
      upstream_model_update_last_removed_models: ['old-model'],
    });
    expect((await view(id)).models).toBe('gpt-4o,old-model,alias');
  });

  it('applies only as root, only pending models, and keeps ignored ones out of later detections', async () => {
    const choice = { id, add_models: ['new-a', 'not-offered'], ignore_models: ['new-b'], remove_models: ['old-model', 'gpt-4o'] };
    expect((await admin.post('/api/channel/upstream_updates/apply', choice)).body.code).toBe('auth.forbidden');
    expect((await view(id)).models).toBe('gpt-4o,old-model,alias');
    const data = expectOk(await root.post('/api/channel/upstream_updates/apply', choice));
    expect(data).toMatchObject({
      id,
      added_models: ['new-a'],
      removed_models: ['old-model'],
      ignored_models: ['new-b'],
      remaining_models: [],
      remaining_remove_models: [],
      models: 'gpt-4o,alias,new-a',
    });
    expect(JSON.parse(data.settings).upstream_model_update_ignored_models).toEqual(['new-b']);
    expect(await abilities(id)).toEqual(['alias', 'gpt-4o', 'new-a']);
    offered = [...offered, 'new-c'];
    const again = expectOk(await admin.post('/api/channel/upstream_updates/detect', { id }));
    expect(again).toMatchObject({ add_models: ['new-c'], remove_models: [] });
  });

  it('refuses by code and changes nothing', async () => {
    const before = await view(id);
    const plain = await channel('plain', { keep: 1 });
    expect((await admin.post('/api/channel/upstream_updates/detect', { id: plain })).body.code).toBe(
      'channel.upstream_check_disabled',
    );
    expect((await admin.post('/api/channel/upstream_updates/detect', { id: 999999 })).body.code).toBe('channel.not_found');
    expect((await admin.post('/api/channel/upstream_updates/detect', {})).body.code).toBe('request.invalid_params');
    expect((await root.post('/api/channel/upstream_updates/apply', { id: 999999 })).body.code).toBe('channel.not_found');
    expect((await root.post('/api/channel/upstream_updates/apply', { id, add_models: { a: 1 } })).body.code).toBe(
      'request.invalid_params',
    );
    expect(await view(id)).toEqual(before);
    expect(JSON.parse((await view(plain)).settings)).toEqual({ keep: 1 });
  });

  it('refuses an apply that would leave the channel without models', async () => {
    offered = ['something-else'];
    const lonely = await channel('lonely', CHECK, { models: ['only-one'] });
    expect(expectOk(await admin.post('/api/channel/upstream_updates/detect', { id: lonely })).remove_models).toEqual([
      'only-one',
    ]);
    const res = await root.post('/api/channel/upstream_updates/apply', { id: lonely, remove_models: ['only-one'] });
    expect(res.body.code).toBe('channel.models_required');
    expect((await view(lonely)).models).toBe('only-one');
    expect(await abilities(lonely)).toEqual(['only-one']);
    await root.delete(`/api/channel/${lonely}`);
  });
});

describe('detect_all and apply_all', () => {
  it('detects every enabled channel that opted in, lists the failures, then applies everything pending', async () => {
    offered = ['gpt-4o', 'fresh'];
    const a = await channel('all-a', CHECK);
    const broken = await channel('all-broken', CHECK);
    await tg.gateway.ctx.db.updateTable('channels').set({ key: 'sk-upstream-invalid' }).where('id', '=', broken).execute();
    const off = await channel('all-off', CHECK);
    expectOk(await root.put('/api/channel/', { id: off, status: 2 }));

    const detected = expectOk(await admin.post('/api/channel/upstream_updates/detect_all', {}));
    expect(detected.failed_channel_ids).toEqual([broken]);
    const mine = detected.channel_detected_results.find((r: { channel_id: number }) => r.channel_id === a);
    expect(mine).toMatchObject({ add_models: ['fresh'], remove_models: ['old-model', 'alias'] });
    expect(detected.channel_detected_results.some((r: { channel_id: number }) => r.channel_id === off)).toBe(false);
    expect(detected.processed_channels).toBe(detected.channel_detected_results.length);
    // A failed check still records when it ran.
    expect((await settingsOf(broken)).upstream_model_update_last_check_time).toBeGreaterThan(0);

    const applied = expectOk(await root.post('/api/channel/upstream_updates/apply_all', {}));
    const row = applied.results.find((r: { channel_id: number }) => r.channel_id === a);
    expect(row).toMatchObject({ added_models: ['fresh'], removed_models: ['old-model', 'alias'] });
    expect(applied.failed_channel_ids).toEqual([]);
    expect(applied.added_models).toBeGreaterThanOrEqual(1);
    expect((await view(a)).models).toBe('gpt-4o,fresh');
    expect(await abilities(a)).toEqual(['fresh', 'gpt-4o']);
    expect((await view(off)).models).toBe('gpt-4o,old-model,alias');
  });
});

describe('the background check', () => {
  it('is off unless CHANNEL_UPSTREAM_MODEL_UPDATE_TASK_ENABLED is true', () => {
    expect(loadConfig({}).upstreamModelUpdate).toEqual({ enabled: false, intervalMinutes: 30, minCheckSeconds: 300 });
    const on = loadConfig({
      CHANNEL_UPSTREAM_MODEL_UPDATE_TASK_ENABLED: 'true',
      CHANNEL_UPSTREAM_MODEL_UPDATE_TASK_INTERVAL_MINUTES: '5',
    });
    expect(on.upstreamModelUpdate).toMatchObject({ enabled: true, intervalMinutes: 5 });
  });

  it('adds offered models to auto-sync channels, only records them for the others, and skips channels checked recently', async () => {
    offered = ['gpt-4o', 'old-model', 'alias', 'auto-new'];
    const auto = await channel('auto', { ...CHECK, upstream_model_update_auto_sync_enabled: true });
    const manual = await channel('manual', CHECK);
    const run = await runUpstreamModelCheck(tg.gateway.ctx, 300);
    expect(run.autoAdded).toBeGreaterThanOrEqual(1);
    expect((await view(auto)).models).toBe('gpt-4o,old-model,alias,auto-new');
    expect(await abilities(auto)).toContain('auto-new');
    expect((await settingsOf(auto)).upstream_model_update_last_detected_models).toEqual([]);
    expect((await view(manual)).models).toBe('gpt-4o,old-model,alias');
    expect((await settingsOf(manual)).upstream_model_update_last_detected_models).toEqual(['auto-new']);
    offered = [...offered, 'later'];
    const again = await runUpstreamModelCheck(tg.gateway.ctx, 300);
    expect(again.checked).toBe(0);
    expect((await view(auto)).models).not.toContain('later');
  });
});
