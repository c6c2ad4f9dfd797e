/**
 * Spend caps: a token capped per day is refused past its cap with 429 in the caller's format and a
 * Retry-After at the period's end, then served again once the cap is raised (as a new period
 * would) and again after the period resets (on the gateway's test clock); a user's cap (set by an
 * admin, audited) holds across all their tokens; bad caps are refused; another user's token cannot
 * be capped.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase, type DbName } from '../helpers/databases.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { setOptions, streamChat, tokenWith } from '../helpers/money.js';

await forEachDatabase('spend caps', (kind: DbName) => {
  let f: RelayFixture;
  beforeAll(async () => {
    f = await startRelayFixture(kind, { userQuota: 1_000_000 });
    const ratios = JSON.parse(f.tg.gateway.ctx.options.raw('ModelRatio'));
    await setOptions(f, { ModelRatio: JSON.stringify({ ...ratios, 'drip-20': 10 }), PreConsumedQuota: '20' });
    await f.addChannel({ models: 'drip-20', name: 'caps' });
  });
  afterAll(async () => f?.close());

  const claude = (key: string) =>
    fetch(`${f.tg.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'drip-20', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
    });

  it('refuses a token past its daily cap with 429 and Retry-After, and serves it again when the cap allows', async () => {
    const token = await tokenWith(f, { remain_quota: 0, unlimited_quota: true });
    expect((await f.user.put(`/api/spend_cap/token/${token.id}`, { period: 'hourly', limit: 5 })).body.success).toBe(false);
    expect((await f.user.put(`/api/spend_cap/token/${token.id}`, { period: 'daily', limit: -1 })).body.success).toBe(false);
    const set = await f.user.put(`/api/spend_cap/token/${token.id}`, { period: 'daily', limit: 1000 });
    expect(set.body.data).toEqual({ period: 'daily', limit: 1000 });
    // 500 a call: two calls reach the cap.
    for (let i = 0; i < 2; i++) expect((await streamChat(f.tg.url, token.key, 'drip-20')).status).toBe(200);
    await f.flush();
    const res = await fetch(`${f.tg.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token.key}` },
      body: JSON.stringify({ model: 'drip-20', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(429);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('spend_cap_reached');
    const retry = Number(res.headers.get('retry-after'));
    const midnight = new Date();
    midnight.setHours(24, 0, 0, 0);
    expect(Math.abs(retry - (midnight.getTime() - Date.now()) / 1000)).toBeLessThan(5);
    // In Claude's format too.
    const c = await claude(token.key);
    expect(c.status).toBe(429);
    expect(((await c.json()) as { type: string }).type).toBe('error');
    // A raised cap serves it again.
    await f.user.put(`/api/spend_cap/token/${token.id}`, { period: 'daily', limit: 5000 });
    expect((await streamChat(f.tg.url, token.key, 'drip-20')).status).toBe(200);
    // Removed (limit 0): reads as null.
    expect((await f.user.put(`/api/spend_cap/token/${token.id}`, { period: 'daily', limit: 0 })).body.data).toBeNull();
  });

  it('holds a user cap across tokens, set by admins only, audited', async () => {
    expect((await f.user.put(`/api/spend_cap/user/${f.userId}`, { period: 'monthly', limit: 1 })).body.code).toBe(
      'auth.forbidden',
    );
    const set = await f.root.put(`/api/spend_cap/user/${f.userId}`, { period: 'monthly', limit: 1 });
    expect(set.body.data).toEqual({ period: 'monthly', limit: 1 });
    const other = await tokenWith(f, { remain_quota: 0, unlimited_quota: true });
    const refused = await streamChat(f.tg.url, other.key, 'drip-20');
    expect(refused).toMatchObject({ status: 429, code: 'spend_cap_reached' });
    const audits = await f.tg.gateway.ctx.db.selectFrom('audit_logs').selectAll().where('action', '=', 'spend_cap').execute();
    expect(audits).toHaveLength(1);
    await f.root.put(`/api/spend_cap/user/${f.userId}`, { period: 'monthly', limit: 0 });
    expect((await streamChat(f.tg.url, other.key, 'drip-20')).status).toBe(200);
  });

  it('does not let a user cap someone else’s token', async () => {
    const rootToken = await f.root.post('/api/token/', {
      name: 'roots',
      expired_time: -1,
      remain_quota: 0,
      unlimited_quota: true,
    });
    const id = rootToken.body.data.id as number;
    expect((await f.user.put(`/api/spend_cap/token/${id}`, { period: 'daily', limit: 5 })).body.code).toBe('token.not_found');
    expect(
      await f.tg.gateway.ctx.db
        .selectFrom('spend_caps')
        .selectAll()
        .where('subject_id', '=', id)
        .where('subject', '=', 'token')
        .execute(),
    ).toEqual([]);
  });

  // Last: it moves this gateway's clock a day on.
  it('serves a capped token again once its period resets, and caps it again in the new period', async () => {
    const token = await tokenWith(f, { remain_quota: 0, unlimited_quota: true });
    await f.user.put(`/api/spend_cap/token/${token.id}`, { period: 'daily', limit: 1000 });
    for (let i = 0; i < 2; i++) expect((await streamChat(f.tg.url, token.key, 'drip-20')).status).toBe(200);
    await f.flush();
    expect(await streamChat(f.tg.url, token.key, 'drip-20')).toMatchObject({ status: 429, code: 'spend_cap_reached' });
    // One second past the next midnight in the site's time zone.
    const clock = f.tg.gateway.ctx.clock;
    const midnight = new Date(clock.now() * 1000);
    midnight.setHours(24, 0, 0, 0);
    clock.advance(midnight.getTime() / 1000 - clock.now() + 1);
    for (let i = 0; i < 2; i++) expect((await streamChat(f.tg.url, token.key, 'drip-20')).status).toBe(200);
    await f.flush();
    const refused = await streamChat(f.tg.url, token.key, 'drip-20');
    expect(refused).toMatchObject({ status: 429, code: 'spend_cap_reached' });
  });
});
