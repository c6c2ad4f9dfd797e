/**
 * A webhook address the quota-warning sender would refuse is refused when saved: PUT
 * /api/user/setting answers with a clear refusal and writes nothing when the address is on a
 * private, loopback or link-local network (unless the operator names the host in
 * ALLOW_PRIVATE_HOSTS), through the same address check the SSRF-safe fetcher applies at send time.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setupRoot, startTestGateway, type ApiClient, type TestGateway } from '../helpers/gateway.js';
import { loginAs, PASSWORD } from '../helpers/users.js';

const BLOCKED = { success: false, code: 'user.webhook_blocked' };

describe('webhook addresses checked when saved', () => {
  let tg: TestGateway;
  let client: ApiClient;
  let userId: number;

  beforeAll(async () => {
    tg = await startTestGateway('sqlite');
    const root = await setupRoot(tg);
    const created = await root.post('/api/user/', { username: 'hooked', password: PASSWORD });
    userId = created.body.data.id;
    client = await loginAs(tg, 'hooked');
  });
  afterEach(() => {
    delete process.env.ALLOW_PRIVATE_HOSTS;
    delete process.env.ALLOW_PRIVATE_UPSTREAMS;
  });
  afterAll(() => tg?.close());

  const save = (webhook_url: string) =>
    client.put('/api/user/setting', { notify_type: 'webhook', quota_warning_threshold: 1000, webhook_url, webhook_secret: 's' });
  const stored = async () =>
    (await tg.gateway.ctx.db.selectFrom('users').select('setting').where('id', '=', userId).executeTakeFirstOrThrow()).setting;

  it.each([
    'https://127.0.0.1:8443/hook',
    'https://localhost/hook',
    'https://10.1.2.3/hook',
    'https://192.168.0.10/hook',
    'https://[::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://2130706433/hook',
  ])('refuses %s and writes nothing', async (url) => {
    const before = await stored();
    const res = await save(url);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject(BLOCKED);
    expect(res.body.message).toMatch(/^Webhook地址不可用：不允许访问内网或保留地址/);
    expect(await stored()).toBe(before);
  });

  it('opening channel upstreams does not open webhooks', async () => {
    process.env.ALLOW_PRIVATE_UPSTREAMS = 'true';
    expect((await save('https://127.0.0.1:8443/hook')).body).toMatchObject(BLOCKED);
  });

  it('accepts a private host the operator names, but never a link-local one', async () => {
    process.env.ALLOW_PRIVATE_HOSTS = '127.0.0.1,169.254.169.254';
    const res = await save('https://127.0.0.1:8443/hook');
    expect(res.body.success, res.body.message).toBe(true);
    expect(JSON.parse((await stored())!)).toMatchObject({ webhook_url: 'https://127.0.0.1:8443/hook' });
    expect((await save('https://169.254.169.254/hook')).body).toMatchObject(BLOCKED);
    // The operator withdraws the trust: other settings can still be saved with the address as
    // stored (the sender refuses it), but it cannot be entered anew.
    delete process.env.ALLOW_PRIVATE_HOSTS;
    expect((await save('https://127.0.0.1:8443/hook')).body.success).toBe(true);
    expect((await save('https://127.0.0.1:8444/hook')).body).toMatchObject(BLOCKED);
  });

  it('accepts a public address, and a name that does not resolve today (checked again at send)', async () => {
    expect((await save('https://93.184.215.14/hook')).body.success).toBe(true);
    expect((await save('https://hooks.example.invalid/hook')).body.success).toBe(true);
  });
});
