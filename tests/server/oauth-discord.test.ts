/**
 * Discord sign-in against a local stand-in speaking Discord's OAuth 2 wire format (the gateway's
 * fixed Discord addresses pointed at it): /api/status advertises it only once it is switched on
 * with both credentials; the redirect login signs up, logs in again and binds, with the state
 * checked and nothing written on a refusal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overrideFixedEndpoints } from '../../server/oauth/providers.js';
import { forEachDatabase } from '../helpers/databases.js';
import { setupRoot, startTestGateway, type ApiClient, type TestGateway } from '../helpers/gateway.js';
import { CLIENTS, startOAuthStandIn, type OAuthStandIn, type ProviderUser } from '../helpers/upstreams/oauth.js';

const SERVER_ADDRESS = 'https://gateway.example.test';
let standIn: OAuthStandIn;
let restore: () => void;
const hostsBefore = process.env.ALLOW_PRIVATE_HOSTS;
let nextId = 1000;
// Discord ids are snowflakes: beyond a safe integer, so strings.
const person = (login: string): ProviderUser => ({
  id: `8800000000000${++nextId}`,
  login,
  name: `${login} global`,
  email: `${login}@dc.example`,
});

beforeAll(async () => {
  standIn = await startOAuthStandIn();
  restore = overrideFixedEndpoints(standIn.fixedEndpoints);
  process.env.ALLOW_PRIVATE_HOSTS = '127.0.0.1';
});
afterAll(async () => {
  restore?.();
  if (hostsBefore === undefined) delete process.env.ALLOW_PRIVATE_HOSTS;
  else process.env.ALLOW_PRIVATE_HOSTS = hostsBefore;
  await standIn?.close();
});

await forEachDatabase('Discord sign-in', (kind) => {
  let tg: TestGateway;
  let root: ApiClient;
  const users = async () => (await tg.gateway.ctx.db.selectFrom('users').select('id').execute()).length;
  const set = async (key: string, value: string | boolean) =>
    expect((await root.put('/api/option/', { key, value })).body.success).toBe(true);

  async function login(client: ApiClient, code: string, tamper = '') {
    const res = await client.get('/api/oauth/state');
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('oauth_state=')) ?? '';
    client.jar.set('oauth_state', cookie.split(';')[0]!.slice('oauth_state='.length));
    return client.get(`/api/oauth/discord?code=${code}&state=${res.body.data}${tamper}`);
  }

  beforeAll(async () => {
    tg = await startTestGateway(kind);
    root = await setupRoot(tg);
    await set('ServerAddress', SERVER_ADDRESS);
    await set('RegisterEnabled', true);
  });
  afterAll(async () => tg?.close());

  describe('the login', () => {
    it('is advertised only once switched on with its credentials', async () => {
      expect((await tg.client().get('/api/status')).body.data).toMatchObject({ discord_oauth: false, discord_client_id: '' });
      expect((await tg.client().get(`/api/oauth/discord?code=x&state=y`)).body.code).toBe('oauth.provider_disabled');
      await set('discord.client_id', CLIENTS.discord.id);
      await set('discord.client_secret', CLIENTS.discord.secret);
      await set('discord.enabled', true);
      expect((await tg.client().get('/api/status')).body.data).toMatchObject({
        discord_oauth: true,
        discord_client_id: CLIENTS.discord.id,
      });
    });

    it('signs a new person up with their Discord id, then logs them in again', async () => {
      const who = person('dcuser');
      const first = await login(tg.client(), standIn.code('discord', who));
      expect(first.body, first.body.message).toMatchObject({
        success: true,
        data: { username: 'dcuser', display_name: 'dcuser global' },
      });
      const token = standIn.requests.filter((r) => r.path === '/discord/api/v10/oauth2/token').at(-1)!;
      expect(new URLSearchParams(token.body).get('redirect_uri')).toBe(`${SERVER_ADDRESS}/oauth/discord`);
      const row = await tg.gateway.ctx.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', first.body.data.id)
        .executeTakeFirstOrThrow();
      expect(row.discord_id).toBe(who.id);
      expect(row.email).toBe('dcuser@dc.example');
      const again = await login(tg.client(), standIn.code('discord', who));
      expect(again.body.data.id).toBe(first.body.data.id);
    });

    it('binds the account of a signed-in user', async () => {
      expect((await root.post('/api/user/', { username: 'dcbind', password: 'secret-pass-1' })).body.success).toBe(true);
      const client = tg.client();
      expect((await client.login('dcbind', 'secret-pass-1')).body.success).toBe(true);
      const who = person('dcbound');
      const res = await login(client, standIn.code('discord', who));
      expect(res.body).toMatchObject({ success: true, message: 'bind', data: { username: 'dcbind', discord_id: who.id } });
    });

    it('refuses a wrong state or a code Discord rejects, and writes nothing', async () => {
      const before = await users();
      expect((await login(tg.client(), standIn.code('discord', person('dcstate')), 'x')).body.code).toBe('oauth.state_invalid');
      const refused = await login(tg.client(), 'not-a-code');
      expect(refused.body).toMatchObject({ success: false, code: 'oauth.authorization_refused' });
      expect(await users()).toBe(before);
    });
  });
});
