/**
 * The ground the user API tests stand on, on one database: root and two admins logged in, fresh
 * usernames, users created through the API and the users table read straight. `usersFixture`
 * registers the beforeAll that builds it and the afterAll that drops it.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import type { Selectable } from 'kysely';
import type { DbName } from './databases.js';
import { setupRoot, startTestGateway, type ApiClient, type TestGateway } from './gateway.js';
import { loginAs, PASSWORD } from './users.js';
import type { Db } from '../../server/db/index.js';
import type { UsersTable } from '../../server/db/types.js';

export interface UsersFixture {
  tg: TestGateway;
  root: ApiClient;
  admin: ApiClient;
  admin2: ApiClient;
  db(): Db;
  row(id: number): Promise<Selectable<UsersTable>>;
  userCount(): Promise<number>;
  /** A fresh username of at most 12 characters. */
  name(prefix?: string): string;
  /** Creates a user as `by` (password PASSWORD unless `body` says otherwise) and returns its id. */
  create(by: ApiClient, body: Record<string, unknown>): Promise<number>;
  /** Creates a user (through root) and returns a client logged in as them. */
  newUser(extra?: Record<string, unknown>): Promise<{ id: number; username: string; client: ApiClient }>;
}

export function usersFixture(kind: DbName): UsersFixture {
  let tg: TestGateway;
  let root: ApiClient;
  let seq = 0;

  const db = () => tg.gateway.ctx.db;
  const row = (id: number) => db().selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const userCount = async () =>
    Number(
      (
        await db()
          .selectFrom('users')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  const name = (prefix = 'u') => `${prefix}${++seq}`.slice(0, 12);

  async function create(by: ApiClient, body: Record<string, unknown>): Promise<number> {
    const res = await by.post('/api/user/', { password: PASSWORD, ...body });
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ success: true });
    return res.body.data.id as number;
  }

  async function newUser(extra: Record<string, unknown> = {}): Promise<{ id: number; username: string; client: ApiClient }> {
    const username = name();
    const id = await create(root, { username, ...extra });
    return { id, username, client: await loginAs(tg, username) };
  }

  /** The gateway and the clients are added by the beforeAll below, before any test reads them. */
  const fixture = { db, row, userCount, name, create, newUser } as UsersFixture;

  beforeAll(async () => {
    tg = await startTestGateway(kind);
    root = await setupRoot(tg);
    const a1 = name('adm');
    const a2 = name('adm');
    await create(root, { username: a1, role: 10 });
    await create(root, { username: a2, role: 10 });
    const admin = await loginAs(tg, a1);
    const admin2 = await loginAs(tg, a2);
    Object.assign(fixture, { tg, root, admin, admin2 });
  });
  afterAll(async () => tg?.close());
  return fixture;
}
