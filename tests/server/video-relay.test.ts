import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { must } from '../helpers/gateway.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { startSoraStandIn, startVeoStandIn, VIDEO_BYTES, type VideoStandIn } from '../helpers/upstreams/video.js';
import { balancesOf, callRelay, limitedToken, pollerOnDemand, userLogs } from '../helpers/task-relay.js';
import { expectTotalsMatchRows } from '../helpers/log-totals.js';
import { startTaskPoller, type TaskPoller } from '../../server/tasks/poller.js';
import type { GatewayContext } from '../../server/context.js';

// The OpenAI Videos API against a real gateway and local Sora and Veo stand-ins: submit (priced per
// second × size, held, logged), poll to completion (settled on the seconds made), content streamed
// from the vendor, failure refunded exactly once under concurrent pollers, and nothing of another
// user's videos readable.

const QPU = 500_000;
const PRICES = { 'sora-2': 0.01, 'sora-2-pro': 0.03, 'veo-3.0-generate-001': 0.04 };
const RATIOS = { '1792x1024': 1.5, 'sora-2-pro@1024x1792': 2 };
const quota = (usd: number) => Math.round(usd * QPU);

await forEachDatabase('video relay', (kind) => {
  let f: RelayFixture;
  let sora: VideoStandIn;
  let veo: VideoStandIn;
  let ctx: GatewayContext;
  let poller: TaskPoller;
  let soraChannel: number;
  let veoChannel: number;
  let key: string;
  let tokenId: number;
  let otherKey: string;

  const call = (path: string, body?: unknown, k: string = key) => callRelay(f, path, body, { authorization: `Bearer ${k}` });
  const balances = () => balancesOf(f, tokenId);
  const row = (id: string) => ctx.db.selectFrom('tasks').selectAll().where('task_id', '=', id).executeTakeFirstOrThrow();
  const content = (id: string, k: string = key) =>
    fetch(`${f.tg.url}/v1/videos/${id}/content`, { headers: { authorization: `Bearer ${k}` } });

  beforeAll(async () => {
    sora = await startSoraStandIn();
    veo = await startVeoStandIn();
    f = await startRelayFixture(kind);
    ctx = f.tg.gateway.ctx;
    poller = await pollerOnDemand(ctx);
    must(await f.root.put('/api/option/', { key: 'ModelSecondPrice', value: JSON.stringify(PRICES) }), 'prices');
    must(await f.root.put('/api/option/', { key: 'VideoResolutionRatio', value: JSON.stringify(RATIOS) }), 'ratios');
    soraChannel = await f.addChannel({ type: 55, name: 'sora', key: sora.key, base_url: sora.url, models: 'sora-2,sora-2-pro' });
    veoChannel = await f.addChannel({ type: 24, name: 'veo', key: veo.key, base_url: veo.url, models: 'veo-3.0-generate-001' });
    ({ id: tokenId, key } = await limitedToken(f));
    const rootToken = must(
      await f.root.post('/api/token/', { name: 'root', remain_quota: 0, unlimited_quota: true, expired_time: -1 }),
      't',
    );
    otherKey = must(await f.root.post(`/api/token/${rootToken.id}/key`), 'key').key;
  });
  afterAll(async () => {
    await poller?.stop();
    await f?.close();
    await sora?.close();
    await veo?.close();
  });

  it('Sora: submit priced per second × size, poll to completion, content streamed whole', async () => {
    const before = await balances();
    const res = await call('/v1/videos', { model: 'sora-2', prompt: 'a red fox in snow', seconds: '8', size: '1792x1024' });
    expect(res.status).toBe(200);
    const charged = quota(0.01 * 8 * 1.5);
    expect(res.body).toMatchObject({
      object: 'video',
      model: 'sora-2',
      status: 'queued',
      seconds: '8',
      size: '1792x1024',
      error: null,
    });
    const id = res.body.id as string;
    expect(id).toMatch(/^video_[0-9a-f]{32}$/);
    const sent = sora.requests.at(-1)!;
    expect(sent.headers.authorization).toBe(`Bearer ${sora.key}`);
    expect(sent.body).toEqual({ model: 'sora-2', prompt: 'a red fox in snow', seconds: '8', size: '1792x1024' });
    expect(await balances()).toEqual({ user: before.user - charged, token: before.token - charged });
    expect(await row(id)).toMatchObject({
      platform: 'video',
      channel_id: soraChannel,
      quota: charged,
      status: 'QUEUED',
      action: 'VIDEO',
    });
    const consume = (await userLogs(f, 2)).at(-1)!;
    expect(consume).toMatchObject({ model_name: 'sora-2', quota: charged, channel_id: soraChannel, token_id: tokenId });
    expect(JSON.parse(consume.other!)).toMatchObject({
      task_id: id,
      video_seconds: 8,
      video_size: '1792x1024',
      second_price: 0.01,
      resolution_ratio: 1.5,
    });
    // The vendor's id stays server-side.
    expect(JSON.stringify(res.body)).not.toContain([...sora.tasks.keys()].at(-1));

    // Reading an unfinished video asks the vendor first.
    expect((await call(`/v1/videos/${id}`)).body).toMatchObject({ status: 'in_progress', progress: 42 });
    expect((await content(id)).status).toBe(400);
    const round = await poller.pollOnce();
    expect(round.video.updated).toBeGreaterThanOrEqual(1);
    const done = await call(`/v1/videos/${id}`);
    expect(done.body).toMatchObject({ id, status: 'completed', progress: 100, seconds: '8' });
    expect(await balances()).toEqual({ user: before.user - charged, token: before.token - charged });

    const file = await content(id);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('video/mp4');
    expect(file.headers.get('location')).toBeNull();
    expect(Buffer.from(await file.arrayBuffer()).equals(VIDEO_BYTES)).toBe(true);
    expect(sora.requests.at(-1)!.url).toBe(`/v1/videos/${[...sora.tasks.keys()].at(-1)}/content`);

    // Streamed through: the first chunk reaches the client while the vendor still holds the rest.
    let release!: () => void;
    sora.hold = new Promise((r) => (release = r));
    const streamed = await content(id);
    const reader = streamed.body!.getReader();
    const first = await reader.read();
    expect(first.value!.byteLength).toBeGreaterThan(0);
    expect(first.value!.byteLength).toBeLessThan(VIDEO_BYTES.length);
    release();
    sora.hold = null;
    let total = first.value!.byteLength;
    for (let r = await reader.read(); !r.done; r = await reader.read()) total += r.value.byteLength;
    expect(total).toBe(VIDEO_BYTES.length);

    // The family's aliases read the same video.
    expect((await call(`/v1/video/generations/${id}`)).body).toMatchObject({ id, status: 'completed' });
  });

  it('Sora: a multipart submission sends the image on as input_reference; model@size ratios apply', async () => {
    const form = new FormData();
    form.append('model', 'sora-2-pro');
    form.append('prompt', 'animate this');
    form.append('seconds', '4');
    form.append('size', '1024x1792');
    form.append(
      'input_reference',
      new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3])], { type: 'image/png' }),
      'ref.png',
    );
    const before = await balances();
    const res = await fetch(`${f.tg.url}/v1/videos`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
    expect(res.status).toBe(200);
    const sent = sora.requests.at(-1)!;
    expect(String(sent.headers['content-type'])).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent.body).toMatchObject({ model: 'sora-2-pro', prompt: 'animate this', seconds: '4', size: '1024x1792' });
    expect(sent.body.input_reference).toBeInstanceOf(Blob);
    expect((sent.body.input_reference as Blob).size).toBe(7);
    expect((await balances()).user).toBe(before.user - quota(0.03 * 4 * 2));
  });

  it('Veo: operation polled, the file downloaded with the key in a header and streamed', async () => {
    const before = await balances();
    const png = `data:image/png;base64,${Buffer.from([1, 2, 3, 4]).toString('base64')}`;
    const res = await call('/v1/videos', {
      model: 'veo-3.0-generate-001',
      prompt: 'waves',
      seconds: 8,
      size: '1280x720',
      input_reference: png,
    });
    expect(res.status).toBe(200);
    const id = res.body.id as string;
    const sent = veo.requests.at(-1)!;
    expect(sent.url).toBe('/v1beta/models/veo-3.0-generate-001:predictLongRunning');
    expect(sent.headers['x-goog-api-key']).toBe(veo.key);
    expect(sent.body).toEqual({
      instances: [{ prompt: 'waves', image: { bytesBase64Encoded: 'AQIDBA==', mimeType: 'image/png' } }],
      parameters: { durationSeconds: 8, aspectRatio: '16:9', resolution: '720p' },
    });
    expect(await balances()).toEqual({ user: before.user - quota(0.04 * 8), token: before.token - quota(0.04 * 8) });
    expect((await call(`/v1/videos/${id}`)).body.status).toBe('in_progress');
    await poller.pollOnce();
    expect((await call(`/v1/videos/${id}`)).body).toMatchObject({ status: 'completed', seconds: '8' });
    const file = await content(id);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(VIDEO_BYTES)).toBe(true);
    const download = veo.requests.find((r) => r.url.includes(':download'))!;
    expect(download.headers['x-goog-api-key']).toBe(veo.key);
    expect(download.url).not.toContain(veo.key);
    // The signed hop of the redirect gets no key.
    expect(veo.requests.at(-1)!.url).toMatch(/^\/signed\//);
    expect(veo.requests.at(-1)!.headers['x-goog-api-key']).toBeUndefined();
    expect(await balances()).toEqual({ user: before.user - quota(0.04 * 8), token: before.token - quota(0.04 * 8) });
  });

  it('settles on the seconds the vendor made: the difference refunded or charged, with a log row', async () => {
    const before = await balances();
    const shorter = (await call('/v1/videos', { model: 'sora-2', prompt: 'made-3 please', seconds: 8 })).body.id as string;
    const longer = (await call('/v1/videos', { model: 'sora-2', prompt: 'made-12 please', seconds: 4 })).body.id as string;
    await poller.pollOnce();
    await poller.pollOnce();
    expect((await row(shorter)).quota).toBe(quota(0.01 * 3));
    expect((await row(longer)).quota).toBe(quota(0.01 * 12));
    expect((await call(`/v1/videos/${shorter}`)).body.seconds).toBe('3');
    const spent = quota(0.01 * 3) + quota(0.01 * 12);
    expect(await balances()).toEqual({ user: before.user - spent, token: before.token - spent });
    const refund = (await userLogs(f, 6)).find((l) => JSON.parse(l.other!).task_id === shorter)!;
    expect(refund).toMatchObject({ quota: quota(0.01 * 5), model_name: 'sora-2', token_id: tokenId });
    const extra = (await userLogs(f, 2)).find((l) => JSON.parse(l.other!).task_id === longer && l.quota === quota(0.01 * 8))!;
    expect(extra).toBeDefined();
    await poller.pollOnce();
    expect(await balances()).toEqual({ user: before.user - spent, token: before.token - spent });
    await expectTotalsMatchRows(ctx.db);
  });

  it('refunds a failed video exactly once, with three pollers at once', async () => {
    const before = await balances();
    const id = (await call('/v1/videos', { model: 'sora-2', prompt: 'this will-fail', seconds: 4 })).body.id as string;
    await poller.pollOnce();
    sora.queryDelayMs = 150;
    const others = [startTaskPoller(ctx, { intervalMs: 0 }), startTaskPoller(ctx, { intervalMs: 0 })];
    const rounds = await Promise.all([poller.pollOnce(), ...others.map((p) => p.pollOnce())]);
    sora.queryDelayMs = 0;
    await Promise.all(others.map((p) => p.stop()));
    expect(rounds.reduce((n, r) => n + r.video.refunded, 0)).toBe(1);
    const failed = await call(`/v1/videos/${id}`);
    expect(failed.body).toMatchObject({ status: 'failed', error: { message: 'Video generation failed: content policy' } });
    expect(await balances()).toEqual(before);
    const refunds = (await userLogs(f, 6)).filter((l) => JSON.parse(l.other!).task_id === id);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ quota: quota(0.04), token_name: 'limited' });
    await expectTotalsMatchRows(ctx.db);
  });

  it('fails and refunds a video still unfinished a day after submission, once', async () => {
    const before = await balances();
    const id = (await call('/v1/videos', { model: 'sora-2', prompt: 'slow one', seconds: 4 })).body.id as string;
    const late = Date.now() + 24 * 3_600_000 + 5_000;
    const timed = [
      startTaskPoller(ctx, { intervalMs: 0, now: () => late }),
      startTaskPoller(ctx, { intervalMs: 0, now: () => late }),
    ];
    try {
      const rounds = await Promise.all(timed.map((p) => p.pollOnce()));
      expect(rounds.reduce((n, r) => n + r.video.refunded, 0)).toBe(1);
    } finally {
      await Promise.all(timed.map((p) => p.stop()));
    }
    expect((await call(`/v1/videos/${id}`)).body).toMatchObject({
      status: 'failed',
      error: { message: expect.stringContaining('超时') },
    });
    expect(await balances()).toEqual(before);
    expect((await userLogs(f, 6)).filter((l) => JSON.parse(l.other!).task_id === id)).toHaveLength(1);
  });

  it("refuses another user's video, its content, its deletion and lists only one's own", async () => {
    const id = (await call('/v1/videos', { model: 'sora-2', prompt: 'mine', seconds: 4 })).body.id as string;
    await poller.pollOnce();
    await poller.pollOnce();
    expect((await call(`/v1/videos/${id}`)).body.status).toBe('completed');
    const foreign = await call(`/v1/videos/${id}`, undefined, otherKey);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toMatchObject({ code: 'task_not_exist' });
    const file = await content(id, otherKey);
    expect(file.status).toBe(404);
    const text = await file.text();
    expect(text).not.toContain(sora.key);
    expect(text).not.toContain(sora.url);
    expect((await call(`/v1/video/generations/${id}`, undefined, otherKey)).status).toBe(404);
    const del = await fetch(`${f.tg.url}/v1/videos/${id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${otherKey}` },
    });
    expect(del.status).toBe(404);
    expect((await call('/v1/videos', undefined, otherKey)).body).toEqual({
      object: 'list',
      data: [],
      first_id: null,
      last_id: null,
      has_more: false,
    });

    const mine = await call('/v1/videos?limit=2');
    expect(mine.body).toMatchObject({ object: 'list', first_id: id, has_more: true });
    expect(mine.body.data).toHaveLength(2);
    const page = await call(`/v1/videos?limit=100&after=${mine.body.last_id}`);
    expect(page.body.data.every((v: { id: string }) => v.id !== id)).toBe(true);

    // The console's player source: the session cookie alone (what a <video> sends), owner or admin only.
    const player = (cookie: string) => fetch(`${f.tg.url}/api/task/video/${id}/content`, { headers: cookie ? { cookie } : {} });
    const own = await player(f.user.cookie);
    expect(own.status).toBe(200);
    expect((await own.arrayBuffer()).byteLength).toBe(VIDEO_BYTES.length);
    const roots = await player(f.root.cookie);
    expect(roots.status).toBe(200);
    await roots.arrayBuffer(); // read whole: an unread answer keeps the connection open past close()
    expect((await player('')).status).toBe(401);
    const bob = f.tg.client();
    must(await f.root.post('/api/user/', { username: 'bob', password: 'bob-pass-1', display_name: 'Bob' }), 'bob');
    must(await bob.login('bob', 'bob-pass-1'), 'login');
    const bobs = await player(bob.cookie);
    expect(bobs.status).toBe(404);
    expect(await bobs.text()).not.toContain(sora.url);

    const upstreamIds = new Set(sora.tasks.keys());
    const deleted = await fetch(`${f.tg.url}/v1/videos/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${key}` } });
    expect(await deleted.json()).toEqual({ id, object: 'video.deleted', deleted: true });
    // Deleted at the vendor too, with the channel's key.
    const removal = sora.requests.at(-1)!;
    expect(removal.method).toBe('DELETE');
    expect(removal.headers.authorization).toBe(`Bearer ${sora.key}`);
    expect(upstreamIds.size - sora.tasks.size).toBe(1);
    expect((await call(`/v1/videos/${id}`)).status).toBe(404);
  });

  it("sends the channel's mapped model name on, billing the client's", async () => {
    must(
      await f.root.put('/api/option/', { key: 'ModelSecondPrice', value: JSON.stringify({ ...PRICES, 'house-video': 0.02 }) }),
      'p',
    );
    await f.addChannel({
      type: 55,
      name: 'mapped',
      key: sora.key,
      base_url: sora.url,
      models: 'house-video',
      model_mapping: JSON.stringify({ 'house-video': 'sora-2' }),
    });
    const before = await balances();
    const res = await call('/v1/videos', { model: 'house-video', prompt: 'mapped', seconds: 4 });
    expect(res.status).toBe(200);
    expect(res.body.model).toBe('house-video');
    expect(sora.requests.at(-1)!.body.model).toBe('sora-2');
    expect((await balances()).user).toBe(before.user - quota(0.02 * 4));
  });

  it('lists per-second prices on the pricing page', async () => {
    const items = must<Array<{ model_name: string; quota_type: number; model_price: number }>>(
      await f.user.get('/api/pricing'),
      'pricing',
    );
    expect(items.find((i) => i.model_name === 'sora-2')).toMatchObject({ quota_type: 2, model_price: 0.01 });
    expect(items.find((i) => i.model_name === 'veo-3.0-generate-001')).toMatchObject({ quota_type: 2, model_price: 0.04 });
  });

  it('refuses bad input and vendor refusals without charging', async () => {
    const before = await balances();
    const bad = await call('/v1/videos', { model: 'sora-2', prompt: 'x', seconds: 0 });
    expect(bad.status).toBe(400);
    expect((await call('/v1/videos', { model: 'sora-2', prompt: 'x', size: 'huge' })).status).toBe(400);
    expect((await call('/v1/videos', { model: 'unpriced-video', prompt: 'x' })).status).toBe(404);
    const refused = await call('/v1/videos', { model: 'sora-2', prompt: 'rejected prompt' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('moderation');
    expect(await balances()).toEqual(before);
    expect(veoChannel).toBeGreaterThan(0);
  });
});
