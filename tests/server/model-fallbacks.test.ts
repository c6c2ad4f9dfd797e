/**
 * Fallback chains across models (relay.model_fallbacks) through the real gateway: the next model
 * serves when the first fails before its first byte — after its own tiers, or at once on a listed
 * error class — and never once the answer has begun; the call is billed at the served model's
 * price, its log row and headers name the served and the asked model; a model the token may not
 * use, or its group has no channel for, is never a fallback. Billing checked on every database.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { must } from '../helpers/gateway.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';

async function setOption(f: RelayFixture, key: string, value: unknown): Promise<void> {
  const res = await f.root.put('/api/option/', { key, value: typeof value === 'string' ? value : JSON.stringify(value) });
  if (!res.body.success) throw new Error(`${key}: ${res.body.message}`);
}

function chat(f: RelayFixture, model: string, key = f.key, stream = false): Promise<Response> {
  return fetch(`${f.tg.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Hello!' }], stream }),
  });
}

/** The models the stand-in was asked for since `from`. */
const asked = (f: RelayFixture, from: number) =>
  f.upstream.requests.slice(from).map((r) => (r.body as { model?: string } | null)?.model);

await forEachDatabase('model fallback chains', (kind) => {
  let f: RelayFixture;

  beforeAll(async () => {
    f = await startRelayFixture(kind);
    await f.addChannel({ name: 'extra', models: 'fail-context,cut-3', priority: 0 });
    await f.addChannel({ name: 'vip', models: 'vip-model', group: 'vip' });
    const options = (await f.root.get('/api/option/')).body.data as Array<{ key: string; value: string }>;
    const ratios = JSON.parse(options.find((o) => o.key === 'ModelRatio')!.value) as Record<string, number>;
    // The failing model costs fifty times the fallback: billing at the wrong price shows at once.
    await setOption(f, 'ModelRatio', { ...ratios, 'fail-500': 50, 'fail-context': 50, 'cut-3': 1, 'vip-model': 1 });
    await setOption(f, 'RetryTimes', '2');
  }, 60_000);
  afterAll(async () => f?.close());

  it('refuses a value of the wrong shape', async () => {
    for (const bad of ['[]', '{"a": "b"}', '{"a": [{"models": ["b"], "on": ["404"]}]}', '{"a": [{"models": []}]}']) {
      const res = await f.root.put('/api/option/', { key: 'relay.model_fallbacks', value: bad });
      expect(res.body.success).toBe(false);
    }
  });

  it('serves the next model when the first fails before its first byte, billed and logged as served', async () => {
    await setOption(f, 'relay.model_fallbacks', { 'fail-500': ['gpt-4o-mini'] });
    const direct = await chat(f, 'gpt-4o-mini');
    expect(direct.status).toBe(200);
    await direct.json();
    const directLog = await f.lastLog();

    const before = f.upstream.requests.length;
    const balance = async () =>
      (await f.tg.gateway.ctx.db.selectFrom('users').select('quota').where('id', '=', f.userId).executeTakeFirstOrThrow()).quota;
    const quotaBefore = await balance();
    const res = await chat(f, 'fail-500');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-gateway-served-model')).toBe('gpt-4o-mini');
    expect(res.headers.get('x-gateway-requested-model')).toBe('fail-500');
    const body = (await res.json()) as { choices: Array<{ message: { content: string } }> };
    expect(body.choices[0]!.message.content).toContain('Hello');
    // fail-500's tiers first (one channel, so once), then the fallback.
    expect(asked(f, before)).toEqual(['fail-500', 'gpt-4o-mini']);

    const log = await f.lastLog();
    expect(log.model_name).toBe('gpt-4o-mini');
    expect(JSON.parse(log.other ?? '{}').requested_model).toBe('fail-500');
    expect(log.quota).toBe(directLog.quota);
    expect(log.quota).toBeGreaterThan(0);
    expect(quotaBefore - (await balance())).toBe(log.quota);
    // No error row for the model that failed: the call was served.
    const errors = await f.tg.gateway.ctx.logDb
      .selectFrom('logs')
      .select('id')
      .where('type', '=', 5)
      .where('model_name', '=', 'fail-500')
      .execute();
    expect(errors).toHaveLength(0);
  });

  it('goes to the next model at once on a listed error class, and only then', async () => {
    // Two channels serve fail-429: without `on`, both tiers are tried before the fallback.
    const second = await f.addChannel({ name: 'second-429', models: 'fail-429', priority: -5 });
    await setOption(f, 'relay.model_fallbacks', { 'fail-429': ['gpt-4o-mini'] });
    let before = f.upstream.requests.length;
    expect((await chat(f, 'fail-429')).status).toBe(200);
    expect(asked(f, before)).toEqual(['fail-429', 'fail-429', 'gpt-4o-mini']);

    await setOption(f, 'relay.model_fallbacks', { 'fail-429': [{ models: ['gpt-4o-mini'], on: ['429'] }] });
    before = f.upstream.requests.length;
    expect((await chat(f, 'fail-429')).status).toBe(200);
    expect(asked(f, before)).toEqual(['fail-429', 'gpt-4o-mini']);
    must(await f.root.delete(`/api/channel/${second}/`), 'delete');
    await f.tg.gateway.ctx.channels.reload();

    // A too-long context is the request's own 400: passed on, unless the rule lists it.
    await setOption(f, 'relay.model_fallbacks', { 'fail-context': ['gpt-4o-mini'] });
    const refused = await chat(f, 'fail-context');
    expect(refused.status).toBe(400);
    await refused.arrayBuffer();
    await setOption(f, 'relay.model_fallbacks', { 'fail-context': [{ models: ['gpt-4o-mini'], on: ['context_length'] }] });
    const served = await chat(f, 'fail-context');
    expect(served.status).toBe(200);
    expect(served.headers.get('x-gateway-served-model')).toBe('gpt-4o-mini');
    await served.arrayBuffer();
  });

  it('never falls back once the answer has begun', async () => {
    await setOption(f, 'relay.model_fallbacks', { 'cut-3': [{ models: ['gpt-4o-mini'], on: ['5xx'] }] });
    const before = f.upstream.requests.length;
    const res = await chat(f, 'cut-3', f.key, true);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-gateway-served-model')).toBe('cut-3');
    const text = await res.text().catch(() => '');
    expect(text).not.toContain('gpt-4o-mini');
    expect(asked(f, before)).toEqual(['cut-3']);
  });

  it("never falls back to a model the token's limits or group do not allow", async () => {
    await setOption(f, 'relay.model_fallbacks', { 'fail-500': ['vip-model', 'gpt-4o-mini'] });
    // vip-model: only a vip channel serves it, and this caller is in default — skipped.
    const before = f.upstream.requests.length;
    const res = await chat(f, 'fail-500');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-gateway-served-model')).toBe('gpt-4o-mini');
    await res.arrayBuffer();
    expect(asked(f, before)).toEqual(['fail-500', 'gpt-4o-mini']);

    // A token limited to fail-500 gets fail-500's own error, not another model.
    const limited = must<{ id: number }>(
      await f.user.post('/api/token/', {
        name: 'only-500',
        remain_quota: 0,
        unlimited_quota: true,
        expired_time: -1,
        model_limits_enabled: true,
        model_limits: 'fail-500',
      }),
      'token',
    );
    const key = must<{ key: string }>(await f.user.post(`/api/token/${limited.id}/key`), 'reveal').key;
    const denied = await chat(f, 'fail-500', key);
    expect(denied.status).toBe(500);
    expect(denied.headers.get('x-gateway-served-model')).toBeNull();
    await denied.arrayBuffer();
    const log = await f.lastLog();
    expect(log.type).toBe(5);
    expect(log.model_name).toBe('fail-500');
  });
});
