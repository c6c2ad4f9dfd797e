import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupRoot, startTestGateway, type ApiClient, type ApiResponse, type TestGateway } from '../helpers/gateway.js';
import { loginAs, PASSWORD } from '../helpers/users.js';

type Level = 'public' | 'user' | 'admin' | 'root';
const LEVELS: Level[] = ['public', 'user', 'admin', 'root'];

/**
 * Who may call each console API route. A route missing here fails the first test, so a new route
 * cannot ship without a decision about who may call it.
 */
const RULES: Record<string, Level> = {
  // public
  'GET /api/user/logout': 'public',
  'GET /api/notice': 'public',
  'GET /api/about': 'public',
  'GET /api/home_page_content': 'public',
  'GET /api/setup': 'public',
  'POST /api/setup': 'public',
  'POST /api/user/login': 'public',
  'POST /api/user/login/2fa': 'public',
  'POST /api/user/passkey/login/begin': 'public',
  'POST /api/user/passkey/login/finish': 'public',
  'POST /api/user/register': 'public',
  'GET /api/verification': 'public',
  'GET /api/reset_password': 'public',
  'POST /api/user/reset': 'public',
  'GET /api/oauth/state': 'public',
  'GET /api/oauth/github': 'public',
  'GET /api/oauth/oidc': 'public',
  'GET /api/oauth/linuxdo': 'public',
  'GET /api/oauth/wechat': 'public',
  'GET /api/oauth/telegram/login': 'public',
  'GET /api/oauth/discord': 'public',
  'GET /api/oauth/:provider': 'public',
  'POST /api/auth/external/:provider/jwt/login': 'public',
  'POST /api/auth/external/:provider/header/login': 'public',
  'GET /api/user/epay/notify': 'public',
  'POST /api/user/epay/notify': 'public',
  'GET /api/spend_cap/token/:id': 'user',
  'PUT /api/spend_cap/token/:id': 'user',
  'GET /api/spend_cap/user/:id': 'admin',
  'PUT /api/spend_cap/user/:id': 'admin',
  'GET /api/subscription/plans': 'user',
  'GET /api/subscription/self': 'user',
  'PUT /api/subscription/self/preference': 'user',
  'POST /api/subscription/epay/pay': 'user',
  'POST /api/subscription/stripe/pay': 'user',
  'POST /api/subscription/creem/pay': 'user',
  'GET /api/subscription/epay/notify': 'public',
  'POST /api/subscription/epay/notify': 'public',
  'GET /api/subscription/epay/return': 'public',
  'POST /api/subscription/epay/return': 'public',
  'GET /api/subscription/admin/plans': 'admin',
  'GET /api/subscription/admin/plans/:id': 'admin',
  'POST /api/subscription/admin/plans': 'admin',
  'PUT /api/subscription/admin/plans/:id': 'admin',
  'PATCH /api/subscription/admin/plans/:id': 'admin',
  'POST /api/subscription/admin/bind': 'admin',
  'GET /api/subscription/admin/users/:id/subscriptions': 'admin',
  'POST /api/subscription/admin/users/:id/subscriptions': 'admin',
  'POST /api/subscription/admin/user_subscriptions/:id/invalidate': 'admin',
  'DELETE /api/subscription/admin/user_subscriptions/:id': 'admin',
  'POST /api/stripe/webhook': 'public',
  'POST /api/creem/webhook': 'public',
  'GET /api/pricing': 'public',
  'GET /api/status': 'public',
  'GET /api/status/update': 'root',
  'GET /api/user-agreement': 'public',
  'GET /api/privacy-policy': 'public',
  'GET /api/uptime/status': 'public',
  'GET /api/ratio_config': 'public',
  // Browser preflights of the key routes below.
  'OPTIONS /api/usage/token/': 'public',
  'OPTIONS /api/usage/token': 'public',
  'OPTIONS /api/log/token': 'public',
  'OPTIONS /api/log/token/': 'public',
  // user
  'GET /api/oauth/email/bind': 'user',
  'GET /api/oauth/wechat/bind': 'user',
  'POST /api/oauth/email/bind': 'user',
  'POST /api/oauth/wechat/bind': 'user',
  'GET /api/oauth/telegram/bind': 'user',
  'GET /api/user/self': 'user',
  'PUT /api/user/self': 'user',
  'DELETE /api/user/self': 'user',
  'GET /api/user/token': 'user',
  'GET /api/user/aff': 'user',
  'POST /api/user/aff_transfer': 'user',
  'GET /api/user/checkin': 'user',
  'GET /api/user/oauth/bindings': 'user',
  'DELETE /api/user/oauth/bindings/:provider_id': 'user',
  'POST /api/user/checkin': 'user',
  'PUT /api/user/setting': 'user',
  'GET /api/user/models': 'user',
  'GET /api/user/self/groups': 'user',
  'GET /api/user/2fa/status': 'user',
  'POST /api/user/2fa/setup': 'user',
  'POST /api/user/2fa/enable': 'user',
  'POST /api/user/2fa/disable': 'user',
  'POST /api/user/2fa/backup_codes': 'user',
  'GET /api/user/passkey': 'user',
  'POST /api/user/passkey/register/begin': 'user',
  'POST /api/user/passkey/register/finish': 'user',
  'POST /api/user/passkey/verify/begin': 'user',
  'POST /api/user/passkey/verify/finish': 'user',
  'DELETE /api/user/passkey': 'user',
  'DELETE /api/user/passkey/:id': 'user',
  'POST /api/verify': 'user',
  'GET /api/log/body/:id': 'user',
  'GET /api/token/': 'user',
  'GET /api/token': 'user',
  'GET /api/token/query': 'user',
  'GET /api/token/search': 'user',
  'GET /api/token/newSearch': 'user',
  'GET /api/token/:id': 'user',
  'GET /api/token/new/:id': 'user',
  'POST /api/token/:id/key': 'user',
  'POST /api/token/new/:id/key': 'user',
  'POST /api/token/keys': 'user',
  'POST /api/token/batch': 'user',
  'POST /api/token/batch/keys': 'user',
  'POST /api/token/': 'user',
  'POST /api/token': 'user',
  'PUT /api/token/': 'user',
  'PUT /api/token': 'user',
  'PUT /api/token/new/': 'user',
  'PUT /api/token/new': 'user',
  'DELETE /api/token/:id/': 'user',
  'DELETE /api/token/:id': 'user',
  'DELETE /api/token/new/:id/': 'user',
  'DELETE /api/token/new/:id': 'user',
  'GET /api/log/self/': 'user',
  'GET /api/log/self': 'user',
  'GET /api/log/self/stat': 'user',
  'GET /api/log/self/stat/': 'user',
  'GET /api/log/extend/:id': 'user',
  'GET /api/data/self': 'user',
  'GET /api/data/self/': 'user',
  'GET /api/mj/self': 'user',
  'GET /api/mj/self/': 'user',
  'GET /api/task/self': 'user',
  'GET /api/task/self/': 'user',
  'GET /api/task/video/:id/content': 'user',
  'POST /api/user/topup': 'user',
  'POST /api/user/amount': 'user',
  'POST /api/user/stripe/amount': 'user',
  'POST /api/user/stripe/pay': 'user',
  'POST /api/user/creem/pay': 'user',
  'POST /api/user/pay': 'user',
  'GET /api/user/topup/info': 'user',
  'GET /api/user/topup/self': 'user',
  // admin
  'GET /api/user/2fa/stats': 'admin',
  'DELETE /api/user/:id/2fa': 'admin',
  'DELETE /api/user/:id/reset_passkey': 'admin',
  'GET /api/user/': 'admin',
  'GET /api/user/search': 'admin',
  'GET /api/user/topup': 'admin',
  'GET /api/user/topup/': 'admin',
  'POST /api/user/topup/complete': 'admin',
  'GET /api/user/query': 'admin',
  'GET /api/user/:id': 'admin',
  'GET /api/user/:id/oauth/bindings': 'admin',
  'DELETE /api/user/:id/oauth/bindings/:provider_id': 'admin',
  'POST /api/user/': 'admin',
  'PUT /api/user/': 'admin',
  'POST /api/user/manage': 'admin',
  'DELETE /api/user/:id': 'admin',
  'GET /api/group/': 'admin',
  'GET /api/group': 'admin',
  'GET /api/channel/': 'admin',
  'GET /api/channel/search': 'admin',
  'GET /api/channel/new/search': 'admin',
  'GET /api/channel/models_enabled': 'admin',
  'GET /api/channel/modelNames': 'admin',
  'GET /api/channel/models': 'admin',
  'GET /api/models': 'admin',
  'GET /api/channel/:id': 'admin',
  'POST /api/channel/': 'admin',
  'PUT /api/channel/': 'admin',
  'POST /api/channel/fix': 'admin',
  'POST /api/channel/multi_key/manage': 'admin',
  'POST /api/channel/tag/enabled': 'admin',
  'POST /api/channel/tag/disabled': 'admin',
  'GET /api/channel/tag/models': 'admin',
  'GET /api/channel/test/:id': 'admin',
  'GET /api/channel/test': 'admin',
  'GET /api/channel/update_balance/:id': 'admin',
  'GET /api/channel/update_balance/:id/': 'admin',
  'GET /api/channel/update_balance': 'admin',
  'GET /api/channel/fetch_models/:id': 'admin',
  'POST /api/channel/fetch_models': 'admin',
  'POST /api/channel/upstream_updates/detect': 'admin',
  'POST /api/channel/upstream_updates/detect_all': 'admin',
  'GET /api/log/': 'admin',
  'GET /api/log': 'admin',
  'GET /api/log/new/': 'admin',
  'GET /api/log/new': 'admin',
  'GET /api/log/stat': 'admin',
  'GET /api/log/stat/': 'admin',
  'GET /api/log/new/stat': 'admin',
  'GET /api/log/new/stat/': 'admin',
  'GET /api/data/channelUseData': 'admin',
  'GET /api/data/channelUseData/': 'admin',
  'GET /api/data/': 'admin',
  'GET /api/data/users': 'admin',
  'GET /api/data/users/': 'admin',
  'GET /api/data': 'admin',
  'GET /api/mj': 'admin',
  'GET /api/mj/': 'admin',
  'GET /api/task': 'admin',
  'GET /api/task/': 'admin',
  'GET /api/redemption/': 'admin',
  'GET /api/redemption': 'admin',
  'GET /api/redemption/search': 'admin',
  'GET /api/redemption/:id': 'admin',
  'POST /api/redemption/': 'admin',
  'PUT /api/redemption/': 'admin',
  'POST /api/redemption': 'admin',
  'PUT /api/redemption': 'admin',
  'DELETE /api/redemption/:id/': 'admin',
  'DELETE /api/redemption/:id': 'admin',
  'GET /api/vendors/': 'admin',
  'GET /api/vendors': 'admin',
  'GET /api/vendors/search': 'admin',
  'GET /api/vendors/:id': 'admin',
  'POST /api/vendors/': 'admin',
  'POST /api/vendors': 'admin',
  'PUT /api/vendors/': 'admin',
  'PUT /api/vendors': 'admin',
  'DELETE /api/vendors/:id/': 'admin',
  'DELETE /api/vendors/:id': 'admin',
  'GET /api/models/': 'admin',
  'GET /api/models/search': 'admin',
  'GET /api/models/missing': 'admin',
  'GET /api/models/sync_upstream/preview': 'admin',
  'POST /api/models/sync_upstream': 'admin',
  'GET /api/models/:id': 'admin',
  'POST /api/models/': 'admin',
  'POST /api/models': 'admin',
  'PUT /api/models/': 'admin',
  'PUT /api/models': 'admin',
  'DELETE /api/models/:id/': 'admin',
  'DELETE /api/models/:id': 'admin',
  'DELETE /api/redemption/invalid': 'admin',
  'GET /api/prefill_group': 'admin',
  'GET /api/prefill_group/': 'admin',
  'POST /api/prefill_group': 'admin',
  'POST /api/prefill_group/': 'admin',
  'PUT /api/prefill_group': 'admin',
  'PUT /api/prefill_group/': 'admin',
  'DELETE /api/prefill_group/:id': 'admin',
  // root
  'GET /api/option/': 'root',
  'PUT /api/option/': 'root',
  'POST /api/option/rest_model_ratio': 'root',
  'POST /api/option/migrate_console_setting': 'root',
  'GET /api/option/channel_affinity_cache': 'root',
  'DELETE /api/option/channel_affinity_cache': 'root',
  'POST /api/channel/:id/key': 'root',
  'GET /api/performance/stats': 'root',
  'DELETE /api/performance/disk_cache': 'root',
  'POST /api/performance/reset_stats': 'root',
  'POST /api/performance/gc': 'root',
  'GET /api/performance/logs': 'root',
  'DELETE /api/performance/logs': 'root',
  'POST /api/option/oidc_discovery': 'root',
  'GET /api/ratio_sync/channels': 'root',
  'POST /api/ratio_sync/fetch': 'root',
  'POST /api/custom-oauth-provider/discovery': 'root',
  'GET /api/custom-oauth-provider/': 'root',
  'GET /api/custom-oauth-provider/:id': 'root',
  'POST /api/custom-oauth-provider/': 'root',
  'PUT /api/custom-oauth-provider/:id': 'root',
  'DELETE /api/custom-oauth-provider/:id': 'root',
  'POST /api/channel/copy/:id': 'root',
  'DELETE /api/channel/:id': 'root',
  'DELETE /api/channel/:id/': 'root',
  'DELETE /api/channel/disabled': 'root',
  'POST /api/channel/batch': 'root',
  'POST /api/channel/batch/tag': 'root',
  'POST /api/channel/upstream_updates/apply': 'root',
  'POST /api/channel/upstream_updates/apply_all': 'root',
  'PUT /api/channel/tag': 'root',
  'DELETE /api/log/': 'root',
  'DELETE /api/log': 'root',
  'GET /api/audit/': 'root',
  'GET /api/audit/:id': 'root',
};

/**
 * Routes only an `sk-` key opens (Authorization: Bearer), never a console session: refused to every
 * caller here; tests/server/key-routes.test.ts checks the keys.
 */
const KEY_ONLY = new Set(['GET /api/usage/token/', 'GET /api/usage/token', 'GET /api/log/token', 'GET /api/log/token/']);

/** Calls whose success would end the caller's session or account: checked on a disposable user. */
const ENDS_SESSION = new Set(['GET /api/user/logout', 'DELETE /api/user/self']);

const refusedForAuth = (res: ApiResponse): boolean =>
  res.status === 401 || res.status === 403 || (res.body?.success === false && String(res.body?.code ?? '').startsWith('auth.'));

describe('authorization of every console API route', () => {
  let tg: TestGateway;
  let clients: Record<Exclude<Level, 'public'> | 'anonymous', ApiClient>;
  let bob: ApiClient;
  beforeAll(async () => {
    tg = await startTestGateway('sqlite');
    const root = await setupRoot(tg);
    for (const username of ['alice', 'bob', 'ada', 'dora']) {
      const res = await root.post('/api/user/', { username, password: PASSWORD, display_name: username });
      expect(res.body.success, res.body.message).toBe(true);
    }
    const ada = (await root.get('/api/user/search?keyword=ada')).body.data.items[0].id;
    expect((await root.post('/api/user/manage', { id: ada, action: 'promote' })).body.success).toBe(true);
    // GET /api/ratio_config answers 403 while switched off, as the family does: on here, so that
    // answer is not taken for an authorization refusal.
    expect((await root.put('/api/option/', { key: 'ExposeRatioEnabled', value: 'true' })).body.success).toBe(true);
    clients = { anonymous: tg.client(), user: await loginAs(tg, 'alice'), admin: await loginAs(tg, 'ada'), root };
    bob = await loginAs(tg, 'bob');
  });
  afterAll(async () => tg?.close());

  const apiRoutes = () => tg.gateway.routes.filter((r) => r.url.startsWith('/api/')).map((r) => `${r.method} ${r.url}`);

  it('has a rule for every route, and no rule for a route that is gone', () => {
    const routes = apiRoutes();
    expect(
      routes.filter((r) => !(r in RULES) && !KEY_ONLY.has(r)),
      'routes without a rule',
    ).toEqual([]);
    expect(
      Object.keys(RULES).filter((r) => !routes.includes(r)),
      'rules without a route',
    ).toEqual([]);
  });

  it('refuses every caller below the rule before doing anything, and lets every caller at or above it through', async () => {
    const failures: string[] = [];
    for (const route of apiRoutes()) {
      const [method, url] = route.split(' ') as [string, string];
      const path = url.replace(/:id/g, '999999');
      const needed = KEY_ONLY.has(route) ? LEVELS.length : LEVELS.indexOf(RULES[route]!);
      for (const [name, client] of Object.entries(clients)) {
        const rank = name === 'anonymous' ? 0 : LEVELS.indexOf(name as Level);
        if (rank >= needed && ENDS_SESSION.has(route)) continue;
        const res = await client.request(method, path, method === 'GET' || method === 'DELETE' ? undefined : {});
        const refused = refusedForAuth(res);
        if (refused !== rank < needed)
          failures.push(`${route} as ${name}: ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('lets a user end only their own session and account', async () => {
    const dora = await loginAs(tg, 'dora');
    expect(refusedForAuth(await dora.get('/api/user/logout'))).toBe(false);
    expect(refusedForAuth(await dora.get('/api/user/self'))).toBe(true);
    const again = await loginAs(tg, 'dora');
    expect(refusedForAuth(await again.delete('/api/user/self'))).toBe(false);
    expect((await tg.client().login('dora', PASSWORD)).body.success).toBe(false);
    expect((await clients.user.get('/api/user/self')).body.success).toBe(true);
  });

  it("refuses another user's tokens and log details as if they did not exist", async () => {
    const alice = clients.user;
    const created = await alice.post('/api/token/', { name: 'mine', remain_quota: 1000, expired_time: -1 });
    expect(created.body.success, created.body.message).toBe(true);
    const list = await alice.get('/api/token/');
    const token = list.body.data.items.find((t: any) => t.name === 'mine');
    const id = token.id;
    for (const res of [
      await bob.get(`/api/token/${id}`),
      await bob.post(`/api/token/${id}/key`),
      await bob.put('/api/token/', { ...token, name: 'stolen' }),
      await bob.delete(`/api/token/${id}`),
    ]) {
      expect(res.body.success, JSON.stringify(res.body)).toBe(false);
      expect(JSON.stringify(res.body)).not.toContain('mine');
    }
    const after = await alice.get(`/api/token/${id}`);
    expect(after.body.data).toMatchObject({ id, name: 'mine' });
    const codes = await clients.root.post('/api/redemption/', { name: 'gift', quota: 100, count: 1 });
    expect((await bob.post('/api/user/topup', { key: codes.body.data[0] })).body.success).toBe(true);
    const logs = (await clients.root.get('/api/log/?p=1&page_size=100')).body.data.items as Array<{
      id: number;
      user_id: number;
    }>;
    const aliceId = alice.userId;
    const foreign = logs.find((l) => l.user_id !== aliceId);
    expect(foreign, 'a log row of another user').toBeDefined();
    expect((await alice.get(`/api/log/extend/${foreign!.id}`)).body.success).toBe(false);
  });
});
