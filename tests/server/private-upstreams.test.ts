/**
 * Stored channels follow the upstream address rule on every path that connects to them — the
 * relay, the channel test, the model list and the balance — checked when the connection is made
 * (server/http/upstream-guard.ts): loopback and private addresses, given as an address or as a name
 * that resolves to one, only with ALLOW_PRIVATE_UPSTREAMS; link-local (cloud metadata) never.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { startOpenAIStandIn, type OpenAIStandIn } from '../helpers/upstreams/openai.js';
import { setOptions } from '../helpers/money.js';

let f: RelayFixture;
let local: OpenAIStandIn;
const ids: Record<string, number> = {};
const MODELS = { literal: 'private-literal', named: 'private-named', metadata: 'metadata-only' };

beforeAll(async () => {
  f = await startRelayFixture('sqlite');
  // Its own stand-in: no connection to it is pooled from before a test unsets the variable.
  local = await startOpenAIStandIn();
  const ratios = JSON.parse(
    (await f.root.get('/api/option/')).body.data.find((o: { key: string }) => o.key === 'ModelRatio').value,
  );
  await setOptions(f, {
    RetryTimes: '0',
    ModelRatio: JSON.stringify({ ...ratios, ...Object.fromEntries(Object.values(MODELS).map((m) => [m, 1])) }),
  });
  const bases = { literal: local.url, named: local.url.replace('127.0.0.1', 'localhost'), metadata: 'http://169.254.169.254' };
  for (const [name, base_url] of Object.entries(bases) as Array<[keyof typeof MODELS, string]>) {
    ids[name] = await f.addChannel({ name, base_url, key: 'sk-upstream-good', models: MODELS[name] });
  }
});
afterAll(async () => {
  await f?.close();
  await local?.close();
});

const chat = (model: string) =>
  fetch(`${f.tg.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${f.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }),
    signal: AbortSignal.timeout(10_000),
  }).then(async (res) => ({ status: res.status, body: await res.json() }));

const BLOCKED = /不允许访问内网或保留地址/;

describe('without ALLOW_PRIVATE_UPSTREAMS', () => {
  beforeEach(() => {
    delete process.env.ALLOW_PRIVATE_UPSTREAMS;
  });
  afterEach(() => {
    process.env.ALLOW_PRIVATE_UPSTREAMS = 'true';
  });

  it.each(['literal', 'named'] as const)('refuses a channel on loopback (%s) on every path, connecting nowhere', async (name) => {
    const relayed = await chat(MODELS[name]);
    expect(relayed.status).toBe(502);
    expect(relayed.body.error).toMatchObject({ code: 'upstream_connection_error', message: expect.stringMatching(BLOCKED) });

    const tested = await f.root.get(`/api/channel/test/${ids[name]}`);
    expect(tested.body).toMatchObject({ success: false, message: expect.stringMatching(BLOCKED) });
    const models = await f.root.get(`/api/channel/fetch_models/${ids[name]}`);
    expect(models.body).toMatchObject({ success: false, code: 'channel.models_private_upstream' });
    expect(models.body.message).toContain('ALLOW_PRIVATE_UPSTREAMS=true');
    const balance = await f.root.get(`/api/channel/update_balance/${ids[name]}`);
    expect(balance.body).toMatchObject({ success: false, message: expect.stringMatching(BLOCKED) });

    expect(local.requests).toHaveLength(0);
  });
});

describe('with ALLOW_PRIVATE_UPSTREAMS', () => {
  it('reaches a channel on loopback, by address and by name', async () => {
    expect((await chat(MODELS.literal)).status).toBe(200);
    expect((await chat(MODELS.named)).status).toBe(200);
    expect(local.requests.length).toBeGreaterThanOrEqual(2);
  });

  it('never reaches a link-local address (cloud metadata)', async () => {
    const relayed = await chat(MODELS.metadata);
    expect(relayed.status).toBe(502);
    expect(relayed.body.error.message).toMatch(BLOCKED);
    const tested = await f.root.get(`/api/channel/test/${ids.metadata}`);
    expect(tested.body).toMatchObject({ success: false, message: expect.stringMatching(BLOCKED) });
  });
});
