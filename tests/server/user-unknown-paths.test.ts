/**
 * Paths under /api/user/ that the gateway does not serve answer 404 in the console's envelope, as
 * any unknown /api path does, for every caller and method — not `params/id must be integer` from
 * GET or DELETE /api/user/:id — while numeric ids still reach those routes.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { setupRoot, startTestGateway, type ApiClient, type TestGateway } from '../helpers/gateway.js';

let tg: TestGateway;
let root: ApiClient;

beforeAll(async () => {
  tg = await startTestGateway('sqlite');
  root = await setupRoot(tg);
});
afterAll(async () => tg?.close());

it('answers 404 for unknown paths under /api/user/, signed in or not', async () => {
  const cases: Array<[string, string]> = [
    ['GET', '/api/user/checkout'],
    ['GET', '/api/user/2fa/stats-unknown'],
    ['GET', '/api/user/12abc'],
    ['DELETE', '/api/user/reset_passkey'],
    ['POST', '/api/user/unknown'],
    ['GET', '/api/user/self/unknown'],
  ];
  for (const client of [root, tg.client()]) {
    for (const [method, path] of cases) {
      const res = await client.request(method, path, method === 'POST' ? {} : undefined);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body, `${method} ${path}`).toMatchObject({ success: false, code: 'request.not_found' });
      expect(JSON.stringify(res.body)).not.toContain('must be integer');
    }
  }
});

it('still serves numeric ids and the named routes beside them', async () => {
  const me = await root.get(`/api/user/${root.userId}`);
  expect(me.body).toMatchObject({ success: true, data: { username: 'root' } });
  expect((await root.get('/api/user/999999')).body).toMatchObject({ success: false, code: 'user.not_found' });
  expect((await root.get('/api/user/self')).body.success).toBe(true);
  expect((await root.get('/api/user/topup/info')).body.success).toBe(true);
  expect((await tg.client().get('/api/user/1')).status).toBe(401);
});
