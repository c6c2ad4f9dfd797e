/**
 * POST /api/option/oidc_discovery against the real gateway: a local server plays the OpenID
 * provider. Loopback is a private address, so the SSRF-safe fetcher refuses it unless the operator
 * names it in ALLOW_PRIVATE_HOSTS (ALLOW_PRIVATE_UPSTREAMS opens channel upstreams only); link-local
 * stays refused even then. Root only.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setupRoot, startTestGateway, type ApiClient, type TestGateway } from '../helpers/gateway.js';

const PASSWORD = 'secret-pass-1';
const FAILED = '获取 OIDC 配置失败，请检查网络状况和 Well-Known URL 是否正确';

let provider: Server;
let providerUrl = '';
let seen: Array<{ method: string; url: string; headers: IncomingHttpHeaders }> = [];

const DOCUMENT = {
  issuer: 'https://id.example.test',
  authorization_endpoint: 'https://id.example.test/oauth2/authorize',
  token_endpoint: 'https://id.example.test/oauth2/token',
  userinfo_endpoint: 'https://id.example.test/oauth2/userinfo',
  jwks_uri: 'https://id.example.test/oauth2/jwks',
};

beforeAll(async () => {
  provider = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    switch (req.url) {
      case '/.well-known/openid-configuration':
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify(DOCUMENT));
      case '/no-token/.well-known/openid-configuration': {
        const { token_endpoint: _dropped, ...rest } = DOCUMENT;
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify(rest));
      }
      case '/script/.well-known/openid-configuration':
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ ...DOCUMENT, authorization_endpoint: 'javascript:alert(1)' }));
      case '/html':
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end('<html>login</html>');
      case '/to-metadata':
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
        return res.end();
      default:
        res.writeHead(404, { 'content-type': 'text/plain' });
        return res.end('not found');
    }
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
});

afterAll(async () => {
  provider.closeAllConnections();
  await new Promise<void>((resolve) => provider.close(() => resolve()));
});

describe('OIDC discovery', () => {
  let tg: TestGateway;
  let root: ApiClient;

  const discover = (url: unknown, by = root) => by.post('/api/option/oidc_discovery', { url });
  const storedOidc = async () =>
    tg.gateway.ctx.db.selectFrom('options').select(['key', 'value']).where('key', 'like', 'oidc.%').execute();

  async function loginNew(username: string, role: number): Promise<ApiClient> {
    const created = await root.post('/api/user/', { username, password: PASSWORD, role });
    expect(created.body.success, created.body.message).toBe(true);
    const client = tg.client();
    expect((await client.login(username, PASSWORD)).body.success).toBe(true);
    return client;
  }

  beforeAll(async () => {
    tg = await startTestGateway('sqlite');
    root = await setupRoot(tg);
  });
  afterAll(async () => tg?.close());
  beforeEach(() => {
    seen = [];
  });
  afterEach(() => {
    delete process.env.ALLOW_PRIVATE_HOSTS;
    delete process.env.ALLOW_PRIVATE_UPSTREAMS;
  });

  it('refuses a provider on a private address, even with private upstreams allowed', async () => {
    process.env.ALLOW_PRIVATE_UPSTREAMS = 'true';
    const res = await discover(`${providerUrl}/.well-known/openid-configuration`);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(false);
    expect(res.body.message).toContain(FAILED);
    expect(res.body.message).toContain('不允许访问内网或保留地址');
    expect(seen).toEqual([]);
  });

  it('answers the three endpoints from a private host the operator trusts, storing nothing', async () => {
    process.env.ALLOW_PRIVATE_HOSTS = '127.0.0.1';
    const res = await discover(`  ${providerUrl}/.well-known/openid-configuration `);
    expect(res.body).toEqual({
      success: true,
      message: '',
      data: {
        authorization_endpoint: DOCUMENT.authorization_endpoint,
        token_endpoint: DOCUMENT.token_endpoint,
        user_info_endpoint: DOCUMENT.userinfo_endpoint,
      },
    });
    expect(seen).toMatchObject([{ method: 'GET', url: '/.well-known/openid-configuration' }]);
    expect(seen[0]!.headers.accept).toBe('application/json');
    expect(await storedOidc()).toEqual([]);
  });

  it('fails with the reason when the document is missing, not JSON, incomplete or unsafe', async () => {
    process.env.ALLOW_PRIVATE_HOSTS = '127.0.0.1';
    const cases: Array<[string, string]> = [
      ['/missing/.well-known/openid-configuration', 'HTTP 404'],
      ['/html', '返回的不是 JSON'],
      ['/no-token/.well-known/openid-configuration', '缺少 token_endpoint'],
      ['/script/.well-known/openid-configuration', 'authorization_endpoint 不是 http(s) 地址'],
    ];
    for (const [path, reason] of cases) {
      const res = await discover(providerUrl + path);
      expect(res.body, path).toMatchObject({ success: false, message: `${FAILED}（${reason}）` });
    }
  });

  it('never follows a redirect to a link-local address, even from a trusted host', async () => {
    process.env.ALLOW_PRIVATE_HOSTS = '127.0.0.1,169.254.169.254';
    const res = await discover(`${providerUrl}/to-metadata`);
    expect(res.body.success).toBe(false);
    expect(res.body.message).toContain(FAILED);
    expect(res.body.message).toContain('169.254.169.254');
  });

  it('requires an http or https URL', async () => {
    for (const url of ['ftp://id.example.test/.well-known/openid-configuration', 'id.example.test', '']) {
      const res = await discover(url);
      expect(res.body, url).toMatchObject({ success: false, message: 'Well-Known URL 必须以 http:// 或 https:// 开头' });
    }
    const missing = await root.post('/api/option/oidc_discovery', {});
    expect(missing.body.success).toBe(false);
    expect(missing.body.message).toMatch(/^参数错误/);
    expect(seen).toEqual([]);
  });

  it('is for root only', async () => {
    process.env.ALLOW_PRIVATE_HOSTS = '127.0.0.1';
    const url = `${providerUrl}/.well-known/openid-configuration`;
    expect((await discover(url, tg.client())).status).toBe(401);
    for (const client of [await loginNew('oidc-admin', 10), await loginNew('oidc-user', 1)]) {
      const res = await discover(url, client);
      expect(res.body).toMatchObject({ success: false, message: '无权进行此操作，权限不足' });
    }
    expect(seen).toEqual([]);
  });
});
