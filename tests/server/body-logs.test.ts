/**
 * Opt-in body logs on every database, kept in LOG_SQL_DSN's database: nothing is written while off;
 * a token's opt-in, a listed group or the global switch keeps the request and the answer (streams as
 * they were sent), capped and with credentials masked; the owner and admins read them, others not;
 * they go at their own retention.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase, logDatabaseBeside } from '../helpers/databases.js';
import { must, type ApiClient } from '../helpers/gateway.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { runBodyLogRetention } from '../../server/logs/retention.js';

const SECRET_KEY = 'sk-' + 'Z'.repeat(40);

await forEachDatabase('body logs', (kind) => {
  let f: RelayFixture;
  let bob: ApiClient;

  const bodies = () => f.tg.gateway.ctx.logDb.selectFrom('log_bodies').selectAll().orderBy('id').execute();
  const setOption = async (key: string, value: string) => must(await f.root.put('/api/option/', { key, value }), key);
  /** A call, its log row's id once written, and the kept bodies' row (if any) once stored. */
  async function call(body: Record<string, unknown>) {
    const res = await fetch(`${f.tg.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${f.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'Hello!' }], ...body }),
    });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    const log = await f.lastLog();
    // The bodies are written once the answer has closed, without holding it up: wait for them.
    const requestId = JSON.parse(log.other ?? '{}').request_id as string;
    let kept;
    for (let i = 0; i < 50; i++) {
      kept = (await bodies()).find((b) => b.request_id === requestId);
      if (kept) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    return { text, logId: log.id, kept };
  }

  beforeAll(async () => {
    f = await startRelayFixture(kind, { logs: logDatabaseBeside(kind) });
    must(await f.root.post('/api/user/', { username: 'bob', password: 'bob-pass-12', display_name: 'Bob' }), 'bob');
    bob = f.tg.client();
    must(await bob.login('bob', 'bob-pass-12'), 'login bob');
  });
  afterAll(async () => f?.close());

  it('writes nothing while body logs are off (the default)', async () => {
    const { kept } = await call({ model: 'gpt-4o-mini' });
    expect(kept).toBeUndefined();
    expect(await bodies()).toEqual([]);
  });

  it("keeps a token's bodies once its owner opts in, with credentials masked", async () => {
    const created = must(await f.user.put('/api/token/', { id: f.tokenId, log_bodies: true }), 'opt in');
    expect(created.log_bodies).toBe(true);
    const { text, kept } = await call({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: `my key is ${SECRET_KEY}, hi` }],
      metadata: { api_key: 'hunter2-secret-value' },
    });
    expect(kept).toBeDefined();
    expect(kept!.request_body).toContain('"model":"gpt-4o-mini"');
    expect(kept!.request_body).not.toContain(SECRET_KEY);
    expect(kept!.request_body).not.toContain('hunter2');
    expect(kept!.request_body).toContain('[redacted]');
    expect(kept!.response_body).toBe(text);
    expect(kept!.request_truncated).toBe(0);
    expect(kept!.response_truncated).toBe(0);
    expect(kept!.user_id).toBe(f.userId);
  });

  it('reassembles a stream from what was sent to the client', async () => {
    const { text, kept } = await call({ model: 'drip-60', stream: true });
    expect(text.match(/^data: /gm)!.length).toBeGreaterThan(60);
    expect(kept!.response_body).toBe(text);
  });

  it('caps each body at BodyLogMaxBytes', async () => {
    await setOption('BodyLogMaxBytes', '1024');
    const { kept } = await call({ model: 'drip-60', stream: true, messages: [{ role: 'user', content: 'x'.repeat(5000) }] });
    expect(Buffer.byteLength(kept!.request_body)).toBeLessThanOrEqual(1024);
    expect(Buffer.byteLength(kept!.response_body)).toBeLessThanOrEqual(1024);
    expect(kept!.request_truncated).toBe(1);
    expect(kept!.response_truncated).toBe(1);
    await setOption('BodyLogMaxBytes', '65536');
  });

  it('keeps the bodies of a listed group, and of every call with the global switch', async () => {
    must(await f.user.put('/api/token/', { id: f.tokenId, log_bodies: false }), 'opt out');
    expect((await call({ model: 'gpt-4o-mini' })).kept).toBeUndefined();
    await setOption('BodyLogGroups', 'vip, default');
    expect((await call({ model: 'gpt-4o-mini' })).kept).toBeDefined();
    await setOption('BodyLogGroups', '');
    await setOption('BodyLogEnabled', 'true');
    expect((await call({ model: 'gpt-4o-mini' })).kept).toBeDefined();
    await setOption('BodyLogEnabled', 'false');
    expect((await call({ model: 'gpt-4o-mini' })).kept).toBeUndefined();
  });

  it("shows a row's bodies to its owner and to admins, and to nobody else", async () => {
    must(await f.user.put('/api/token/', { id: f.tokenId, log_bodies: true }), 'opt in');
    const { logId, kept } = await call({ model: 'gpt-4o-mini' });
    const owner = must(await f.user.get(`/api/log/body/${logId}`), 'owner');
    expect(owner).toMatchObject({
      request_body: kept!.request_body,
      response_body: kept!.response_body,
      response_truncated: false,
    });
    expect(must(await f.root.get(`/api/log/body/${logId}`), 'root').response_body).toBe(kept!.response_body);
    const other = await bob.get(`/api/log/body/${logId}`);
    expect(other.body).toMatchObject({ success: false, code: 'log.not_found' });
    expect((await f.tg.client().get(`/api/log/body/${logId}`)).status).toBe(401);
    // A row without kept bodies answers null.
    must(await f.user.put('/api/token/', { id: f.tokenId, log_bodies: false }), 'opt out');
    const plain = await call({ model: 'gpt-4o-mini' });
    expect(must(await f.user.get(`/api/log/body/${plain.logId}`), 'none')).toBeNull();
  });

  it('deletes the bodies older than BodyLogRetentionDays, and only those', async () => {
    const ctx = f.tg.gateway.ctx;
    const all = await bodies();
    expect(all.length).toBeGreaterThan(2);
    const now = Math.floor(Date.now() / 1000);
    const old = all.slice(0, 2).map((b) => b.id);
    await ctx.logDb
      .updateTable('log_bodies')
      .set({ created_at: now - 3 * 86_400 })
      .where('id', 'in', old)
      .execute();
    await setOption('BodyLogRetentionDays', '0');
    expect(await runBodyLogRetention(ctx, now)).toBeNull();
    await setOption('BodyLogRetentionDays', '2');
    expect(await runBodyLogRetention(ctx, now)).toMatchObject({ deleted: 2 });
    const left = (await bodies()).map((b) => b.id);
    expect(left).toEqual(all.map((b) => b.id).filter((id) => !old.includes(id)));
  });
});
