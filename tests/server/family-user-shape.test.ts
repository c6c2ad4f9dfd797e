/**
 * The users page of the family's console, field by field: every field its user objects carry (the
 * fixture lists them with their JSON types) is in ours with that type, on every database — absent
 * times and DeletedAt null, never 0 (the console tests `DeletedAt !== null` to hide a row's actions,
 * and shows "-" only for a null time). Our own names (create_time, last_use_time) stay beside.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { setupRoot, startTestGateway, type ApiClient, type TestGateway } from '../helpers/gateway.js';
import { loginAs, PASSWORD } from '../helpers/users.js';
import { createUser } from '../../server/users/repository.js';

const FAMILY = JSON.parse(readFileSync(new URL('../fixtures/family/user.json', import.meta.url), 'utf8')) as {
  fields: Record<string, string>;
};

const typeOf = (v: unknown) => (v === null ? 'null' : typeof v);

function expectFamilyShape(user: Record<string, unknown>): void {
  for (const [field, types] of Object.entries(FAMILY.fields)) {
    expect(types.split('|'), `${field} = ${JSON.stringify(user[field])}`).toContain(typeOf(user[field]));
  }
  for (const secret of ['password', 'access_token', 'session_epoch', 'deleted_at']) expect(user).not.toHaveProperty(secret);
}

await forEachDatabase('the family users page', (kind) => {
  let tg: TestGateway;
  let root: ApiClient;
  let aliceId: number;
  let bobId: number;

  beforeAll(async () => {
    tg = await startTestGateway(kind);
    root = await setupRoot(tg);
    const { db, dbKind } = tg.gateway.ctx;
    aliceId = await createUser(db, dbKind, { username: 'alice', password: PASSWORD });
    bobId = await createUser(db, dbKind, { username: 'bob', password: PASSWORD });
  });
  afterAll(async () => tg?.close());

  const listed = async (id: number) => {
    const res = await root.get('/api/user/?p=1&page_size=100');
    expect(res.body.success).toBe(true);
    return (res.body.data.items as Record<string, unknown>[]).find((u) => u.id === id)!;
  };

  it('sends a live user who never signed in with null DeletedAt and last_login_at, and created_at', async () => {
    const alice = await listed(aliceId);
    expectFamilyShape(alice);
    expect(alice.DeletedAt).toBeNull();
    expect(alice.last_login_at).toBeNull();
    expect(alice.created_at).toBe(alice.create_time);
    expect(alice.created_at as number).toBeGreaterThan(Date.now() / 1000 - 600);
    expectFamilyShape((await root.get(`/api/user/${aliceId}`)).body.data);
    expectFamilyShape((await root.get('/api/user/search?keyword=alice')).body.data.items[0]);
  });

  it('sets last_login_at when the user signs in, and the user sees it on their own object', async () => {
    const before = Math.floor(Date.now() / 1000);
    const alice = await loginAs(tg, 'alice');
    const self = (await alice.get('/api/user/self')).body.data;
    expectFamilyShape(self);
    expect(self.last_login_at).toBeGreaterThanOrEqual(before);
    expect((await listed(aliceId)).last_login_at).toBe(self.last_login_at);
  });

  it('sends a deregistered user with DeletedAt as an ISO time, as gorm does', async () => {
    expect((await root.post('/api/user/manage', { id: bobId, action: 'delete' })).body.success).toBe(true);
    const bob = await listed(bobId);
    expectFamilyShape(bob);
    expect(bob.DeletedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(Math.abs(Date.parse(bob.DeletedAt as string) - Date.now())).toBeLessThan(600_000);
  });

  it('answers the group list with and without the trailing slash', async () => {
    const withSlash = (await root.get('/api/group/')).body;
    expect(withSlash.success).toBe(true);
    expect((await root.get('/api/group')).body).toEqual(withSlash);
    expect((await (await loginAs(tg, 'alice')).get('/api/group')).body.success).toBe(false);
  });
});
