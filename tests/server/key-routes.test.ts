import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { must } from '../helpers/gateway.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';

await forEachDatabase('a key reads its own balance and logs', (kind) => {
  let f: RelayFixture;
  let second: { id: number; key: string };

  const get = async (path: string, key?: string, init: RequestInit = {}) => {
    const headers: Record<string, string> = key ? { authorization: `Bearer sk-${key}` } : {};
    const res = await fetch(f.tg.url + path, { ...init, headers: { ...headers, ...(init.headers as object) } });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
  };

  beforeAll(async () => {
    f = await startRelayFixture(kind);
    await f.openai().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello!' }] });
    await f.flush();
    const created = must<{ id: number }>(
      await f.user.post('/api/token/', {
        name: 'second',
        remain_quota: 1000,
        unlimited_quota: false,
        expired_time: -1,
        model_limits_enabled: true,
        model_limits: 'gpt-4o-mini',
      }),
      'create token',
    );
    second = { id: created.id, key: must<{ key: string }>(await f.user.post(`/api/token/${created.id}/key`), 'reveal').key };
  });
  afterAll(async () => f?.close());

  it('answers the balance of the key it is called with', async () => {
    const main = await get('/api/usage/token/', f.key);
    expect(main.status).toBe(200);
    expect(main.headers.get('access-control-allow-origin')).toBe('*');
    const used = (
      await f.tg.gateway.ctx.db.selectFrom('tokens').select('used_quota').where('id', '=', f.tokenId).executeTakeFirstOrThrow()
    ).used_quota;
    expect(used).toBeGreaterThan(0);
    expect(main.body).toEqual({
      code: true,
      message: 'ok',
      data: {
        object: 'token_usage',
        name: 'main',
        total_granted: used,
        total_used: used,
        total_available: 0,
        unlimited_quota: true,
        model_limits: {},
        model_limits_enabled: false,
        expires_at: 0,
      },
    });
    const other = await get('/api/usage/token', second.key);
    expect(other.body.data).toMatchObject({
      name: 'second',
      total_granted: 1000,
      total_used: 0,
      total_available: 1000,
      unlimited_quota: false,
      model_limits: { 'gpt-4o-mini': true },
      model_limits_enabled: true,
    });
  });

  it("lists only the key's own rows, as their owner sees them", async () => {
    const main = await get('/api/log/token', f.key);
    expect(main.status).toBe(200);
    expect(main.headers.get('access-control-allow-origin')).toBe('*');
    expect(main.body.success).toBe(true);
    expect(main.body.data).toHaveLength(1);
    expect(main.body.data[0]).toMatchObject({ id: 1, type: 2, model_name: 'gpt-4o-mini', token_name: 'main', channel: 0 });
    expect(main.body.data[0].channel_name).toBe('');
    expect(JSON.parse(main.body.data[0].other).admin_info).toBeUndefined();
    // The same owner's other key has no calls: none of the first key's rows show.
    expect((await get('/api/log/token', second.key)).body).toEqual({ success: true, message: '', data: [] });
  });

  it('refuses a missing, unknown or disabled key, and a banned owner', async () => {
    for (const path of ['/api/usage/token/', '/api/log/token']) {
      const none = await get(path);
      expect(none.status).toBe(401);
      expect(none.body).toMatchObject({ success: false, code: 'missing_api_key' });
      expect((await get(path, 'x'.repeat(48))).body).toMatchObject({ success: false, code: 'invalid_api_key' });
      const session = await f.user.get(path);
      expect(session.status).toBe(401);
    }
    must(await f.user.put('/api/token/?status_only=true', { id: second.id, status: 2 }), 'disable');
    const disabled = await get('/api/log/token', second.key);
    expect(disabled.status).toBe(401);
    expect(disabled.body).toMatchObject({ success: false, code: 'token_unavailable' });
    must(await f.user.put('/api/token/?status_only=true', { id: second.id, status: 1 }), 'enable');
    must(await f.root.post('/api/user/manage', { id: f.userId, action: 'disable' }), 'ban');
    const banned = await get('/api/usage/token/', f.key);
    expect(banned.status).toBe(403);
    expect(banned.body).toMatchObject({ success: false, code: 'user_banned' });
    must(await f.root.post('/api/user/manage', { id: f.userId, action: 'enable' }), 'unban');
  });

  it('answers a browser preflight from any origin', async () => {
    const res = await fetch(`${f.tg.url}/api/log/token`, {
      method: 'OPTIONS',
      headers: { origin: 'https://checker.example', 'access-control-request-method': 'GET' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toMatch(/authorization/i);
  });

  it("serves OpenAI's billing shapes for the key", async () => {
    const sub = await get('/v1/dashboard/billing/subscription', second.key);
    expect(sub.status).toBe(200);
    expect(sub.body).toMatchObject({ object: 'billing_subscription', hard_limit_usd: 1000 / 500_000, access_until: 0 });
    const usage = await get('/v1/dashboard/billing/usage', f.key);
    expect(usage.body.object).toBe('list');
    expect(usage.body.total_usage).toBeGreaterThan(0);
    expect((await get('/dashboard/billing/usage')).status).toBe(401);
  });
});
