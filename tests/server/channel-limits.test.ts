/**
 * Per-channel limits (max_concurrency, rpm_limit) and tokens-per-minute limits (per token, per
 * user) through the real gateway, one process, counters in memory: calls overflow to sibling
 * channels, wait briefly, and are refused with a 429 in the client's own format; every channel
 * slot taken is given back exactly once, whatever becomes of the call.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Lease } from '../../server/ratelimit/limit-store.js';
import { RELAY_MODELS, startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { startGauge, type Gauge } from '../helpers/upstreams/gauge.js';

/** Models the stand-in serves that the relay fixture does not price. */
const EXTRA_MODELS = ['slow-600', 'slow-3000', 'drip-3', 'cut-3'];

function chat(url: string, key: string, model: string, extra: Record<string, unknown> = {}): Promise<Response> {
  return fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }], ...extra }),
  });
}

const settle = async (res: Response) => ({ status: res.status, body: await res.json().catch(() => null) });

describe('channel and token limits (one process)', () => {
  let f: RelayFixture;
  let gauge: Gauge;
  const made: number[] = [];
  const ctx = () => f.tg.gateway.ctx;

  const setOption = async (key: string, value: string) => {
    const res = await f.root.put('/api/option/', { key, value });
    if (!res.body.success) throw new Error(`${key}: ${res.body.message}`);
  };

  /** A channel on gauge lane `lane` serving every model of the tests. */
  async function channel(lane: string, fields: Record<string, unknown> = {}): Promise<number> {
    const models = [...RELAY_MODELS, ...EXTRA_MODELS].join(',');
    const id = await f.addChannel({ name: lane, base_url: `${gauge.url}/${lane}`, models, ...fields });
    made.push(id);
    return id;
  }

  beforeAll(async () => {
    f = await startRelayFixture('sqlite');
    gauge = await startGauge(f.upstream.url);
    const ratios = JSON.parse(
      (await f.root.get('/api/option/')).body.data.find((o: { key: string }) => o.key === 'ModelRatio').value,
    );
    for (const m of EXTRA_MODELS) ratios[m] = 1;
    await setOption('ModelRatio', JSON.stringify(ratios));
    // The fixture's own channel would serve every call: only the channels of each test do.
    const first = (await ctx().db.selectFrom('channels').select('id').executeTakeFirstOrThrow()).id;
    await f.root.put('/api/channel/', { id: first, status: 2 });
    await ctx().channels.reload();
  });
  afterEach(async () => {
    for (const id of made.splice(0)) await f.root.delete(`/api/channel/${id}/`);
    await ctx().channels.reload();
    await setOption('RetryTimes', '0');
    await setOption('ModelRequestRateLimitEnabled', 'false');
  });
  afterAll(async () => {
    await f?.close();
    await gauge?.close();
  });

  it('never lets more than max_concurrency calls reach a channel; overflow goes to a sibling, then 429', async () => {
    const a = await channel('ca', { max_concurrency: 2 });
    const b = await channel('cb', { max_concurrency: 2 });
    const answers = await Promise.all(Array.from({ length: 20 }, () => chat(f.tg.url, f.key, 'slow-600').then(settle)));
    expect(gauge.lane('ca').peak).toBe(2);
    expect(gauge.lane('cb').peak).toBe(2);
    const served = answers.filter((r) => r.status === 200).length;
    const refused = answers.filter((r) => r.status === 429);
    expect(served + refused.length).toBe(20);
    expect(served).toBe(gauge.lane('ca').served + gauge.lane('cb').served);
    // Four at a time for 600 ms each, waiting one second at most: some were served late, some not at all.
    expect(served).toBeGreaterThan(4);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]!.body).toEqual({
      error: { message: '当前分组上游负载已饱和，请稍后再试', type: 'rate_limit_error', param: null, code: 'channel_saturated' },
    });
    // A call gives its slot back in its `finally`, just after the client has the answer.
    const held = async () => (await ctx().limits.inFlight(a)) + (await ctx().limits.inFlight(b));
    for (let i = 0; i < 40 && (await held()) > 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await held()).toBe(0);
  });

  it('goes down a tier when the higher one is full, without refusing anyone', async () => {
    await channel('ta', { priority: 10, max_concurrency: 1 });
    await channel('tb', { priority: 0 });
    const answers = await Promise.all(Array.from({ length: 4 }, () => chat(f.tg.url, f.key, 'slow-600').then(settle)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(gauge.lane('ta').served).toBe(1);
    expect(gauge.lane('tb').served).toBe(3);
  });

  it('refuses Claude and Gemini clients in their own shapes when every channel stays full', async () => {
    await channel('full', { max_concurrency: 1 });
    const holder = chat(f.tg.url, f.key, 'slow-3000');
    await new Promise((r) => setTimeout(r, 200));
    const claudeCall = fetch(`${f.tg.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': f.key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'slow-600', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
    });
    const geminiCall = fetch(`${f.tg.url}/v1beta/models/slow-600:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': f.key, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
    });
    const [claude, gemini] = await Promise.all([claudeCall, geminiCall]);
    expect(claude.status).toBe(429);
    expect(await claude.json()).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: '当前分组上游负载已饱和，请稍后再试' },
    });
    expect(gemini.status).toBe(429);
    expect(await gemini.json()).toEqual({
      error: { code: 429, message: '当前分组上游负载已饱和，请稍后再试', status: 'RESOURCE_EXHAUSTED' },
    });
    expect((await holder).status).toBe(200);
  });

  it('counts rpm_limit per channel over the sliding minute', async () => {
    await channel('ra', { rpm_limit: 3 });
    await channel('rb', { rpm_limit: 2 });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await settle(await chat(f.tg.url, f.key, 'gpt-4o-mini'))).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    expect([gauge.lane('ra').served, gauge.lane('rb').served]).toEqual([3, 2]);
    const refused = await settle(await chat(f.tg.url, f.key, 'gpt-4o-mini'));
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('channel_saturated');
  });

  it('gives back each slot exactly once: served, streamed, upstream error and retry, client gone, stream cut', async () => {
    const store = ctx().limits;
    const taken = new Map<string, number>();
    const { acquire, release } = store;
    store.acquire = async (channel) => {
      const got = await acquire.call(store, channel);
      if (got.ok) taken.set(got.lease.id, 0);
      return got;
    };
    store.release = (lease: Lease) => {
      taken.set(lease.id, (taken.get(lease.id) ?? 0) + 1);
      release.call(store, lease);
    };
    try {
      await setOption('RetryTimes', '1');
      const a = await channel('xa', { max_concurrency: 1 });
      const b = await channel('xb', { max_concurrency: 1 });
      expect((await chat(f.tg.url, f.key, 'gpt-4o-mini')).status).toBe(200);
      const stream = await chat(f.tg.url, f.key, 'drip-3', { stream: true });
      expect(await stream.text()).toContain('[DONE]');
      // Both channels fail: one retry, two slots, both given back.
      expect((await settle(await chat(f.tg.url, f.key, 'fail-500'))).status).toBe(500);
      // A client that leaves in the middle of a stream.
      const gone = new AbortController();
      const leaving = await chat(f.tg.url, f.key, 'drip-60', { stream: true });
      const reader = leaving.body!.getReader();
      await reader.read();
      gone.abort();
      await reader.cancel();
      // An upstream that cuts its stream.
      const cut = await chat(f.tg.url, f.key, 'cut-3', { stream: true });
      await cut.text().catch(() => '');
      for (let i = 0; i < 50 && [...taken.values()].some((n) => n === 0); i++) await new Promise((r) => setTimeout(r, 100));
      expect(gauge.lane('xa').served + gauge.lane('xb').served).toBe(6);
      expect(taken.size).toBe(6);
      expect([...taken.values()].every((n) => n === 1)).toBe(true);
      expect(await store.inFlight(a)).toBe(0);
      expect(await store.inFlight(b)).toBe(0);
      // Nothing leaked: both channels take a call at once again.
      const both = await Promise.all([chat(f.tg.url, f.key, 'slow-300'), chat(f.tg.url, f.key, 'slow-300')]);
      expect(both.map((r) => r.status)).toEqual([200, 200]);
    } finally {
      store.acquire = acquire;
      store.release = release;
    }
  });

  it("refuses a token's calls while its sliding minute holds tpm_limit tokens or more", async () => {
    await channel('tpm');
    const created = await f.user.post('/api/token/', {
      name: 'tpm',
      remain_quota: 0,
      unlimited_quota: true,
      expired_time: -1,
      tpm_limit: 40,
    });
    expect(created.body.data.tpm_limit).toBe(40);
    const key = (await f.user.post(`/api/token/${created.body.data.id}/key`)).body.data.key as string;
    // 29 tokens per answer (19 + 10): under 40 after one, over after two.
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await settle(await chat(f.tg.url, key, 'gpt-4o-mini'))).status);
    expect(statuses).toEqual([200, 200, 429]);
    const refused = await settle(await chat(f.tg.url, key, 'gpt-4o-mini'));
    expect(refused.body.error).toMatchObject({
      code: 'token_tpm_limit_exceeded',
      message: '该令牌每分钟最多使用 40 tokens，请稍后再试',
    });
    // The owner's other token is not limited; raising the limit lets the token through at once.
    expect((await chat(f.tg.url, f.key, 'gpt-4o-mini')).status).toBe(200);
    const raised = await f.user.put('/api/token/', { id: created.body.data.id, tpm_limit: 1000 });
    expect(raised.body.data.tpm_limit).toBe(1000);
    expect((await chat(f.tg.url, key, 'gpt-4o-mini')).status).toBe(200);
    for (const tpm_limit of [-1, 1.5, 2 ** 31]) {
      const res = await f.user.put('/api/token/', { id: created.body.data.id, tpm_limit });
      expect(res.body.code).toBe('token.tpm_limit_invalid');
    }
  });

  it("refuses a user's calls over ModelRequestRateLimitTPM, overridden per group", async () => {
    await channel('utpm');
    await setOption('ModelRequestRateLimitTPM', '50');
    const statuses = async (n: number) => {
      const out: number[] = [];
      for (let i = 0; i < n; i++) out.push((await settle(await chat(f.tg.url, f.key, 'gpt-4o-mini'))).status);
      return out;
    };
    // Off until the switch is on; what was served meanwhile is not counted.
    expect(await statuses(3)).toEqual([200, 200, 200]);
    await setOption('ModelRequestRateLimitEnabled', 'true');
    expect(await statuses(3)).toEqual([200, 200, 429]);
    const refused = await settle(await chat(f.tg.url, f.key, 'gpt-4o-mini'));
    expect(refused.body.error).toMatchObject({
      code: 'tpm_limit_exceeded',
      message: '请求过于频繁：每分钟最多使用 50 tokens，请稍后再试',
    });
    await setOption('ModelRequestRateLimitTPMGroup', '{"default": 0}');
    expect(await statuses(2)).toEqual([200, 200]);
    await setOption('ModelRequestRateLimitTPMGroup', '{}');
    await setOption('ModelRequestRateLimitTPM', '0');
  });
});
