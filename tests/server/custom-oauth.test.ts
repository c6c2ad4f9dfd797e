/**
 * Custom sign-in providers as the family's console manages and uses them, against a local stand-in
 * identity provider: the root's CRUD (secret never answered, bad settings refused with nothing
 * written), discovery through the SSRF-safe fetcher, /api/status, the redirect login (state, code,
 * field paths, both client-auth styles), JWT login (PEM and JWKS keys, every check), trusted-header
 * login, and the bindings list and unbinding.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { setupRoot, startTestGateway, type ApiClient, type TestGateway } from '../helpers/gateway.js';
import { IDP_CLIENT, startCustomIdp, type CustomIdp, type IdpPerson } from '../helpers/upstreams/custom-idp.js';

const SERVER_ADDRESS = 'https://gateway.example.test';
let idp: CustomIdp;
const hostsBefore = process.env.ALLOW_PRIVATE_HOSTS;
let nextId = 5000;
const person = (login: string): IdpPerson => ({ id: ++nextId, login, name: `${login} N`, email: `${login}@corp.example` });
const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  idp = await startCustomIdp();
  process.env.ALLOW_PRIVATE_HOSTS = '127.0.0.1';
});
afterAll(async () => {
  if (hostsBefore === undefined) delete process.env.ALLOW_PRIVATE_HOSTS;
  else process.env.ALLOW_PRIVATE_HOSTS = hostsBefore;
  await idp?.close();
});

await forEachDatabase('custom OAuth providers', (kind) => {
  let tg: TestGateway;
  let root: ApiClient;
  const db = () => tg.gateway.ctx.db;
  const count = async (table: 'users' | 'custom_oauth_providers' | 'user_oauth_bindings') =>
    (await db().selectFrom(table).select('id').execute()).length;

  const codeProvider = (slug: string, extra: Record<string, unknown> = {}) => ({
    name: `Corp ${slug}`,
    slug,
    kind: 'oauth_code',
    enabled: true,
    client_id: IDP_CLIENT.id,
    client_secret: IDP_CLIENT.secret,
    authorization_endpoint: `${idp.url}/authorize`,
    token_endpoint: `${idp.url}/token`,
    user_info_endpoint: `${idp.url}/userinfo`,
    user_id_field: 'data.user.id',
    username_field: 'data.user.login',
    display_name_field: 'data.user.nick',
    email_field: 'data.user.mail',
    ...extra,
  });

  async function create(body: Record<string, unknown>): Promise<number> {
    const res = await root.post('/api/custom-oauth-provider/', body);
    expect(res.body.success, res.body.message).toBe(true);
    return res.body.data.id;
  }

  async function state(client: ApiClient): Promise<string> {
    const res = await client.get('/api/oauth/state');
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('oauth_state=')) ?? '';
    expect(cookie).toMatch(/Path=\/api(;|$)/);
    client.jar.set('oauth_state', cookie.split(';')[0]!.slice('oauth_state='.length));
    return res.body.data;
  }

  beforeAll(async () => {
    tg = await startTestGateway(kind);
    root = await setupRoot(tg);
    for (const [key, value] of Object.entries({ ServerAddress: SERVER_ADDRESS, RegisterEnabled: true }))
      expect((await root.put('/api/option/', { key, value })).body.success).toBe(true);
  });
  afterAll(async () => tg?.close());

  describe('administration', () => {
    it('creates, reads, lists and edits in the family shape, never answering the client secret', async () => {
      const id = await create(codeProvider('crud'));
      const one = await root.get(`/api/custom-oauth-provider/${id}`);
      expect(one.body.data).toMatchObject({ id, slug: 'crud', kind: 'oauth_code', enabled: true, client_id: IDP_CLIENT.id });
      expect(one.body.data).not.toHaveProperty('client_secret');
      expect(JSON.stringify((await root.get('/api/custom-oauth-provider/')).body)).not.toContain(IDP_CLIENT.secret);
      const edited = await root.put(`/api/custom-oauth-provider/${id}`, { name: 'Renamed', client_secret: '' });
      expect(edited.body).toMatchObject({ success: true, data: { name: 'Renamed', slug: 'crud' } });
      const row = await db().selectFrom('custom_oauth_providers').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(row.client_secret, 'an empty secret keeps the saved one').toBe(IDP_CLIENT.secret);
      expect((await root.delete(`/api/custom-oauth-provider/${id}`)).body.success).toBe(true);
      expect((await root.get(`/api/custom-oauth-provider/${id}`)).body.code).toBe('custom_oauth.not_found');
    });

    it('refuses bad settings by code and writes nothing', async () => {
      await create(codeProvider('taken'));
      const before = await count('custom_oauth_providers');
      const cases: Array<[Record<string, unknown>, string]> = [
        [codeProvider('taken'), 'custom_oauth.slug_taken'],
        [codeProvider('github'), 'custom_oauth.slug_reserved'],
        [codeProvider('Bad Slug'), 'custom_oauth.invalid'],
        [codeProvider('ftp', { token_endpoint: 'ftp://idp.example/token' }), 'custom_oauth.invalid'],
        [codeProvider('noclient', { client_id: '' }), 'custom_oauth.invalid'],
        [codeProvider('policy', { access_policy: '{"logic":"and"}' }), 'custom_oauth.unsupported'],
        [codeProvider('ticket', { kind: 'jwt_direct', jwt_acquire_mode: 'ticket_exchange' }), 'custom_oauth.unsupported'],
        [{ name: 'J', slug: 'jwt-nokey', kind: 'jwt_direct' }, 'custom_oauth.invalid'],
        [{ name: 'J', slug: 'jwt-badpem', kind: 'jwt_direct', public_key: 'not a key' }, 'custom_oauth.invalid'],
        [
          {
            name: 'H',
            slug: 'hdr',
            kind: 'trusted_header',
            external_id_header: 'X-User',
            trusted_proxy_cidrs: '["10.0.0.0/33"]',
          },
          'custom_oauth.invalid',
        ],
        [{ name: 'K', slug: 'kind', kind: 'saml' }, 'custom_oauth.invalid'],
      ];
      for (const [body, code] of cases) {
        const res = await root.post('/api/custom-oauth-provider/', body);
        expect(res.body, JSON.stringify(body).slice(0, 80)).toMatchObject({ success: false, code });
      }
      expect(await count('custom_oauth_providers')).toBe(before);
    });

    it('reads a discovery document through the safe fetcher, refusing private addresses', async () => {
      const res = await root.post('/api/custom-oauth-provider/discovery', { issuer_url: idp.url });
      expect(res.body.data.discovery.token_endpoint).toBe(`${idp.url}/token`);
      const seen = idp.requests.length;
      process.env.ALLOW_PRIVATE_HOSTS = '';
      try {
        const refused = await root.post('/api/custom-oauth-provider/discovery', {
          well_known_url: `${idp.url}/.well-known/openid-configuration`,
        });
        expect(refused.body).toMatchObject({ success: false, code: 'custom_oauth.discovery_failed' });
      } finally {
        process.env.ALLOW_PRIVATE_HOSTS = '127.0.0.1';
      }
      expect(idp.requests.length, 'no request reached the private address').toBe(seen);
      expect((await root.post('/api/custom-oauth-provider/discovery', {})).body.code).toBe('custom_oauth.discovery_url_required');
    });
  });

  describe('redirect login (oauth_code)', () => {
    let providerId: number;
    beforeAll(async () => {
      providerId = await create(codeProvider('corp'));
      await create(codeProvider('corp-off', { enabled: false }));
    });

    it('is listed in /api/status while enabled, without secrets', async () => {
      const status = (await tg.client().get('/api/status')).body.data;
      const slugs = status.custom_oauth_providers.map((p: { slug: string }) => p.slug);
      expect(slugs).toContain('corp');
      expect(slugs).not.toContain('corp-off');
      expect(status.custom_oauth_providers.find((p: { slug: string }) => p.slug === 'corp')).toMatchObject({
        id: providerId,
        client_id: IDP_CLIENT.id,
        authorization_endpoint: `${idp.url}/authorize`,
      });
      expect(JSON.stringify(status)).not.toContain(IDP_CLIENT.secret);
    });

    it('signs a person up, logs them in again, and sends the redirect_uri and credentials', async () => {
      const who = person('alice');
      const client = tg.client();
      const s = await state(client);
      const res = await client.get(`/api/oauth/corp?code=${idp.code(who)}&state=${s}`);
      expect(res.body, res.body.message).toMatchObject({ success: true, data: { username: 'alice', display_name: 'alice N' } });
      const token = idp.requests.filter((r) => r.path === '/token').at(-1)!;
      expect(token.form.get('redirect_uri')).toBe(`${SERVER_ADDRESS}/oauth/corp`);
      expect(token.form.get('client_secret')).toBe(IDP_CLIENT.secret);
      const again = tg.client();
      const s2 = await state(again);
      const second = await again.get(`/api/oauth/corp?code=${idp.code(who)}&state=${s2}`);
      expect(second.body.data.id).toBe(res.body.data.id);
      client.userId = res.body.data.id;
      const bindings = await client.get('/api/user/oauth/bindings');
      expect(bindings.body.data).toEqual([
        {
          provider_id: providerId,
          provider_name: 'Corp corp',
          provider_slug: 'corp',
          provider_icon: '',
          provider_user_id: String(who.id),
        },
      ]);
    });

    it('uses HTTP Basic when auth_style is 2', async () => {
      const id = await create(codeProvider('basic', { auth_style: 2 }));
      idp.clientAuth = 'basic';
      try {
        const client = tg.client();
        const s = await state(client);
        const res = await client.get(`/api/oauth/basic?code=${idp.code(person('basicuser'))}&state=${s}`);
        expect(res.body, res.body.message).toMatchObject({ success: true });
        expect(
          idp.requests
            .filter((r) => r.path === '/token')
            .at(-1)!
            .form.get('client_secret'),
        ).toBeNull();
      } finally {
        idp.clientAuth = 'form';
      }
      expect(id).toBeGreaterThan(0);
    });

    it('refuses a wrong state, a disabled or unknown provider, and writes nothing', async () => {
      const users = await count('users');
      const bindings = await count('user_oauth_bindings');
      const client = tg.client();
      const s = await state(client);
      expect((await client.get(`/api/oauth/corp?code=${idp.code(person('x1'))}&state=${s}x`)).body.code).toBe(
        'oauth.state_invalid',
      );
      const s2 = await state(client);
      expect((await client.get(`/api/oauth/corp-off?code=${idp.code(person('x2'))}&state=${s2}`)).body.code).toBe(
        'oauth.provider_disabled',
      );
      expect((await client.get(`/api/oauth/nope?code=abc&state=${s2}`)).body.code).toBe('oauth.unknown_provider');
      const s3 = await state(client);
      expect((await client.get(`/api/oauth/corp?code=unknown-code&state=${s3}`)).body.success).toBe(false);
      expect(await count('users')).toBe(users);
      expect(await count('user_oauth_bindings')).toBe(bindings);
    });

    it('binds a signed-in user; the root cannot delete a provider with bindings until they unbind', async () => {
      const created = await root.post('/api/user/', { username: 'binder', password: 'secret-pass-1' });
      expect(created.body.success).toBe(true);
      const client = tg.client();
      expect((await client.login('binder', 'secret-pass-1')).body.success).toBe(true);
      const id = await create(codeProvider('bindme'));
      const s = await state(client);
      const res = await client.get(`/api/oauth/bindme?code=${idp.code(person('bindext'))}&state=${s}`);
      expect(res.body).toMatchObject({ success: true, message: 'bind' });
      const userId = res.body.data.id;
      expect((await root.get(`/api/user/${userId}/oauth/bindings`)).body.data).toHaveLength(1);
      expect((await root.delete(`/api/custom-oauth-provider/${id}`)).body.code).toBe('custom_oauth.has_bindings');
      expect((await client.delete(`/api/user/oauth/bindings/${id}`)).body).toMatchObject({ success: true });
      expect((await client.delete(`/api/user/oauth/bindings/${id}`)).body.code).toBe('oauth.binding_not_found');
      expect((await root.delete(`/api/custom-oauth-provider/${id}`)).body.success).toBe(true);
    });
  });

  describe('JWT login (jwt_direct)', () => {
    const claims = (sub: string, extra: Record<string, unknown> = {}) => ({
      sub,
      preferred_username: sub,
      iss: 'https://sso.corp.example',
      aud: 'gateway',
      exp: now() + 300,
      ...extra,
    });
    beforeAll(async () => {
      const common = {
        kind: 'jwt_direct',
        enabled: true,
        issuer: 'https://sso.corp.example',
        audience: 'gateway',
        auto_register: true,
      };
      await create({ name: 'PEM', slug: 'jwt-pem', public_key: idp.rsaPublicPem, ...common });
      await create({ name: 'JWKS', slug: 'jwt-jwks', jwks_url: `${idp.url}/jwks.json`, ...common });
      await create({ name: 'Closed', slug: 'jwt-closed', public_key: idp.rsaPublicPem, ...common, auto_register: false });
    });

    const login = async (client: ApiClient, slug: string, token: string, s?: string) =>
      client.post(`/api/auth/external/${slug}/jwt/login`, { state: s ?? (await state(client)), id_token: token });

    it('logs in with a token signed by the PEM key or the JWKS key, once per token', async () => {
      const token = idp.jwt(claims('jwt-alice'));
      const res = await login(tg.client(), 'jwt-pem', token);
      expect(res.body, res.body.message).toMatchObject({ success: true, data: { username: 'jwt-alice' } });
      expect((await login(tg.client(), 'jwt-pem', token)).body.code).toBe('oauth.jwt_invalid');
      const es = await login(tg.client(), 'jwt-jwks', idp.jwt(claims('jwt-bob'), { alg: 'ES256' }));
      expect(es.body, es.body.message).toMatchObject({ success: true, data: { username: 'jwt-bob' } });
    });

    it('refuses forged, expired, foreign or unbound tokens, and writes nothing', async () => {
      const users = await count('users');
      const [h, p] = idp.jwt(claims('forged')).split('.');
      const refusals: Array<[string, string, string]> = [
        ['jwt-pem', `${h}.${p}.${Buffer.from('x').toString('base64url')}`, 'oauth.jwt_invalid'],
        ['jwt-pem', idp.jwt(claims('none'), { header: { alg: 'none' } }), 'oauth.jwt_invalid'],
        ['jwt-pem', idp.jwt(claims('late', { exp: now() - 600 })), 'oauth.jwt_invalid'],
        ['jwt-pem', idp.jwt(claims('aud', { aud: 'another-app' })), 'oauth.jwt_invalid'],
        ['jwt-pem', idp.jwt(claims('iss', { iss: 'https://evil.example' })), 'oauth.jwt_invalid'],
        ['jwt-pem', idp.jwt(claims('nonce', { nonce: 'not-this-state' })), 'oauth.jwt_invalid'],
        ['jwt-pem', idp.jwt(claims('esonrsa'), { alg: 'ES256' }), 'oauth.jwt_invalid'],
        ['jwt-closed', idp.jwt(claims('closed')), 'oauth.auto_register_disabled'],
      ];
      for (const [slug, token, code] of refusals) {
        const res = await login(tg.client(), slug, token);
        expect(res.body, `${slug}: ${res.body.message}`).toMatchObject({ success: false, code });
      }
      const client = tg.client();
      await state(client);
      expect((await login(client, 'jwt-pem', idp.jwt(claims('nostate')), 'made-up')).body.code).toBe('oauth.state_invalid');
      expect(await count('users')).toBe(users);
    });

    it('accepts a nonce equal to the state', async () => {
      const client = tg.client();
      const s = await state(client);
      const res = await login(client, 'jwt-pem', idp.jwt(claims('noncey', { nonce: s })), s);
      expect(res.body, res.body.message).toMatchObject({ success: true });
    });
  });

  describe('trusted-header login', () => {
    beforeAll(async () => {
      const common = {
        kind: 'trusted_header',
        enabled: true,
        auto_register: true,
        external_id_header: 'X-Corp-User',
        username_header: 'X-Corp-Login',
      };
      await create({ name: 'Proxy', slug: 'proxy', trusted_proxy_cidrs: '["127.0.0.1/32","::1"]', ...common });
      await create({ name: 'Far proxy', slug: 'far-proxy', trusted_proxy_cidrs: '["10.0.0.0/8"]', ...common });
    });

    it('believes the headers only from a trusted proxy', async () => {
      const users = await count('users');
      const far = await tg
        .client()
        .post('/api/auth/external/far-proxy/header/login', {}, { 'X-Corp-User': 'u-1', 'X-Corp-Login': 'hdr' });
      expect(far.body.code).toBe('oauth.header_untrusted');
      expect(await count('users')).toBe(users);
      const missing = await tg.client().post('/api/auth/external/proxy/header/login', {});
      expect(missing.body.code).toBe('oauth.header_missing');
      const ok = await tg
        .client()
        .post('/api/auth/external/proxy/header/login', {}, { 'X-Corp-User': 'u-1', 'X-Corp-Login': 'hdr' });
      expect(ok.body, ok.body.message).toMatchObject({ success: true, data: { username: 'hdr' } });
    });
  });
});
