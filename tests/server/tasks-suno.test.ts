import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { startSunoStandIn, type SunoStandIn } from '../helpers/upstreams/suno.js';
import { balancesOf, callRelay, limitedToken, pollerOnDemand, usedOf, userLogs } from '../helpers/task-relay.js';
import { expectTotalsMatchRows } from '../helpers/log-totals.js';
import { startTaskPoller, type TaskPoller } from '../../server/tasks/poller.js';
import { applySunoTask } from '../../server/tasks/suno/poll.js';
import type { GatewayContext } from '../../server/context.js';

// The Suno relay against a real gateway and a local suno-api stand-in: submit (charged, logged,
// stored), fetch, polling to success and to failure (refunded exactly once), continuations on
// the song's own channel, and the 24-hour timeout driven by an injected clock.

const QUOTA_PER_UNIT = 500_000;
const MUSIC = Math.round(0.1 * QUOTA_PER_UNIT);
const LYRICS = Math.round(0.01 * QUOTA_PER_UNIT);
const HOUR_MS = 3_600_000;

await forEachDatabase('suno relay', (kind) => {
  let f: RelayFixture;
  let up: SunoStandIn;
  let ctx: GatewayContext;
  let poller: TaskPoller;
  let channelId: number;
  let limitedKey: string;
  let limitedTokenId: number;

  const call = (path: string, body?: unknown, key: string = f.key) =>
    callRelay(f, path, body, { authorization: `Bearer ${key}` });
  const balances = () => balancesOf(f, limitedTokenId);
  const task = (taskId: string) => ctx.db.selectFrom('tasks').selectAll().where('task_id', '=', taskId).executeTakeFirstOrThrow();
  const logsOf = (type: number) => userLogs(f, type);

  beforeAll(async () => {
    up = await startSunoStandIn();
    f = await startRelayFixture(kind);
    ctx = f.tg.gateway.ctx;
    poller = await pollerOnDemand(ctx);
    channelId = await f.addChannel({ type: 36, name: 'suno', key: up.key, base_url: up.url, models: 'suno_music,suno_lyrics' });
    ({ id: limitedTokenId, key: limitedKey } = await limitedToken(f));
  });
  afterAll(async () => {
    await poller?.stop();
    await f?.close();
    await up?.close();
  });

  it('submits music: charged per call, logged, stored as a suno task of its channel', async () => {
    const before = await balances();
    const res = await call('/suno/submit/music', { prompt: '[Verse] neon lights', tags: 'edm', mv: 'chirp-v3-5' }, limitedKey);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 'success', message: '' });
    const id = res.body.data as string;
    expect(up.tasks.has(id)).toBe(true);
    const sent = up.requests.at(-1)!;
    expect(sent.headers.authorization).toBe(`Bearer ${up.key}`);
    expect(sent.body).toEqual({ prompt: '[Verse] neon lights', tags: 'edm', mv: 'chirp-v3-5' });
    expect(await balances()).toEqual({ user: before.user - MUSIC, token: before.token - MUSIC });
    expect(await task(id)).toMatchObject({
      platform: 'suno',
      action: 'MUSIC',
      user_id: f.userId,
      channel_id: channelId,
      status: 'SUBMITTED',
      quota: MUSIC,
    });
    const consume = (await logsOf(2)).at(-1)!;
    expect(consume).toMatchObject({ model_name: 'suno_music', quota: MUSIC, channel_id: channelId, token_id: limitedTokenId });

    const lyrics = await call('/suno/submit/lyrics', { prompt: 'a song about the sea' }, limitedKey);
    expect((await task(lyrics.body.data)).action).toBe('LYRICS');
    expect((await balances()).user).toBe(before.user - MUSIC - LYRICS);
  });

  it('fetches tasks by id and by ids, only for their owner', async () => {
    const id = (await call('/suno/submit/music', { prompt: 'fetch me' })).body.data as string;
    const one = await call(`/suno/fetch/${id}`);
    expect(one.body).toMatchObject({
      code: 'success',
      data: { task_id: id, action: 'MUSIC', status: 'SUBMITTED', progress: '0%', data: null },
    });
    const many = await call('/suno/fetch', { ids: [id, 'unknown'] });
    expect(many.body.data).toHaveLength(1);
    expect(many.body.data[0].task_id).toBe(id);
    const rootToken = await f.root.post('/api/token/', {
      name: 'root',
      remain_quota: 0,
      unlimited_quota: true,
      expired_time: -1,
    });
    const rootKey = (await f.root.post(`/api/token/${rootToken.body.data.id}/key`)).body.data.key;
    const foreign = await call(`/suno/fetch/${id}`, undefined, rootKey);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ code: 'task_not_exist', message: 'task_not_exist', data: null });
    expect((await call('/suno/fetch', { ids: [id] }, rootKey)).body.data).toEqual([]);
  });

  it('polls music through progress to success with its clips', async () => {
    const before = await balances();
    const id = (await call('/suno/submit/music', { prompt: 'poll me' }, limitedKey)).body.data as string;
    await poller.pollOnce();
    expect(await task(id)).toMatchObject({ status: 'IN_PROGRESS', start_time: 1716191786 });
    await poller.pollOnce();
    const done = await task(id);
    expect(done).toMatchObject({ status: 'SUCCESS', progress: '100%', finish_time: 1716191836 });
    const fetched = await call(`/suno/fetch/${id}`);
    expect(fetched.body.data.data[0]).toMatchObject({ status: 'complete', audio_url: expect.stringContaining('.mp3') });
    expect(await balances()).toEqual({ user: before.user - MUSIC, token: before.token - MUSIC });
  });

  it('refunds a failed task exactly once, even with three pollers at once', async () => {
    const before = await balances();
    const used = await usedOf(f, limitedTokenId, channelId);
    const billed = (await call('/dashboard/billing/usage', undefined, limitedKey)).body.total_usage;
    const id = (await call('/suno/submit/music', { prompt: 'this will-fail' }, limitedKey)).body.data as string;
    await poller.pollOnce();
    up.listDelayMs = 150;
    const asked = up.requests.length;
    const others = [startTaskPoller(ctx, { intervalMs: 0 }), startTaskPoller(ctx, { intervalMs: 0 })];
    const rounds = await Promise.all([poller.pollOnce(), ...others.map((p) => p.pollOnce())]);
    up.listDelayMs = 0;
    await Promise.all(others.map((p) => p.stop()));
    const askedAbout = up.requests.slice(asked).filter((r) => r.url === '/suno/fetch' && r.body.ids.includes(id));
    expect(askedAbout).toHaveLength(3);
    expect(rounds.reduce((n, r) => n + r.suno.refunded, 0)).toBe(1);
    expect(await task(id)).toMatchObject({
      status: 'FAILURE',
      fail_reason: 'Unable to generate music: content flagged by moderation',
    });
    await poller.pollOnce();
    expect(await balances()).toEqual(before);
    const refunds = (await logsOf(6)).filter((l) => JSON.parse(l.other!).task_id === id);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ quota: MUSIC, model_name: 'suno_music', token_id: limitedTokenId, token_name: 'limited' });
    // The whole charge is undone: what the user, the token and the channel are recorded to have used,
    // what the old billing endpoint reports, and the hourly totals.
    expect(await usedOf(f, limitedTokenId, channelId)).toEqual(used);
    expect((await call('/dashboard/billing/usage', undefined, limitedKey)).body.total_usage).toBe(billed);
    const consumed = (await logsOf(2)).filter((l) => l.model_name === 'suno_music').reduce((s, l) => s + l.quota, 0);
    const refunded = (await logsOf(6)).filter((l) => l.model_name === 'suno_music').reduce((s, l) => s + l.quota, 0);
    const totals = await ctx.db
      .selectFrom('quota_data')
      .select('quota')
      .where('user_id', '=', f.userId)
      .where('model_name', '=', 'suno_music')
      .execute();
    expect(totals.reduce((s, t) => s + t.quota, 0)).toBe(consumed - refunded);
    // The exact totals of the log rows, consume and refund rows alike, and the stat read from them.
    await expectTotalsMatchRows(ctx.db);
    const stat = await f.root.get('/api/log/stat?model_name=suno_music');
    expect(stat.body.data.quota).toBe(
      (
        await ctx.db.selectFrom('logs').select('quota').where('type', '=', 2).where('model_name', '=', 'suno_music').execute()
      ).reduce((s, l) => s + l.quota, 0),
    );

    // A stale read applied again changes nothing.
    const stale = { ...(await task(id)), status: 'IN_PROGRESS' };
    expect(await applySunoTask(ctx, stale, { task_id: id, status: 'FAILURE', fail_reason: 'again' }, 0)).toBe('unchanged');
    expect(await balances()).toEqual(before);
  });

  it('fails and refunds a task still unfinished 24 hours after submission, once', async () => {
    const before = await balances();
    const id = (await call('/suno/submit/music', { prompt: 'never-finish' }, limitedKey)).body.data as string;
    const submitted = Date.now();
    let clock = submitted + 23 * HOUR_MS;
    const timed = startTaskPoller(ctx, { intervalMs: 0, now: () => clock });
    try {
      await timed.pollOnce();
      await timed.pollOnce();
      expect(await task(id)).toMatchObject({ status: 'IN_PROGRESS' });
      expect((await balances()).user).toBe(before.user - MUSIC);
      clock = submitted + 24 * HOUR_MS + 2000;
      const [a, b] = await Promise.all([timed.pollOnce(), poller.pollOnce()]);
      expect(a.suno.refunded + b.suno.refunded).toBe(1);
      const failed = await task(id);
      expect(failed).toMatchObject({ status: 'FAILURE', progress: '100%' });
      expect(failed.fail_reason).toContain('超时');
      expect(failed.finish_time).toBe(Math.floor(clock / 1000));
      await timed.pollOnce();
      expect(await balances()).toEqual(before);
      expect((await logsOf(6)).filter((l) => JSON.parse(l.other!).task_id === id)).toHaveLength(1);
    } finally {
      await timed.stop();
    }
  });

  it('gives the charge back when the upstream refuses or fails, and refuses what the balance cannot cover', async () => {
    const before = await balances();
    const refused = await call('/suno/submit/music', { prompt: 'rejected prompt' }, limitedKey);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ code: 'invalid_request', message: 'prompt is too long', data: null });
    const broken = await call('/suno/submit/music', { prompt: 'upstream-500' }, limitedKey);
    expect(broken.status).toBe(500);
    expect(broken.body).toMatchObject({ code: 'upstream_error', data: null });
    expect(await balances()).toEqual(before);
    expect(
      await ctx.db.selectFrom('tasks').select('id').where('status', '=', 'FAILURE').where('quota', '=', 0).execute(),
    ).toEqual([]);

    await ctx.db.updateTable('tokens').set({ remain_quota: 100 }).where('id', '=', limitedTokenId).execute();
    const asked = up.requests.length;
    const short = await call('/suno/submit/music', { prompt: 'too expensive' }, limitedKey);
    expect(short.status).toBe(429);
    expect(short.body).toMatchObject({ code: 'insufficient_quota', data: null });
    expect(up.requests.length).toBe(asked);
    await ctx.db.updateTable('tokens').set({ remain_quota: 1_000_000 }).where('id', '=', limitedTokenId).execute();
  });

  it('sends a continuation to the channel that made the song', async () => {
    const id = (await call('/suno/submit/music', { prompt: 'first part' })).body.data as string;
    const other = await startSunoStandIn('other-key');
    const otherId = await f.addChannel({
      type: 36,
      name: 'suno-2',
      key: 'other-key',
      base_url: other.url,
      models: 'suno_music',
      priority: 10,
    });
    try {
      const cont = await call('/suno/submit/music', {
        prompt: 'second part',
        task_id: id,
        continue_at: 120,
        continue_clip_id: 'clip',
      });
      expect(cont.body.code).toBe('success');
      expect(up.requests.at(-1)!.body).toMatchObject({ task_id: id, continue_at: 120 });
      expect((await task(cont.body.data)).channel_id).toBe(channelId);
      expect(other.requests).toHaveLength(0);
      const fresh = await call('/suno/submit/music', { prompt: 'new song' });
      expect((await task(fresh.body.data)).channel_id).toBe(otherId);
      expect((await call('/suno/submit/music', { prompt: 'x', task_id: 'not-mine' })).status).toBe(404);
    } finally {
      await f.root.delete(`/api/channel/${otherId}`);
      await ctx.channels.reload();
      await other.close();
      await poller.pollOnce();
    }
  });
});
