import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';

async function setOption(f: RelayFixture, key: string, value: string): Promise<void> {
  const res = await f.root.put('/api/option/', { key, value });
  if (!res.body.success) throw new Error(`${key}: ${res.body.message}`);
}

async function channelRow(f: RelayFixture, id: number) {
  return f.tg.gateway.ctx.db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

const chat = (f: RelayFixture, model: string, extra: Record<string, unknown> = {}) =>
  f.openai().chat.completions.create({ model, messages: [{ role: 'user', content: 'Hello!' }], ...extra } as never);

describe('channel choice, retries and per-channel settings', () => {
  let f: RelayFixture;
  let first: number;
  beforeAll(async () => {
    f = await startRelayFixture('sqlite');
    first = (await f.tg.gateway.ctx.db.selectFrom('channels').select('id').executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => f?.close());

  it('retries down the priority tiers when a channel fails, and records every channel tried', async () => {
    const broken = await f.addChannel({ name: 'broken', key: 'sk-upstream-invalid', priority: 10 });
    await setOption(f, 'RetryTimes', '2');
    const answer = await chat(f, 'gpt-4o-mini');
    expect(answer.choices[0]?.message.content).toContain('Hello');
    await f.flush();
    const log = await f.tg.gateway.ctx.db.selectFrom('logs').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(JSON.parse(log.other ?? '{}').admin_info.use_channel).toEqual([broken, first]);
    expect(log.channel_id).toBe(first);
    await setOption(f, 'RetryTimes', '0');
    // Without retries the broken top-priority channel answers the client with its own error.
    await expect(chat(f, 'gpt-4o-mini')).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    await f.root.delete(`/api/channel/${broken}/`);
    await f.tg.gateway.ctx.channels.reload();
  });

  it('disables a channel automatically on a 401 when enabled, and never a manually disabled one', async () => {
    await setOption(f, 'AutomaticDisableChannelEnabled', 'true');
    const broken = await f.addChannel({ name: 'broken-2', key: 'sk-upstream-invalid', priority: 20 });
    await expect(chat(f, 'gpt-4o-mini')).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    let row = await channelRow(f, broken);
    for (let i = 0; i < 20 && row.status !== 3; i++) {
      await new Promise((r) => setTimeout(r, 50));
      row = await channelRow(f, broken);
    }
    expect(row.status).toBe(3);
    expect(JSON.parse(row.other_info ?? '{}').status_reason).toContain('401');
    // The choice no longer offers it: the next call reaches the good channel.
    const answer = await chat(f, 'gpt-4o-mini');
    expect(answer.choices).toHaveLength(1);
    await setOption(f, 'AutomaticDisableChannelEnabled', 'false');
    await f.root.delete(`/api/channel/${broken}/`);
    await f.tg.gateway.ctx.channels.reload();
  });

  it('applies model mapping, parameter override and status code mapping', async () => {
    const mapped = await f.addChannel({
      name: 'mapped',
      models: 'alias-model,fail-400',
      model_mapping: JSON.stringify({ 'alias-model': 'gpt-4o-mini' }),
      param_override: JSON.stringify({ temperature: 0.25 }),
      status_code_mapping: JSON.stringify({ 400: 502 }),
      priority: 30,
    });
    const ratios = JSON.parse(f.tg.gateway.ctx.options.raw('ModelRatio'));
    await setOption(f, 'ModelRatio', JSON.stringify({ ...ratios, 'alias-model': 1 }));
    await chat(f, 'alias-model');
    const sent = f.upstream.requests.at(-1)!;
    expect(sent.body.model).toBe('gpt-4o-mini');
    expect(sent.body.temperature).toBe(0.25);
    await f.flush();
    const log = await f.tg.gateway.ctx.db.selectFrom('logs').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(log.model_name).toBe('alias-model');
    const other = JSON.parse(log.other ?? '{}');
    expect(other.is_model_mapped).toBe(true);
    expect(other.upstream_model_name).toBe('gpt-4o-mini');
    await expect(chat(f, 'fail-400')).rejects.toMatchObject({ status: 502 });
    await f.root.delete(`/api/channel/${mapped}/`);
    await f.tg.gateway.ctx.channels.reload();
  });

  it('lets an admin pin a channel with sk-KEY-<id>, and ignores the suffix for normal users', async () => {
    const other = await f.addChannel({ name: 'pinned', priority: -5 });
    // The root's own token.
    const token = (await f.root.post('/api/token/', { name: 'root', remain_quota: 0, unlimited_quota: true, expired_time: -1 }))
      .body.data;
    const rootKey = (await f.root.post(`/api/token/${token.id}/key`)).body.data.key as string;
    await f
      .openai(`${rootKey}-${other}`)
      .chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] });
    await f.flush();
    let log = await f.tg.gateway.ctx.db.selectFrom('logs').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(log.channel_id).toBe(other);
    await f
      .openai(`${f.key}-${other}`)
      .chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] });
    await f.flush();
    log = await f.tg.gateway.ctx.db.selectFrom('logs').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(log.channel_id).toBe(first);
  });

  it('bills what a stream produced when the client goes away, and stops the upstream', async () => {
    const before = f.upstream.aborted;
    const stream = await chat(f, 'drip-60', { stream: true });
    let seen = 0;
    for await (const _ of stream as unknown as AsyncIterable<unknown>) {
      if (++seen === 5) break; // the SDK aborts the request on break
    }
    let log;
    for (let i = 0; i < 40; i++) {
      await new Promise((r) => setTimeout(r, 50));
      await f.flush();
      log = await f.tg.gateway.ctx.db.selectFrom('logs').selectAll().where('model_name', '=', 'drip-60').executeTakeFirst();
      if (log) break;
    }
    expect(log).toBeDefined();
    expect(log!.completion_tokens).toBeGreaterThan(0);
    expect(log!.completion_tokens).toBeLessThan(60);
    expect(log!.quota).toBeGreaterThan(0);
    expect(JSON.parse(log!.other ?? '{}').client_aborted).toBe(true);
    // The upstream sees its connection closed over TCP, after the gateway dropped it: not ordered with the log row.
    for (let i = 0; i < 40 && f.upstream.aborted === before; i++) await new Promise((r) => setTimeout(r, 50));
    expect(f.upstream.aborted).toBe(before + 1);
  });
});

describe('token rules on the relay', () => {
  let f: RelayFixture;
  beforeAll(async () => {
    f = await startRelayFixture('sqlite');
  });
  afterAll(async () => f?.close());

  async function tokenWith(fields: Record<string, unknown>): Promise<string> {
    const t = (
      await f.user.post('/api/token/', { name: 't', remain_quota: 0, unlimited_quota: true, expired_time: -1, ...fields })
    ).body;
    if (!t.success) throw new Error(t.message);
    return (await f.user.post(`/api/token/${t.data.id}/key`)).body.data.key;
  }

  it('enforces model limits', async () => {
    const key = await tokenWith({ model_limits_enabled: true, model_limits: 'text-embedding-3-small' });
    const call = f.openai(key).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] });
    await expect(call).rejects.toBeInstanceOf(OpenAI.PermissionDeniedError);
    const models = await f.openai(key).models.list();
    expect(models.data.map((m) => m.id)).toEqual(['text-embedding-3-small']);
  });

  it('refuses a token whose quota ran out and marks it exhausted', async () => {
    const key = await tokenWith({ unlimited_quota: false, remain_quota: 3 });
    // The first call may pass (the pre-charge fits); once spent, the token is refused and marked 4.
    await f
      .openai(key)
      .chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] })
      .catch(() => undefined);
    const stored = key.replace(/^sk-/, '');
    f.tg.gateway.ctx.bus.publish('token', stored);
    await expect(
      f.openai(key).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toBeInstanceOf(OpenAI.APIError);
    const row = await f.tg.gateway.ctx.db.selectFrom('tokens').selectAll().where('key', '=', stored).executeTakeFirstOrThrow();
    expect(row.remain_quota).toBeGreaterThanOrEqual(0);
  });

  it('answers the old billing endpoints in dollars', async () => {
    const res = await fetch(`${f.tg.url}/dashboard/billing/subscription`, { headers: { authorization: `Bearer ${f.key}` } });
    const body = await res.json();
    expect(body.object).toBe('billing_subscription');
    expect(body.hard_limit_usd).toBeGreaterThan(0);
  });

  it('serves the playground from a console session, in the chosen group', async () => {
    const res = await f.user.post('/pg/chat/completions', {
      model: 'gpt-4o-mini',
      group: 'default',
      messages: [{ role: 'user', content: 'Hello!' }],
      stream: true,
    });
    expect(res.status).toBe(200);
    expect(String(res.body)).toContain('data: [DONE]');
    const anonymous = await fetch(`${f.tg.url}/pg/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(anonymous.status).toBe(401);
  });

  it('passes /v1/responses through to an OpenAI upstream and answers unknown paths with 404', async () => {
    const res = await fetch(`${f.tg.url}/v1/nothing-here`, { method: 'POST', headers: { authorization: `Bearer ${f.key}` } });
    expect(res.status).toBe(404);
    expect((await res.json()).error).toBeDefined();
  });
});
