import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { MJ_IMAGE, startMidjourneyStandIn, type MidjourneyStandIn } from '../helpers/upstreams/midjourney.js';
import { balancesOf, callRelay, limitedToken, pollerOnDemand, userLogs } from '../helpers/task-relay.js';
import { startGatewayPoller, startTaskPoller, taskPollerOf, type TaskPoller } from '../../server/tasks/poller.js';
import { applyUpstreamTask } from '../../server/tasks/midjourney/poll.js';
import type { GatewayContext } from '../../server/context.js';

// The Midjourney-proxy relay against a real gateway and a local midjourney-proxy stand-in: submit
// (charged, logged, stored), fetch, polling to success and to failure (refunded exactly once), the
// drawing options, follow-ups on the task's own channel, and the image proxy.

const QUOTA_PER_UNIT = 500_000;
const PRICES = { mj_imagine: 0.1, mj_upscale: 0.05, mj_custom_zoom: 0, mj_modal: 0.1, mj_upload: 0.05, mj_shorten: 0.1 };
const cost = (model: keyof typeof PRICES) => Math.round(PRICES[model] * QUOTA_PER_UNIT);

await forEachDatabase('midjourney relay', (kind) => {
  let f: RelayFixture;
  let up: MidjourneyStandIn;
  let ctx: GatewayContext;
  let poller: TaskPoller;
  let channelId: number;
  let limitedKey: string;
  let limitedTokenId: number;

  const call = (path: string, body?: unknown, key: string = f.key) => callRelay(f, path, body, { 'mj-api-secret': key });
  const setOption = async (key: string, value: string | boolean) => {
    const res = await f.root.put('/api/option/', { key, value: String(value) });
    expect(res.body.success, res.body.message).toBe(true);
  };
  const balances = () => balancesOf(f, limitedTokenId);
  const task = (mjId: string) =>
    ctx.db.selectFrom('midjourneys').selectAll().where('mj_id', '=', mjId).orderBy('id', 'desc').executeTakeFirstOrThrow();
  const logsOf = (type: number) => userLogs(f, type);
  const lastRequest = () => up.requests.at(-1)!;

  beforeAll(async () => {
    up = await startMidjourneyStandIn();
    f = await startRelayFixture(kind);
    ctx = f.tg.gateway.ctx;
    poller = await pollerOnDemand(ctx);
    const prices = JSON.parse(
      (await f.root.get('/api/option/')).body.data.find((o: { key: string }) => o.key === 'ModelPrice').value,
    );
    await setOption('ModelPrice', JSON.stringify({ ...prices, ...PRICES }));
    channelId = await f.addChannel({
      type: 2,
      name: 'mj-proxy',
      key: up.secret,
      base_url: up.url,
      models: Object.keys(PRICES).join(','),
    });
    ({ id: limitedTokenId, key: limitedKey } = await limitedToken(f));
  });
  afterAll(async () => {
    await poller?.stop();
    await f?.close();
    await up?.close();
  });

  it('submits an imagine: charged per call, logged, stored with the upstream id and channel', async () => {
    const before = await balances();
    const res = await call('/mj/submit/imagine', { prompt: 'a red fox in the snow', state: 'my-state' }, limitedKey);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 1, description: '提交成功' });
    const id = res.body.result as string;
    expect(up.tasks.get(id)?.prompt).toBe('a red fox in the snow');
    // The channel's key goes upstream, never the caller's.
    expect(lastRequest().headers['mj-api-secret']).toBe(up.secret);
    expect(lastRequest().url).toBe('/mj/submit/imagine');

    const after = await balances();
    expect(before.user - after.user).toBe(cost('mj_imagine'));
    expect(before.token - after.token).toBe(cost('mj_imagine'));
    const row = await task(id);
    expect(row).toMatchObject({
      user_id: f.userId,
      action: 'IMAGINE',
      code: 1,
      channel_id: channelId,
      status: 'SUBMITTED',
      quota: cost('mj_imagine'),
      prompt: 'a red fox in the snow',
      state: 'my-state',
    });
    expect(row.submit_time).toBeGreaterThan(Date.now() - 60_000);
    const consume = (await logsOf(2)).at(-1)!;
    expect(consume).toMatchObject({
      model_name: 'mj_imagine',
      quota: cost('mj_imagine'),
      channel_id: channelId,
      token_id: limitedTokenId,
    });
    expect(JSON.parse(consume.other!)).toMatchObject({ model_price: 0.1, task_id: id, task_action: 'IMAGINE' });
  });

  it('fetches the stored task in midjourney-proxy shape, only for its owner', async () => {
    const { body } = await call('/mj/submit/imagine', { prompt: 'fetch me' });
    const id = body.result as string;
    const fetched = await call(`/mj/task/${id}/fetch`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toMatchObject({
      id,
      action: 'IMAGINE',
      status: 'SUBMITTED',
      prompt: 'fetch me',
      progress: '0%',
      buttons: [],
    });
    const listed = await call('/mj/task/list-by-condition', { ids: [id, 'no-such-id'] });
    expect(listed.body).toHaveLength(1);
    expect(listed.body[0].id).toBe(id);

    // Another user's key sees nothing.
    const rootToken = await f.root.post('/api/token/', {
      name: 'root',
      remain_quota: 0,
      unlimited_quota: true,
      expired_time: -1,
    });
    const rootKey = (await f.root.post(`/api/token/${rootToken.body.data.id}/key`)).body.data.key;
    const foreign = await call(`/mj/task/${id}/fetch`, undefined, rootKey);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: 3, description: 'task_not_found' });
    expect((await call('/mj/task/list-by-condition', { ids: [id] }, rootKey)).body).toEqual([]);
    expect((await call(`/mj/task/${id}/fetch`, undefined, 'sk-not-a-key')).status).toBe(401);
  });

  it('polls a task through progress to success, keeping its charge', async () => {
    const before = await balances();
    const { body } = await call('/mj/submit/imagine', { prompt: 'poll to success' }, limitedKey);
    const id = body.result as string;
    await poller.pollOnce();
    expect(await task(id)).toMatchObject({ status: 'IN_PROGRESS', progress: '46%' });
    await poller.pollOnce();
    const done = await task(id);
    expect(done).toMatchObject({
      status: 'SUCCESS',
      progress: '100%',
      image_url: `${up.url}/attachments/${id}.png`,
      fail_reason: null,
    });
    expect(done.finish_time).toBeGreaterThan(0);
    expect(JSON.parse(done.buttons!)).toHaveLength(5);
    const fetched = await call(`/mj/task/${id}/fetch`);
    expect(fetched.body).toMatchObject({ status: 'SUCCESS', imageUrl: `${up.url}/attachments/${id}.png` });
    expect(fetched.body.properties).toMatchObject({ messageHash: '3dbbd469-36af-4a0f-8f02-df6c579e7011' });
    expect((await balances()).user).toBe(before.user - cost('mj_imagine'));
    // A finished task is not asked about again.
    const asked = up.requests.length;
    await poller.pollOnce();
    expect(up.requests.slice(asked).some((r) => JSON.stringify(r.body ?? '').includes(id))).toBe(false);
  });

  it('refunds a failed task exactly once, even with three pollers at once', async () => {
    const before = await balances();
    const { body } = await call('/mj/submit/imagine', { prompt: 'this one will-fail' }, limitedKey);
    const id = body.result as string;
    await poller.pollOnce();
    expect((await task(id)).status).toBe('IN_PROGRESS');
    up.listDelayMs = 150;
    const asked = up.requests.length;
    const second = startTaskPoller(ctx, { intervalMs: 0 });
    const third = startTaskPoller(ctx, { intervalMs: 0 });
    const rounds = await Promise.all([poller.pollOnce(), second.pollOnce(), third.pollOnce()]);
    up.listDelayMs = 0;
    await second.stop();
    await third.stop();
    // All three asked about the task while it was unfinished; one of them refunded it.
    const askedAbout = up.requests.slice(asked).filter((r) => r.url === '/mj/task/list-by-condition' && r.body.ids.includes(id));
    expect(askedAbout).toHaveLength(3);
    expect(rounds.reduce((n, r) => n + r.midjourney.refunded, 0)).toBe(1);
    const failed = await task(id);
    expect(failed).toMatchObject({ status: 'FAILURE', progress: '100%', fail_reason: '[Invalid parameter] Invalid value' });
    expect(await balances()).toEqual(before);
    await poller.pollOnce();
    const refunds = (await logsOf(6)).filter((l) => JSON.parse(l.other!).task_id === id);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({
      quota: cost('mj_imagine'),
      model_name: 'mj_imagine',
      channel_id: channelId,
      token_id: limitedTokenId,
    });
    expect(await balances()).toEqual(before);
  });

  it('applies one failure seen twice from a stale read only once', async () => {
    const before = await balances();
    const { body } = await call('/mj/submit/imagine', { prompt: 'stale will-fail' }, limitedKey);
    const id = body.result as string;
    up.finish(id, 'failure');
    const stale = await task(id);
    const answers = await Promise.all([0, 1, 2].map(() => applyUpstreamTask(ctx, stale, up.view(id), Date.now())));
    expect(answers.filter((a) => a === 'refunded')).toHaveLength(1);
    expect(await applyUpstreamTask(ctx, stale, up.view(id), Date.now())).toBe('unchanged');
    expect(await balances()).toEqual(before);
  });

  it('gives the charge back when the upstream refuses or fails the submission', async () => {
    const before = await balances();
    const banned = await call('/mj/submit/imagine', { prompt: 'something banned' }, limitedKey);
    expect(banned.status).toBe(200);
    expect(banned.body).toMatchObject({ code: 24, description: '可能包含敏感词' });
    const broken = await call('/mj/submit/imagine', { prompt: 'upstream-500' }, limitedKey);
    expect(broken.status).toBe(500);
    expect(broken.body).toMatchObject({ code: 9, type: 'upstream_error' });
    expect(await balances()).toEqual(before);
    const refused = await ctx.db
      .selectFrom('midjourneys')
      .selectAll()
      .where('prompt', '=', 'something banned')
      .executeTakeFirstOrThrow();
    expect(refused).toMatchObject({ status: 'FAILURE', code: 24, quota: 0, fail_reason: '可能包含敏感词' });
    // Nothing is charged for a malformed request or an unknown customId either.
    expect((await call('/mj/submit/imagine', { prompt: '' }, limitedKey)).status).toBe(400);
    expect((await call('/mj/submit/action', { taskId: 'x', customId: 'MJ::Nope::1' }, limitedKey)).body).toMatchObject({
      code: 4,
    });
    expect(await balances()).toEqual(before);
  });

  it('refuses a submission the balance cannot cover, without calling upstream', async () => {
    await ctx.db.updateTable('tokens').set({ remain_quota: 10 }).where('id', '=', limitedTokenId).execute();
    const asked = up.requests.length;
    const res = await call('/mj/submit/imagine', { prompt: 'too expensive' }, limitedKey);
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ code: 4 });
    expect(up.requests.length).toBe(asked);
    await ctx.db.updateTable('tokens').set({ remain_quota: 1_000_000 }).where('id', '=', limitedTokenId).execute();
  });

  it('drops notifyHook and accountFilter unless allowed, and clears speed modes when told', async () => {
    const extra = { notifyHook: 'https://example.com/hook', accountFilter: { modes: ['FAST'] } };
    await call('/mj/submit/imagine', { prompt: 'options off', ...extra });
    expect(lastRequest().body).toEqual({ prompt: 'options off' });
    await setOption('MjNotifyEnabled', true);
    await setOption('MjAccountFilterEnabled', true);
    await call('/mj/submit/imagine', { prompt: 'options on', ...extra });
    expect(lastRequest().body).toEqual({ prompt: 'options on', ...extra });
    await setOption('MjNotifyEnabled', false);
    await setOption('MjAccountFilterEnabled', false);

    await call('/mj-fast/mj/submit/imagine', { prompt: 'a cat --fast --v 6' });
    expect(lastRequest()).toMatchObject({ url: '/mj-fast/mj/submit/imagine', body: { prompt: 'a cat --fast --v 6' } });
    await call('/relax/mj/submit/imagine', { prompt: 'a cat' });
    expect(lastRequest().url).toBe('/mj-relax/mj/submit/imagine');
    await setOption('MjModeClearEnabled', true);
    const cleared = await call('/mj-turbo/mj/submit/imagine', { prompt: 'a cat --turbo --v 6 --relax' });
    expect(cleared.body.code).toBe(1);
    expect(lastRequest()).toMatchObject({ url: '/mj/submit/imagine', body: { prompt: 'a cat --v 6' } });
    await setOption('MjModeClearEnabled', false);
  });

  it('runs a follow-up on the channel holding its task, and checks that task succeeded', async () => {
    const { body } = await call('/mj/submit/imagine', { prompt: 'origin' });
    const origin = body.result as string;
    // A second, preferred channel now takes new tasks; follow-ups stay with the first.
    const other = await startMidjourneyStandIn('other-secret');
    let fresh = '';
    const otherId = await f.addChannel({
      type: 5,
      name: 'mj-plus',
      key: 'other-secret',
      base_url: other.url,
      models: 'mj_imagine,mj_upscale',
      priority: 10,
    });
    try {
      const customId = 'MJ::JOB::upsample::1::3dbbd469-36af-4a0f-8f02-df6c579e7011';
      const early = await call('/mj/submit/action', { taskId: origin, customId });
      expect(early.status).toBe(400);
      expect(early.body).toMatchObject({ code: 4, description: 'task_status_not_success' });
      up.finish(origin, 'success');
      await poller.pollOnce();
      const before = await ctx.db.selectFrom('users').select('quota').where('id', '=', f.userId).executeTakeFirstOrThrow();
      const action = await call('/mj/submit/action', { taskId: origin, customId });
      expect(action.body.code).toBe(1);
      expect(lastRequest()).toMatchObject({ url: '/mj/submit/action', body: { taskId: origin, customId } });
      expect(other.requests).toHaveLength(0);
      const row = await task(action.body.result);
      expect(row).toMatchObject({ action: 'UPSCALE', channel_id: channelId, quota: cost('mj_upscale') });
      const after = await ctx.db.selectFrom('users').select('quota').where('id', '=', f.userId).executeTakeFirstOrThrow();
      expect(before.quota - after.quota).toBe(cost('mj_upscale'));
      expect((await call(`/mj/task/${action.body.result}/fetch`)).body.customId).toBe(customId);

      fresh = (await call('/mj/submit/imagine', { prompt: 'goes to the preferred channel' })).body.result as string;
      expect((await task(fresh)).channel_id).toBe(otherId);
      expect(other.requests).toHaveLength(1);
    } finally {
      await f.root.delete(`/api/channel/${otherId}`);
      await ctx.channels.reload();
      await other.close();
      // Its task now has no channel: failed and refunded here, not in a later test.
      await poller.pollOnce();
    }
    expect((await task(fresh)).fail_reason).toBe('渠道已删除');
  });

  it('lets a follow-up of an unfinished task through when MjActionCheckSuccessEnabled is off', async () => {
    const pending = (await call('/mj/submit/imagine', { prompt: 'pending' })).body.result as string;
    await setOption('MjActionCheckSuccessEnabled', false);
    try {
      const before = await balances();
      const unchecked = await call('/mj/submit/simple-change', { content: `${pending} U2` }, limitedKey);
      expect(unchecked.body).toMatchObject({ code: 4, description: '关联任务状态错误' });
      expect(lastRequest()).toMatchObject({ url: '/mj/submit/simple-change', body: { content: `${pending} U2` } });
      // The upstream refused: the charge came back.
      expect(await balances()).toEqual(before);
    } finally {
      await setOption('MjActionCheckSuccessEnabled', true);
    }
  });

  it('completes a window action through modal, refunding the whole task once if it fails', async () => {
    const before = await balances();
    const { body } = await call('/mj/submit/imagine', { prompt: 'zoom will-fail' }, limitedKey);
    up.finish(body.result, 'success');
    await poller.pollOnce();
    const zoom = await call('/mj/submit/action', { taskId: body.result, customId: 'MJ::CustomZoom::3dbbd469' }, limitedKey);
    expect(zoom.body).toMatchObject({ code: 21, description: 'Waiting for window confirm' });
    const windowId = zoom.body.result as string;
    expect(await task(windowId)).toMatchObject({ status: 'MODAL', action: 'CUSTOM_ZOOM', quota: 0 });
    const modal = await call('/mj/submit/modal', { taskId: windowId, prompt: 'zoom will-fail --zoom 2' }, limitedKey);
    expect(modal.body).toMatchObject({ code: 1, result: windowId });
    const rows = await ctx.db.selectFrom('midjourneys').selectAll().where('mj_id', '=', windowId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'SUBMITTED', quota: cost('mj_modal'), prompt: 'zoom will-fail --zoom 2' });
    up.finish(windowId, 'failure');
    await poller.pollOnce();
    await poller.pollOnce();
    expect((await task(windowId)).status).toBe('FAILURE');
    expect((await balances()).user).toBe(before.user - cost('mj_imagine'));
  });

  it('rewrites image URLs to the gateway with MjForwardUrlEnabled and serves the image safely', async () => {
    const { body } = await call('/mj/submit/imagine', { prompt: 'picture' });
    const id = body.result as string;
    up.finish(id, 'success');
    await poller.pollOnce();
    await setOption('MjForwardUrlEnabled', true);
    expect((await call(`/mj/task/${id}/fetch`)).body.imageUrl).toBe(`${f.tg.url}/mj/image/${id}`);
    await setOption('ServerAddress', 'https://gateway.example.com/');
    expect((await call(`/mj/task/${id}/fetch`)).body.imageUrl).toBe(`https://gateway.example.com/mj/image/${id}`);
    await setOption('ServerAddress', '');
    await setOption('MjForwardUrlEnabled', false);

    // The stand-in lives on loopback: the image link came from the upstream's answer, so opening
    // channel upstreams does not open it; only an operator naming the host does.
    process.env.ALLOW_PRIVATE_UPSTREAMS = 'true';
    const blocked = await fetch(`${f.tg.url}/mj/image/${id}`);
    expect(blocked.status).toBe(502);
    expect(await blocked.json()).toMatchObject({ code: 9, type: 'image_blocked' });
    process.env.ALLOW_PRIVATE_HOSTS = '127.0.0.1';
    try {
      const image = await fetch(`${f.tg.url}/mj/image/${id}`);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await image.arrayBuffer()).equals(MJ_IMAGE)).toBe(true);
    } finally {
      delete process.env.ALLOW_PRIVATE_HOSTS;
    }
    expect((await fetch(`${f.tg.url}/mj/image/no-such-task`)).status).toBe(404);
  });

  it('prices uploads and stores them finished; relays image-seed; fails tasks of deleted channels', async () => {
    const before = await balances();
    const upload = await call('/mj/submit/upload-discord-images', { base64Array: ['data:image/png;base64,AAAA'] }, limitedKey);
    expect(upload.body).toMatchObject({ code: 1, result: [`${up.url}/attachments/upload-1.png`] });
    expect((await balances()).user).toBe(before.user - cost('mj_upload'));
    const uploaded = await ctx.db.selectFrom('midjourneys').selectAll().where('action', '=', 'UPLOAD').executeTakeFirstOrThrow();
    expect(uploaded).toMatchObject({
      status: 'SUCCESS',
      image_url: `${up.url}/attachments/upload-1.png`,
      quota: cost('mj_upload'),
    });

    const { body } = await call('/mj/submit/imagine', { prompt: 'seed' });
    expect((await call(`/mj/task/${body.result}/image-seed`)).body).toEqual({
      code: 1,
      description: '成功',
      result: '2867352347',
    });

    const orphan = await ctx.db
      .insertInto('midjourneys')
      .values({
        user_id: f.userId,
        action: 'IMAGINE',
        mj_id: 'orphan-1',
        status: 'IN_PROGRESS',
        channel_id: 987654,
        quota: 1234,
        properties: JSON.stringify({ payer: { token_id: limitedTokenId, unlimited_token: false } }),
      })
      .executeTakeFirst();
    expect(orphan).toBeDefined();
    const mid = await balances();
    await poller.pollOnce();
    expect(await task('orphan-1')).toMatchObject({ status: 'FAILURE', fail_reason: '渠道已删除' });
    expect(await balances()).toEqual({ user: mid.user + 1234, token: mid.token + 1234 });
  });

  it('polls on its own timer on the master node only', async () => {
    const { body } = await call('/mj/submit/imagine', { prompt: 'timer' });
    const timed = startTaskPoller(ctx, { intervalMs: 20 });
    try {
      await expect.poll(async () => (await task(body.result)).status, { timeout: 5000, interval: 20 }).toBe('SUCCESS');
    } finally {
      await timed.stop();
    }
    const slave = { ...ctx, config: { ...ctx.config, isMaster: false } } as GatewayContext;
    await startGatewayPoller(slave)();
    expect(taskPollerOf(slave)).toBeUndefined();
  });
});
