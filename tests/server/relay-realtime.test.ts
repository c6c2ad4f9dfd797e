import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { realtimeUsageFor, startRealtimeStandIn, type RealtimeStandIn } from '../helpers/upstreams/realtime.js';
import { open } from '../helpers/realtime-client.js';

const MODEL = 'gpt-4o-realtime-preview';
// Ratio 2.5, completion ratio 4 (the gpt-4o prefix), cache ratio 0.5:
// response 0: (120 + 60 × 4) × 2.5 = 900; response 1: (130 − 80 + 80 × 0.5 + 60 × 4) × 2.5 = 825.
const COSTS = [900, 825];

async function waitFor<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('GET /v1/realtime (websocket relay)', () => {
  let f: RelayFixture;
  let upstream: RealtimeStandIn;
  let wsUrl: string;
  const quotaOf = async () =>
    (await f.tg.gateway.ctx.db.selectFrom('users').select('quota').where('id', '=', f.userId).executeTakeFirstOrThrow()).quota;
  const consumeLogs = async () => {
    await f.flush();
    return f.tg.gateway.ctx.db
      .selectFrom('logs')
      .selectAll()
      .where('user_id', '=', f.userId)
      .where('type', '=', 2)
      .where('model_name', '=', MODEL)
      .orderBy('id', 'asc')
      .execute();
  };
  /** A session opened with the caller's key, once the upstream's session.created reached it. */
  const session = async () => {
    const res = await open(wsUrl, { headers: { Authorization: `Bearer ${f.key}` } });
    if (!res.ok) throw new Error(`refused: ${res.status} ${JSON.stringify(res.body)}`);
    await res.client.next('session.created');
    return res.client;
  };
  const setQuota = async (quota: number) => {
    // Sessions of earlier tests give their reservations back once the gateway sees them close.
    await waitFor(
      async () => f.tg.gateway.ctx.holds.live.size,
      (n) => n === 0,
      'earlier sessions to end',
    );
    await f.flush();
    await f.tg.gateway.ctx.db.updateTable('users').set({ quota }).where('id', '=', f.userId).execute();
  };

  beforeAll(async () => {
    f = await startRelayFixture('sqlite');
    upstream = await startRealtimeStandIn();
    const ratios = JSON.parse(f.tg.gateway.ctx.options.raw('ModelRatio'));
    await f.root.put('/api/option/', {
      key: 'ModelRatio',
      value: JSON.stringify({ ...ratios, [MODEL]: 2.5, 'rt-bad-key': 1, 'gpt-4o-realtime-azure': 1 }),
    });
    const cache = JSON.parse(f.tg.gateway.ctx.options.raw('CacheRatio'));
    await f.root.put('/api/option/', { key: 'CacheRatio', value: JSON.stringify({ ...cache, [MODEL]: 0.5 }) });
    await f.addChannel({ name: 'realtime', key: 'sk-upstream-good', base_url: upstream.url, models: MODEL });
    await f.addChannel({ name: 'realtime-bad', key: 'sk-upstream-invalid', base_url: upstream.url, models: 'rt-bad-key' });
    await f.addChannel({ type: 3, name: 'azure', key: 'azure-key', base_url: upstream.url, models: 'gpt-4o-realtime-azure' });
    wsUrl = `${f.tg.url.replace('http:', 'ws:')}/v1/realtime?model=${MODEL}`;
  });
  let closed = false;
  afterAll(async () => {
    if (!closed) await f?.close();
    await upstream?.close();
  });

  it('refuses callers without a valid key, a model or a websocket, in OpenAI’s error shape', async () => {
    const none = await open(wsUrl);
    expect(none).toMatchObject({ ok: false, status: 401, body: { error: { code: 'missing_api_key' } } });
    const wrong = await open(wsUrl, { headers: { Authorization: `Bearer sk-${'x'.repeat(48)}` } });
    expect(wrong).toMatchObject({ ok: false, status: 401, body: { error: { code: 'invalid_api_key' } } });
    const noModel = await open(`${f.tg.url.replace('http:', 'ws:')}/v1/realtime`, {
      headers: { Authorization: `Bearer ${f.key}` },
    });
    expect(noModel).toMatchObject({ ok: false, status: 400, body: { error: { message: 'model is required' } } });
    const plain = await fetch(`${f.tg.url}/v1/realtime?model=${MODEL}`, { headers: { Authorization: `Bearer ${f.key}` } });
    expect(plain.status).toBe(426);
    expect((await plain.json()).error.code).toBe('upgrade_required');
    expect(upstream.connections).toHaveLength(0);
  });

  it('passes upstream handshake failures on and logs them', async () => {
    const res = await open(`${f.tg.url.replace('http:', 'ws:')}/v1/realtime?model=rt-bad-key`, {
      headers: { Authorization: `Bearer ${f.key}` },
    });
    expect(res).toMatchObject({
      ok: false,
      status: 401,
      body: { error: { message: 'Incorrect API key provided: sk-upstream-invalid.' } },
    });
    await f.flush();
    const log = await f.lastLog();
    expect([log.type, log.model_name]).toEqual([5, 'rt-bad-key']);
  });

  it('relays events and binary frames both ways, with the channel’s key upstream', async () => {
    const res = await open(wsUrl, { headers: { Authorization: `Bearer ${f.key}`, 'OpenAI-Beta': 'realtime=v1' } });
    if (!res.ok) throw new Error(`refused: ${res.status} ${JSON.stringify(res.body)}`);
    const { client } = res;
    const created = await client.next('session.created');
    expect(created.session.model).toBe(MODEL);
    const conn = upstream.connections.at(-1)!;
    expect(conn.url).toBe(`/v1/realtime?model=${MODEL}`);
    expect(conn.headers.authorization).toBe('Bearer sk-upstream-good');
    expect(conn.headers['openai-beta']).toBe('realtime=v1');

    client.send({ type: 'session.update', session: { modalities: ['text'], instructions: 'Be brief.' } });
    expect((await client.next('session.updated')).session).toMatchObject({ modalities: ['text'], instructions: 'Be brief.' });
    client.send({
      type: 'conversation.item.create',
      item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi' }] },
    });
    await client.next('conversation.item.created');
    expect(conn.events.map((e) => e.type)).toEqual(['session.update', 'conversation.item.create']);
    expect(conn.events[1]!.item.content[0].text).toBe('Hi');

    client.ws.send(Buffer.from([1, 2, 3, 4]), { binary: true });
    await waitFor(
      async () => client.binary.length,
      (n) => n === 1,
      'binary echo',
    );
    expect([...conn.binary[0]!]).toEqual([1, 2, 3, 4]);
    expect([...client.binary[0]!]).toEqual([4, 3, 2, 1]);

    client.send({ type: 'response.create' });
    const deltas = [];
    await client.next('response.done');
    for (const e of client.events) if (e.type === 'response.text.delta') deltas.push(e.delta);
    expect(deltas.join('')).toBe('Hello from the realtime stand-in!');
    client.ws.close(1000);
    await client.closed;
  });

  it('bills and logs every response.done from its usage, and returns the reserve at the end', async () => {
    await setQuota(1_000_000);
    const before = (await consumeLogs()).length;
    const client = await session();
    // The reservation (PreConsumedQuota, 500 completion tokens: 500 × 4 × 2.5) is held while the session is open.
    expect(await quotaOf()).toBe(1_000_000 - 5000);

    client.send({ type: 'response.create' });
    const done = await client.next('response.done');
    expect(done.response.usage).toEqual(realtimeUsageFor(0));
    // The client sees response.done once it is billed.
    const first = await consumeLogs();
    expect(first).toHaveLength(before + 1);
    expect(first.at(-1)).toMatchObject({ quota: COSTS[0], prompt_tokens: 120, completion_tokens: 60, is_stream: 1 });

    client.send({ type: 'response.create', response: { modalities: ['text'] } });
    await client.next('response.done', 2);
    await client.next('rate_limits.updated', 2);
    const logs = (await consumeLogs()).slice(before);
    expect(logs.map((l) => l.quota)).toEqual(COSTS);
    const other = JSON.parse(logs[1]!.other ?? '{}');
    expect(other).toMatchObject({ cache_tokens: 80, model_ratio: 2.5, completion_ratio: 4, cache_ratio: 0.5 });
    expect(logs[1]!.channel_id).toBeGreaterThan(0);

    client.ws.close(1000);
    await client.closed;
    const spent = COSTS[0]! + COSTS[1]!;
    await waitFor(quotaOf, (q) => q === 1_000_000 - spent, 'the reserve back');
    await f.flush();
    const token = await f.tg.gateway.ctx.db
      .selectFrom('tokens')
      .select('used_quota')
      .where('id', '=', f.tokenId)
      .executeTakeFirstOrThrow();
    expect(token.used_quota).toBeGreaterThanOrEqual(spent);
  });

  it('ends a session whose usage no price can bill, writing no cost and keeping the balance whole', async () => {
    await setQuota(1_000_000);
    const before = (await consumeLogs()).length;
    const client = await session();
    client.send({ type: 'response.create', response: { instructions: 'absurd usage' } });
    const error = await client.next('error');
    expect(error.error).toMatchObject({ code: 'billing_failed' });
    expect((await client.closed).code).toBe(1011);
    // The reserve comes back; no consume row carries a cost that is not a whole number.
    await waitFor(quotaOf, (q) => q === 1_000_000, 'the reserve back');
    expect((await consumeLogs()).length).toBe(before);
  });

  it('reaches Azure channels on their own realtime path', async () => {
    const res = await open(`${f.tg.url.replace('http:', 'ws:')}/v1/realtime?model=gpt-4o-realtime-azure`, {
      headers: { Authorization: `Bearer ${f.key}` },
    });
    if (!res.ok) throw new Error(`refused: ${res.status} ${JSON.stringify(res.body)}`);
    await res.client.next('session.created');
    const conn = upstream.connections.at(-1)!;
    expect(conn.url).toBe('/openai/realtime?api-version=2024-10-01-preview&deployment=gpt-4o-realtime-azure');
    expect(conn.headers['api-key']).toBe('azure-key');
    expect(conn.headers.authorization).toBeUndefined();
    res.client.ws.close();
    await res.client.closed;
  });

  it('takes the key from the subprotocol browsers use, answering `realtime` and never the key', async () => {
    const res = await open(wsUrl, { protocols: ['realtime', `openai-insecure-api-key.${f.key}`, 'openai-beta.realtime-v1'] });
    if (!res.ok) throw new Error(`refused: ${res.status} ${JSON.stringify(res.body)}`);
    expect(res.protocol).toBe('realtime');
    await res.client.next('session.created');
    expect(upstream.connections.at(-1)!.headers.authorization).toBe('Bearer sk-upstream-good');
    res.client.ws.close();
    await res.client.closed;
  });

  it('passes closes on both ways, with their codes', async () => {
    const a = await session();
    const connA = upstream.connections.at(-1)!;
    a.ws.close(4001, 'client bye');
    expect(await connA.closed).toEqual({ code: 4001, reason: 'client bye' });

    const b = await session();
    upstream.connections.at(-1)!.socket.close(4002, 'upstream bye');
    expect(await b.closed).toEqual({ code: 4002, reason: 'upstream bye' });
  });

  it('refuses a session the balance cannot start, and ends one whose balance runs out', async () => {
    await setQuota(0);
    const refused = await open(wsUrl, { headers: { Authorization: `Bearer ${f.key}` } });
    expect(refused).toMatchObject({ ok: false, status: 429, body: { error: { code: 'insufficient_quota' } } });

    // With 40 tokens reserved (40 × 4 × 2.5 = 400), 1000 covers the first reservation; the first
    // response (900) is charged in full, and the 100 left cannot cover the next reservation.
    await f.root.put('/api/option/', { key: 'PreConsumedQuota', value: '40' });
    await setQuota(1000);
    const client = await session();
    client.send({ type: 'response.create' });
    await client.next('response.done');
    const error = await client.next('error');
    expect(error.error).toMatchObject({ code: 'insufficient_quota' });
    expect((await client.closed).code).toBe(1008);
    await upstream.connections.at(-1)!.closed;
    await waitFor(quotaOf, (q) => q === 100, 'the settled balance');
    expect((await consumeLogs()).at(-1)!.quota).toBe(900);
    await f.root.put('/api/option/', { key: 'PreConsumedQuota', value: '500' });
  });

  it('ends open sessions when the gateway shuts down', async () => {
    await setQuota(1_000_000);
    const res = await open(wsUrl, { headers: { Authorization: `Bearer ${f.key}` } });
    if (!res.ok) throw new Error('refused');
    await res.client.next('session.created');
    const conn = upstream.connections.at(-1)!;
    closed = true;
    await f.close();
    expect((await res.client.closed).code).toBe(1001);
    expect((await conn.closed).code).toBe(1001);
  });
});
