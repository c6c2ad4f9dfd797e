/**
 * Channel health on one gateway, against stand-in upstreams whose health the test changes: a
 * channel failing half its calls is cooled down once the window's rule is met and traffic moves to
 * its sibling; when the stand-in recovers, the channel comes back by itself (the half-open call);
 * a stream-only channel is tested with a stream, so the periodic test can enable it again; and with
 * latency-aware routing a slow channel gets less of the traffic.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { startFlakyStandIn, type FlakyStandIn } from '../helpers/upstreams/flaky.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

await forEachDatabase('channel breaker', (kind) => {
  let f: RelayFixture;
  let flaky: FlakyStandIn;
  let steady: FlakyStandIn;
  let seq = 0;

  beforeAll(async () => {
    f = await startRelayFixture(kind);
    flaky = await startFlakyStandIn();
    steady = await startFlakyStandIn();
  });
  afterAll(async () => {
    await f?.close();
    await flaky?.close();
    await steady?.close();
  });

  async function setOption(key: string, value: string) {
    const res = await f.root.put('/api/option/', { key, value });
    expect(res.body, key).toMatchObject({ success: true });
  }

  /** A model of its own for each test, priced, so tests share no channel. */
  async function freshModel(): Promise<string> {
    const model = `breaker-${kind}-${++seq}`;
    const ratios = JSON.parse(f.tg.gateway.ctx.options.string('ModelRatio')) as Record<string, number>;
    await setOption('ModelRatio', JSON.stringify({ ...ratios, [model]: 1 }));
    return model;
  }

  async function chat(model: string, stream = false): Promise<number> {
    const res = await fetch(`${f.tg.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${f.key}` },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }], stream }),
    });
    await res.text();
    return res.status;
  }

  async function healthOf(id: number) {
    const res = await f.root.get(`/api/channel/${id}`);
    expect(res.body.success).toBe(true);
    return res.body.data.health as { state: string; until: number; rule: string; reason: string; trips: number };
  }

  beforeEach(async () => {
    flaky.state.failEvery = 0;
    flaky.state.delayMs = 0;
    flaky.state.streamOnly = false;
    steady.state.delayMs = 0;
    await setOption('RetryTimes', '1');
    await setOption('channel_health.enabled', 'true');
    await setOption('channel_health.window_seconds', '60');
    await setOption('channel_health.min_requests', '10');
    await setOption('channel_health.error_rate', '0.5');
    await setOption('channel_health.consecutive_failures', '5');
    await setOption('channel_health.cooldown_seconds', '2');
    await setOption('channel_health.cooldown_max_seconds', '60');
    await setOption('channel_health.latency_routing_enabled', 'false');
  });

  it('cools a channel failing half its calls down, moves traffic to its sibling, and takes it back when it recovers', async () => {
    const model = await freshModel();
    const sick = await f.addChannel({ name: 'sick', key: 'sk-sick', base_url: flaky.url, models: model });
    const sibling = await f.addChannel({ name: 'sibling', key: 'sk-sibling', base_url: steady.url, models: model });
    flaky.state.failEvery = 2;
    await setOption('channel_health.cooldown_seconds', '3');
    const sickCalls = () => flaky.calls.filter((c) => c.key === 'sk-sick').length;

    // Every call is served (a failure retries on the sibling) until the rule trips.
    let tripped = false;
    for (let i = 0; i < 60 && !tripped; i++) {
      expect(await chat(model)).toBe(200);
      tripped = (await healthOf(sick)).state === 'cooling';
    }
    expect(tripped).toBe(true);
    const health = await healthOf(sick);
    expect(health).toMatchObject({ state: 'cooling', rule: 'error_rate', trips: 1 });
    expect(health.reason).toContain('500');
    expect(health.until).toBeGreaterThan(Date.now() / 1000);
    // At most the window's threshold of calls went there before it tripped.
    expect(sickCalls()).toBeLessThanOrEqual(20);
    expect((await healthOf(sibling)).state).toBe('healthy');

    // Cooling down: the sibling takes everything.
    const before = sickCalls();
    for (let i = 0; i < 10; i++) expect(await chat(model)).toBe(200);
    expect(sickCalls()).toBe(before);

    // The upstream recovers; once the cool-down ends, a call decides and closes it — no admin.
    flaky.state.failEvery = 0;
    await sleep(3200);
    for (let i = 0; i < 20 && sickCalls() === before; i++) expect(await chat(model)).toBe(200);
    expect(sickCalls()).toBeGreaterThan(before);
    expect((await healthOf(sick)).state).toBe('healthy');
    const back = sickCalls();
    for (let i = 0; i < 20; i++) expect(await chat(model)).toBe(200);
    expect(sickCalls()).toBeGreaterThan(back);
  }, 60_000);

  it('doubles the cool-down when the half-open call fails, and serves from a cooling channel rather than refuse', async () => {
    const model = await freshModel();
    const only = await f.addChannel({ name: 'only', key: 'sk-only', base_url: flaky.url, models: model });
    flaky.state.failEvery = 1;
    await setOption('RetryTimes', '0');
    for (let i = 0; i < 5; i++) expect(await chat(model)).toBe(500);
    const first = await healthOf(only);
    expect(first).toMatchObject({ state: 'cooling', rule: 'consecutive', trips: 1 });

    // The only channel cools down: calls still reach it instead of being refused.
    const calls = flaky.calls.length;
    expect(await chat(model)).toBe(500);
    expect(flaky.calls.length).toBe(calls + 1);

    await sleep(2200);
    expect(await chat(model)).toBe(500);
    const second = await healthOf(only);
    expect(second).toMatchObject({ state: 'cooling', rule: 'probe_failed', trips: 2 });
    // 2 s doubled to 4 s.
    expect(second.until - Math.floor(Date.now() / 1000)).toBeGreaterThanOrEqual(3);
  }, 30_000);

  it('tests a stream-only channel with a stream, so the test enables it again', async () => {
    const model = await freshModel();
    await setOption('AutomaticEnableChannelEnabled', 'true');
    flaky.state.streamOnly = true;
    const id = await f.addChannel({ name: 'streamer', key: 'sk-streamer', base_url: flaky.url, models: model, status: 1 });
    await f.tg.gateway.ctx.db.updateTable('channels').set({ status: 3 }).where('id', '=', id).execute();
    const before = flaky.calls.length;
    const answer = await f.root.get(`/api/channel/test/${id}`);
    expect(answer.body).toMatchObject({ success: true });
    // Refused plainly ("Stream must be set to true"), then passed as a stream.
    expect(flaky.calls.slice(before).map((c) => c.stream)).toEqual([false, true]);
    const row = await f.tg.gateway.ctx.db.selectFrom('channels').select('status').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.status).toBe(1);
    // Remembered: the next test streams at once.
    await f.root.get(`/api/channel/test/${id}`);
    expect(flaky.calls.slice(before + 2).map((c) => c.stream)).toEqual([true]);

    // A channel whose setting says so is streamed from the first test.
    const declared = await f.addChannel({
      name: 'declared',
      key: 'sk-declared',
      base_url: flaky.url,
      models: model,
      setting: '{"stream_only": true}',
    });
    const mark = flaky.calls.length;
    expect((await f.root.get(`/api/channel/test/${declared}`)).body).toMatchObject({ success: true });
    expect(flaky.calls.slice(mark).map((c) => c.stream)).toEqual([true]);
    await setOption('AutomaticEnableChannelEnabled', 'false');
  });

  it('with latency-aware routing, moves traffic away from a slow channel', async () => {
    const model = await freshModel();
    await f.addChannel({ name: 'slow', key: 'sk-slow', base_url: flaky.url, models: model, weight: 10 });
    await f.addChannel({ name: 'fast', key: 'sk-fast', base_url: steady.url, models: model, weight: 10 });
    flaky.state.delayMs = 250;
    const share = async (n: number) => {
      const slowBefore = flaky.calls.filter((c) => c.key === 'sk-slow').length;
      for (let i = 0; i < n; i++) expect(await chat(model)).toBe(200);
      return (flaky.calls.filter((c) => c.key === 'sk-slow').length - slowBefore) / n;
    };
    await setOption('channel_health.latency_routing_enabled', 'true');
    // Both measured first (a channel without figures keeps its whole weight), then the split.
    await share(10);
    const slowShare = await share(60);
    expect(slowShare).toBeLessThan(0.25);
  }, 60_000);
});
