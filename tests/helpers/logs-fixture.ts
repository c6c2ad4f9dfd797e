/**
 * The ground the log API tests stand on, on one database: root, an admin (boss), alice and bob
 * logged in, two channels, alice's token, and eight log rows r1 … r8 (the two recent ones written
 * through the journal) with two prompt/completion extends. `logsFixture` registers
 * the beforeAll that builds it and the afterAll that drops it.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import type { Insertable } from 'kysely';
import type { DbName } from './databases.js';
import { setupRoot, startTestGateway, type ApiClient, type TestGateway } from './gateway.js';
import { loginAs, PASSWORD } from './users.js';
import { createUser } from '../../server/users/repository.js';
import { insertWithId } from '../../server/db/helpers.js';
import { addLogTotals } from '../../server/logs/totals.js';
import { nowSeconds, type Db } from '../../server/db/index.js';
import type { LogsTable } from '../../server/db/types.js';
import type { LogListPage } from '../../server/logs/schemas.js';

export interface LogsFixture {
  tg: TestGateway;
  root: ApiClient;
  admin: ApiClient;
  alice: ApiClient;
  bob: ApiClient;
  aliceId: number;
  bobId: number;
  chA: number;
  chB: number;
  aliceTokenId: number;
  /** Alice's token key, without `sk-`. */
  aliceKey: string;
  /** Row ids by name (r1 … r8). */
  ids: Record<string, number>;
  /** A day-old base time, so the recent rows (rpm / tpm) stand apart. */
  T: number;
  db(): Db;
  /** Inserts a log row and remembers its id under `name`. */
  insertLog(name: string, row: Insertable<LogsTable>): Promise<void>;
  /** GETs `path` and returns `data` of a successful answer. */
  data<T>(client: ApiClient, path: string): Promise<T>;
  list(client: ApiClient, path: string): Promise<LogListPage>;
  /** The row names of a page, in its order. */
  names(page: LogListPage): Array<string | undefined>;
}

export function logsFixture(kind: DbName): LogsFixture {
  let tg: TestGateway;
  let root: ApiClient;
  let admin: ApiClient;
  let alice: ApiClient;
  let bob: ApiClient;
  let aliceId: number;
  let bobId: number;
  let chA: number;
  let chB: number;
  const aliceKey = 'A'.repeat(44) + 'key1';
  let aliceTokenId: number;
  const ids: Record<string, number> = {};
  const T = nowSeconds() - 100_000;

  const db = () => tg.gateway.ctx.db;

  async function insertLog(name: string, row: Insertable<LogsTable>): Promise<void> {
    // The row and its totals, as recordLog writes them (this needs the row's id back).
    ids[name] = await insertWithId(db(), tg.gateway.ctx.dbKind, 'logs', row);
    await addLogTotals(db(), tg.gateway.ctx.dbKind, [row]);
  }

  async function data<T>(client: ApiClient, path: string): Promise<T> {
    const res = await client.get(path);
    expect(res.status).toBe(200);
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ success: true });
    return res.body.data as T;
  }

  const list = (client: ApiClient, path: string) => data<LogListPage>(client, path);
  const names = (page: LogListPage) => page.items.map((i) => Object.entries(ids).find(([, id]) => id === i.id)?.[0]);

  /** The clients and ids are added by the beforeAll below, before any test reads them. */
  const fixture = { aliceKey, ids, T, db, insertLog, data, list, names } as LogsFixture;

  beforeAll(async () => {
    tg = await startTestGateway(kind);
    root = await setupRoot(tg);
    const { db: database, dbKind } = tg.gateway.ctx;
    aliceId = await createUser(database, dbKind, { username: 'alice', password: PASSWORD });
    bobId = await createUser(database, dbKind, { username: 'bob', password: PASSWORD, group: 'vip' });
    await createUser(database, dbKind, { username: 'boss', password: PASSWORD, role: 10 });
    alice = await loginAs(tg, 'alice');
    bob = await loginAs(tg, 'bob');
    admin = await loginAs(tg, 'boss');

    chA = await insertWithId(database, dbKind, 'channels', { name: 'channel-a', key: 'k-a', models: 'gpt-4o' });
    chB = await insertWithId(database, dbKind, 'channels', { name: 'channel-b', key: 'k-b', models: 'gpt-4o-mini' });
    await tg.gateway.ctx.channels.reload();
    aliceTokenId = await insertWithId(database, dbKind, 'tokens', { user_id: aliceId, key: aliceKey, name: 'alpha' });

    const adminOther = (ch: number) => JSON.stringify({ model_ratio: 1.25, frt: 300, admin_info: { use_channel: [ch] } });
    const common = { content: '模型倍率 1.25', ip: '10.0.0.1' };
    await insertLog('r1', {
      ...common,
      user_id: aliceId,
      username: 'alice',
      created_at: T + 10,
      type: 2,
      token_name: 'alpha',
      token_id: aliceTokenId,
      model_name: 'gpt-4o',
      channel_id: chA,
      group: 'default',
      quota: 100,
      prompt_tokens: 10,
      completion_tokens: 5,
      use_time: 3,
      is_stream: 1,
      other: adminOther(chA),
    });
    await insertLog('r2', {
      ...common,
      user_id: aliceId,
      username: 'alice',
      created_at: T + 20,
      type: 2,
      token_name: 'alpha',
      token_id: aliceTokenId,
      model_name: 'gpt-4o-mini',
      channel_id: chB,
      group: 'default',
      quota: 200,
      prompt_tokens: 20,
      completion_tokens: 10,
      other: adminOther(chB),
    });
    // Same second as r2: the larger id comes first.
    await insertLog('r3', {
      user_id: aliceId,
      username: 'alice',
      created_at: T + 20,
      type: 5,
      content: 'upstream error',
      token_name: 'beta',
      model_name: 'gpt-4o',
      channel_id: chA,
      group: 'default',
      other: 'not json {"admin_info":',
    });
    // Bob's token carries the same name as Alice's.
    await insertLog('r4', {
      ...common,
      user_id: bobId,
      username: 'bob',
      created_at: T + 30,
      type: 2,
      token_name: 'alpha',
      model_name: 'gpt-4o',
      channel_id: chB,
      group: 'vip',
      quota: 400,
      prompt_tokens: 40,
      completion_tokens: 20,
      other: adminOther(chB),
    });
    await insertLog('r5', {
      user_id: bobId,
      username: 'bob',
      created_at: T + 40,
      type: 1,
      content: '充值 10 美元',
      quota: 5_000_000,
    });

    const now = nowSeconds();
    await insertLog('r8', {
      ...common,
      user_id: aliceId,
      username: 'alice',
      created_at: now - 200,
      type: 2,
      token_name: 'alpha',
      token_id: aliceTokenId,
      model_name: 'claude-3-haiku',
      channel_id: chA,
      quota: 1000,
      prompt_tokens: 1,
      completion_tokens: 1,
      other: JSON.stringify({ admin_info: { use_channel: [chA] } }),
    });
    // The two recent rows go through the journal (the relay's batched writes).
    const journal = tg.gateway.ctx.journal;
    journal.log({
      ...common,
      user_id: aliceId,
      username: 'alice',
      created_at: now - 10,
      type: 2,
      token_name: 'alpha',
      token_id: aliceTokenId,
      model_name: 'gpt-4o',
      channel_id: chA,
      group: 'default',
      quota: 50,
      prompt_tokens: 7,
      completion_tokens: 3,
      other: adminOther(chA),
    });
    journal.log({
      ...common,
      user_id: bobId,
      username: 'bob',
      created_at: now - 5,
      type: 2,
      token_name: 'alpha',
      model_name: 'gpt-4o-mini',
      channel_id: chB,
      group: 'vip',
      quota: 60,
      prompt_tokens: 11,
      completion_tokens: 4,
      other: adminOther(chB),
    });
    await journal.flush();
    for (const [name, at] of [
      ['r6', now - 10],
      ['r7', now - 5],
    ] as const) {
      const row = await db().selectFrom('logs').select('id').where('created_at', '=', at).executeTakeFirstOrThrow();
      ids[name] = row.id;
    }
    await db()
      .insertInto('log_extends')
      .values([
        { log_id: ids.r1!, prompt: 'hello from alice', completion: 'hi alice' },
        { log_id: ids.r4!, prompt: 'hello from bob', completion: 'hi bob' },
      ])
      .execute();
    Object.assign(fixture, { tg, root, admin, alice, bob, aliceId, bobId, chA, chB, aliceTokenId });
  });
  afterAll(async () => tg?.close());
  return fixture;
}
