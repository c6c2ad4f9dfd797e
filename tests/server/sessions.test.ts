/**
 * Ending sessions: logout, a password change (the user's own, an admin's reset), a ban and
 * deregistration end every console session of the user — every cookie issued before, on every
 * device — while the system access token keeps its own rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterAvailable, startCluster, type Cluster, type GatewayNode } from '../helpers/cluster.js';
import { forEachDatabase } from '../helpers/databases.js';
import { ApiClient, ROOT } from '../helpers/gateway.js';
import type { GatewayProcess } from '../helpers/process.js';
import { usersFixture } from '../helpers/users-fixture.js';
import { loginAs, PASSWORD } from '../helpers/users.js';

/** A second device holding a copy of the client's cookie (the stolen or forgotten one), or the same browser on another process. */
function copyOf(client: ApiClient, baseUrl = client.baseUrl): ApiClient {
  const copy = new ApiClient(baseUrl);
  copy.cookie = client.cookie;
  copy.userId = client.userId;
  return copy;
}

async function expectAlive(client: ApiClient): Promise<void> {
  const res = await client.get('/api/user/self');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.success).toBe(true);
}

async function expectEnded(client: ApiClient): Promise<void> {
  const res = await client.get('/api/user/self');
  expect(res.status).toBe(401);
  expect(res.body).toMatchObject({ success: false, code: 'auth.session_expired' });
}

await forEachDatabase('sessions end', (kind) => {
  const f = usersFixture(kind);

  it('logout ends every session of the user, on every device', async () => {
    const { username, client } = await f.newUser();
    const laptop = await loginAs(f.tg, username);
    const stolen = copyOf(client);
    await expectAlive(laptop);
    expect((await client.get('/api/user/logout')).body.success).toBe(true);
    await expectEnded(stolen);
    await expectEnded(laptop);
    // Logging out again with a dead cookie is harmless, and a new login works.
    expect((await stolen.get('/api/user/logout')).body.success).toBe(true);
    await expectAlive(await loginAs(f.tg, username));
  });

  it("the user's own password change ends the other sessions and renews this one", async () => {
    const { username, client } = await f.newUser();
    const phone = await loginAs(f.tg, username);
    const before = copyOf(client);
    const changed = await client.put('/api/user/self', { original_password: PASSWORD, password: 'new-secret-9' });
    expect(changed.body.success, changed.body.message).toBe(true);
    await expectEnded(phone);
    await expectEnded(before);
    await expectAlive(client);
    // A change of the display name only ends nothing.
    const renamed = await client.put('/api/user/self', { display_name: 'Renamed' });
    expect(renamed.body.success).toBe(true);
    const copy = copyOf(client);
    await expectAlive(copy);
  });

  it("an admin's password reset ends the user's sessions; other edits do not", async () => {
    const { id, username, client } = await f.newUser();
    expect((await f.admin.put('/api/user/', { id, display_name: 'Edited' })).body.success).toBe(true);
    await expectAlive(client);
    expect((await f.admin.put('/api/user/', { id, password: 'admin-set-77' })).body.success).toBe(true);
    await expectEnded(client);
    await expectAlive(await loginAs(f.tg, username, 'admin-set-77'));
  });

  it('an admin setting their own password keeps this session and ends the others', async () => {
    const other = await loginAs(f.tg, (await f.row(f.admin2.userId!)).username);
    const res = await f.admin2.put('/api/user/', { id: f.admin2.userId, password: 'own-new-pass-1' });
    expect(res.body.success, res.body.message).toBe(true);
    await expectAlive(f.admin2);
    await expectEnded(other);
  });

  it('a ban ends the sessions; lifting it revives none of them', async () => {
    const { id, username, client } = await f.newUser();
    expect((await f.admin.post('/api/user/manage', { id, action: 'disable' })).body.success).toBe(true);
    await expectEnded(client);
    expect((await f.admin.post('/api/user/manage', { id, action: 'enable' })).body.success).toBe(true);
    await expectEnded(client);
    await expectAlive(await loginAs(f.tg, username));
  });

  it('deleting the account (by an admin or the user) ends its sessions', async () => {
    const byAdmin = await f.newUser();
    expect((await f.admin.delete(`/api/user/${byAdmin.id}`)).body.success).toBe(true);
    await expectEnded(byAdmin.client);

    const bySelf = await f.newUser();
    const other = await loginAs(f.tg, bySelf.username);
    expect((await bySelf.client.delete('/api/user/self')).body.success).toBe(true);
    await expectEnded(other);
  });

  it('the access token outlives logout and password changes, but not a ban', async () => {
    const { id, client } = await f.newUser();
    const token: string = (await client.get('/api/user/token')).body.data;
    const api = new ApiClient(f.tg.url);
    api.headers = { authorization: token };
    api.userId = id;
    await expectAlive(api);
    expect((await client.get('/api/user/logout')).body.success).toBe(true);
    expect((await f.admin.put('/api/user/', { id, password: 'admin-set-88' })).body.success).toBe(true);
    await expectAlive(api);
    expect((await f.admin.post('/api/user/manage', { id, action: 'disable' })).body.success).toBe(true);
    const banned = await api.get('/api/user/self');
    expect(banned.body).toMatchObject({ success: false, code: 'auth.user_banned' });
  });
});

// Two gateway processes on one PostgreSQL database and one Redis: a session ended through one is
// refused by the other at once (each request reads the user's epoch from the shared database).
const clusterReady = await clusterAvailable('postgres');

describe.skipIf(!clusterReady)('sessions end on every process (PostgreSQL + Redis)', () => {
  let cluster: Cluster<GatewayNode>;
  let a: GatewayProcess;
  let b: GatewayProcess;
  let root: ApiClient;
  let seq = 0;

  beforeAll(async () => {
    cluster = await startCluster('postgres', ['master', 'slave'], { inProcess: true });
    [a, b] = cluster.nodes as [GatewayProcess, GatewayProcess];
    root = new ApiClient(a.url);
    expect((await root.post('/api/setup', { ...ROOT, confirmPassword: ROOT.password })).body.success).toBe(true);
    expect((await root.login(ROOT.username, ROOT.password)).body.success).toBe(true);
  }, 60_000);

  afterAll(async () => {
    await cluster?.stop();
  });

  /** A new user logged in on both processes: one session made by each. */
  async function userOnBoth(): Promise<{ id: number; onA: ApiClient; onB: ApiClient }> {
    const username = `cl${++seq}`;
    const created = await root.post('/api/user/', { username, password: PASSWORD });
    expect(created.body.success, created.body.message).toBe(true);
    const onA = new ApiClient(a.url);
    const onB = new ApiClient(b.url);
    expect((await onA.login(username, PASSWORD)).body.success).toBe(true);
    expect((await onB.login(username, PASSWORD)).body.success).toBe(true);
    // Each cookie is good on the other process too.
    await expectAlive(copyOf(onA, b.url));
    await expectAlive(copyOf(onB, a.url));
    return { id: created.body.data.id, onA, onB };
  }

  it('logout on one process ends the sessions the other made and checks', async () => {
    const { onA, onB } = await userOnBoth();
    const sameBrowserOnA = copyOf(onB, a.url);
    expect((await onB.get('/api/user/logout')).body.success).toBe(true);
    await expectEnded(onA);
    await expectEnded(sameBrowserOnA);
  });

  it('a password change on one process ends the sessions on the other', async () => {
    const { onA, onB } = await userOnBoth();
    expect((await onA.put('/api/user/self', { original_password: PASSWORD, password: 'moved-on-42' })).body.success).toBe(true);
    await expectEnded(onB);
    await expectAlive(copyOf(onA, b.url));
  });

  it('an admin reset, a ban and a deletion on one process end the sessions on the other', async () => {
    const reset = await userOnBoth();
    expect((await root.put('/api/user/', { id: reset.id, password: 'admin-set-55' })).body.success).toBe(true);
    await expectEnded(reset.onB);

    const banned = await userOnBoth();
    expect((await root.post('/api/user/manage', { id: banned.id, action: 'disable' })).body.success).toBe(true);
    await expectEnded(banned.onB);

    const deleted = await userOnBoth();
    const rootOnB = copyOf(root, b.url);
    expect((await rootOnB.delete(`/api/user/${deleted.id}`)).body.success).toBe(true);
    await expectEnded(deleted.onA);
  });
});
