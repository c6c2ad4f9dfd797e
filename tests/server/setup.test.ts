import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';

await forEachDatabase('status and setup', (kind) => {
  let tg: TestGateway;
  beforeAll(async () => {
    tg = await startTestGateway(kind);
  });
  afterAll(async () => tg?.close());

  it('reports setup not done on a fresh database', async () => {
    const c = tg.client();
    const status = await c.get('/api/status');
    expect(status.status).toBe(200);
    expect(status.body.success).toBe(true);
    expect(status.body.data.setup).toBe(false);
    expect(status.body.data.quota_per_unit).toBe(500000);
    const setup = await c.get('/api/setup');
    expect(setup.body.data).toEqual({ status: false, root_init: false, database_type: kind });
  });

  it('rejects bad setup input with the spec messages and creates nothing', async () => {
    const c = tg.client();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ username: '  ', password: 'abcdefgh', confirmPassword: 'abcdefgh' }, '请输入管理员用户名'],
      [{ username: 'root', password: 'short', confirmPassword: 'short' }, '密码长度至少为8个字符'],
      [{ username: 'root', password: 'abcdefgh', confirmPassword: 'abcdefgx' }, '两次输入的密码不一致'],
    ];
    for (const [body, message] of cases) {
      const res = await c.post('/api/setup', body);
      expect(res.body).toMatchObject({ success: false, message });
    }
    const setup = await c.get('/api/setup');
    expect(setup.body.data.root_init).toBe(false);
  });

  it('answers malformed JSON with a 400 envelope, not a 500', async () => {
    const c = tg.client();
    const res = await c.request('POST', '/api/setup', '{"username":');
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
  });

  it('creates the root user once and records the usage mode', async () => {
    const c = tg.client();
    const res = await c.post('/api/setup', {
      username: 'admin',
      password: 'abcdefgh1',
      confirmPassword: 'abcdefgh1',
      SelfUseModeEnabled: true,
      DemoSiteEnabled: false,
    });
    expect(res.body.success).toBe(true);
    const again = await c.post('/api/setup', { username: 'other', password: 'abcdefgh1', confirmPassword: 'abcdefgh1' });
    expect(again.body.success).toBe(false);
    const status = await c.get('/api/status');
    expect(status.body.data.setup).toBe(true);
    expect(status.body.data.self_use_mode_enabled).toBe(true);
    const root = await tg.gateway.ctx.db.selectFrom('users').selectAll().execute();
    expect(root).toHaveLength(1);
    expect(root[0]!.role).toBe(100);
    expect(root[0]!.password).not.toContain('abcdefgh1');
  });

  it('answers unknown API paths with 404 JSON', async () => {
    const c = tg.client();
    const api = await c.get('/api/nope');
    expect(api.status).toBe(404);
    expect(api.body.success).toBe(false);
    const v1 = await c.get('/v1/nope');
    expect(v1.status).toBe(404);
    expect(v1.body.error.type).toBe('invalid_request_error');
  });
});

await forEachDatabase('bad input on the console API', (kind) => {
  let tg: TestGateway;
  beforeAll(async () => {
    tg = await startTestGateway(kind);
  });
  afterAll(async () => tg?.close());

  it('answers an oversized body with 413 and the envelope', async () => {
    const res = await tg
      .client()
      .request('POST', '/api/user/login', JSON.stringify({ username: 'x'.repeat(3 * 1024 * 1024), password: 'y' }));
    expect(res.status).toBe(413);
    expect(res.body.success).toBe(false);
  });

  it('answers wrong types and missing fields with a message, not a 500', async () => {
    const c = tg.client();
    const missing = await c.post('/api/user/login', { username: 'someone' });
    expect(missing.status).toBe(200);
    expect(missing.body.success).toBe(false);
    expect(missing.body.message).toMatch(/password/);
    const wrong = await c.post('/api/setup', { username: ['a'], password: { x: 1 } });
    expect(wrong.body.success).toBe(false);
    expect((await c.get('/api/setup')).body.data.root_init).toBe(false);
  });

  it('refuses a guarded call without a session before reading its body', async () => {
    const res = await tg.client().request('PUT', '/api/user/', '{not json');
    expect(res.status).toBe(401);
  });
});
