import { afterAll, beforeAll, expect, it } from 'vitest';
import { OPTION_REGISTRY } from '../../server/options/registry.js';
import { forEachDatabase } from '../helpers/databases.js';
import { setupRoot, startTestGateway, type ApiClient, type TestGateway } from '../helpers/gateway.js';

const PASSWORD = 'secret-pass-1';
const SECRET_KEYS = Object.entries(OPTION_REGISTRY)
  .filter(([, def]) => 'secret' in def)
  .map(([key]) => key);

await forEachDatabase('options', (kind) => {
  let tg: TestGateway;
  let root: ApiClient;
  let admin: ApiClient;
  let user: ApiClient;

  const stored = async (key: string) =>
    (await tg.gateway.ctx.db.selectFrom('options').select('value').where('key', '=', key).executeTakeFirst())?.value;
  const listed = async (): Promise<Record<string, string>> => {
    const res = await root.get('/api/option/');
    expect(res.body.success).toBe(true);
    return Object.fromEntries((res.body.data as Array<{ key: string; value: string }>).map((o) => [o.key, o.value]));
  };
  const put = (key: string, value: unknown, by = root) => by.put('/api/option/', { key, value });

  async function loginNew(username: string, role: number): Promise<ApiClient> {
    const created = await root.post('/api/user/', { username, password: PASSWORD, role });
    expect(created.body.success, created.body.message).toBe(true);
    const client = tg.client();
    expect((await client.login(username, PASSWORD)).body.success).toBe(true);
    return client;
  }

  beforeAll(async () => {
    tg = await startTestGateway(kind);
    root = await setupRoot(tg);
    admin = await loginNew('opt-admin', 10);
    user = await loginNew('opt-user', 1);
  });
  afterAll(async () => tg?.close());

  it('lists options to root only', async () => {
    const options = await listed();
    expect(options.SystemName).toBe(OPTION_REGISTRY.SystemName.default);
    expect(options.QuotaPerUnit).toBe('500000');
    expect((await tg.client().get('/api/option/')).status).toBe(401);
    for (const client of [admin, user]) {
      const res = await client.get('/api/option/');
      expect(res.body).toMatchObject({ success: false, message: '无权进行此操作，权限不足' });
    }
  });

  it('accepts secrets but never returns them', async () => {
    expect(SECRET_KEYS).toEqual(expect.arrayContaining(['SMTPToken', 'GitHubClientSecret', 'TurnstileSecretKey', 'EpayKey']));
    for (const key of SECRET_KEYS) {
      expect((await put(key, `value-of-${key}`)).body.success).toBe(true);
      expect(await stored(key)).toBe(`value-of-${key}`);
    }
    const res = await root.get('/api/option/');
    const text = JSON.stringify(res.body);
    for (const key of SECRET_KEYS) {
      expect(text).not.toContain(`value-of-${key}`);
      expect(res.body.data.map((o: { key: string }) => o.key)).not.toContain(key);
    }
    expect(JSON.stringify((await tg.client().get('/api/status')).body)).not.toContain('value-of-');
  });

  it('type-checks values and refuses unknown keys without writing', async () => {
    const before = await listed();
    const cases: Array<[string, unknown, string]> = [
      ['DrawingEnabled', 'maybe', 'DrawingEnabled must be true or false'],
      ['RetryTimes', 'x', 'RetryTimes must be an integer'],
      ['RetryTimes', '1.5', 'RetryTimes must be an integer'],
      ['Price', 'abc', 'Price must be a number'],
      ['GroupRatio', '{', 'not a valid JSON string'],
      ['ModelRatio', '{"gpt-4o": 1', 'not a valid JSON string'],
      ['NoSuchOption', 'x', '未知的配置项：NoSuchOption'],
    ];
    for (const [key, value, message] of cases) {
      const res = await put(key, value);
      expect(res.body.success, `${key}=${String(value)}`).toBe(false);
      expect(res.body.message).toContain(message);
    }
    expect(await listed()).toEqual(before);
    expect(await stored('NoSuchOption')).toBeUndefined();
    expect(await stored('DrawingEnabled')).toBeUndefined();

    expect((await put('DrawingEnabled', true)).body.success).toBe(true);
    expect((await listed()).DrawingEnabled).toBe('true');
    expect((await put('RetryTimes', 3)).body.success).toBe(true);
    expect(await stored('RetryTimes')).toBe('3');
  });

  it('empties a text option sent without a value, and refuses that for any other type', async () => {
    expect((await put('Notice', 'hello')).body.success).toBe(true);
    // What consoles send for a field that was emptied: no value at all, or null.
    const absent = await root.put('/api/option/', { key: 'Notice' });
    expect(absent.body).toMatchObject({ success: true });
    expect(await stored('Notice')).toBe('');
    expect((await put('Footer', 'x')).body.success).toBe(true);
    expect((await put('Footer', null)).body.success).toBe(true);
    expect(await stored('Footer')).toBe('');

    expect((await put('RetryTimes', 2)).body.success).toBe(true);
    for (const key of ['RetryTimes', 'DrawingEnabled', 'Price', 'GroupRatio']) {
      const before = await stored(key);
      for (const body of [{ key }, { key, value: null }]) {
        const res = await root.put('/api/option/', body);
        expect(res.body, JSON.stringify(body)).toMatchObject({ success: false, code: 'option.value_required' });
        expect(res.body.message).toBe(`${key} 不能为空`);
      }
      expect(await stored(key)).toBe(before);
    }
    // Zero and false are values, not absence.
    expect((await put('RetryTimes', 0)).body.success).toBe(true);
    expect(await stored('RetryTimes')).toBe('0');
    expect((await put('DrawingEnabled', false)).body.success).toBe(true);
    expect(await stored('DrawingEnabled')).toBe('false');
    expect((await put('Notice', '')).body.success).toBe(true);
    for (const value of [{}, [1]]) {
      expect((await put('Notice', value)).body).toMatchObject({ success: false, code: 'request.invalid_params' });
    }
  });

  it('refuses writes from admins and normal users', async () => {
    for (const client of [admin, user]) {
      expect((await put('SystemName', 'Hijacked', client)).body.success).toBe(false);
      expect((await client.post('/api/option/rest_model_ratio')).body.success).toBe(false);
    }
    expect((await listed()).SystemName).not.toBe('Hijacked');
  });

  it('strips the trailing slash from ServerAddress and shows options in the status', async () => {
    expect((await put('ServerAddress', 'https://gw.example.com/')).body.success).toBe(true);
    expect((await listed()).ServerAddress).toBe('https://gw.example.com');
    expect((await put('SystemName', 'My Gateway')).body.success).toBe(true);
    const status = (await tg.client().get('/api/status')).body.data;
    expect(status.server_address).toBe('https://gw.example.com');
    expect(status.system_name).toBe('My Gateway');
    expect((await put('DisplayInCurrencyEnabled', 'false')).body.success).toBe(true);
    expect((await tg.client().get('/api/status')).body.data.display_in_currency).toBe(false);
  });

  it('takes only web addresses for the links the console renders, and shows the support link in the status', async () => {
    for (const key of ['SupportLink', 'general_setting.docs_link']) {
      for (const bad of [
        'javascript:alert(1)',
        'data:text/html,x',
        'https://a.example.com/"onmouseover',
        'support.example.com',
      ]) {
        const res = await put(key, bad);
        expect(res.body, `${key}=${bad}`).toMatchObject({ success: false, code: 'option.not_link' });
      }
    }
    expect((await listed()).SupportLink).toBe('');
    expect((await put('SupportLink', ' https://support.example.com/chat ')).body.success).toBe(true);
    expect((await tg.client().get('/api/status')).body.data.support_link).toBe('https://support.example.com/chat');
    expect((await put('SupportLink', '')).body.success).toBe(true);
    expect((await tg.client().get('/api/status')).body.data.support_link).toBe('');
  });

  it('restores the default model ratios', async () => {
    expect((await put('ModelRatio', '{"only-model": 3}')).body.success).toBe(true);
    expect((await put('CompletionRatio', '{"only-model": 2}')).body.success).toBe(true);
    expect(JSON.parse((await listed()).ModelRatio ?? '')).toEqual({ 'only-model': 3 });
    const res = await root.post('/api/option/rest_model_ratio');
    expect(res.body.success).toBe(true);
    const options = await listed();
    expect(JSON.parse(options.ModelRatio ?? '')).toEqual(JSON.parse(OPTION_REGISTRY.ModelRatio.default));
    expect(JSON.parse(options.ModelRatio ?? '')['gpt-4o']).toBe(1.25);
    expect(JSON.parse(options.CompletionRatio ?? '')).toEqual(JSON.parse(OPTION_REGISTRY.CompletionRatio.default));
    expect(await stored('ModelRatio')).toBe(OPTION_REGISTRY.ModelRatio.default);
  });
});
