/**
 * LOG_SQL_DSN: log rows written with their quota movement in the main database, then shipped to a
 * database of their own exactly once; the console reads them there; a log database that is away
 * loses nothing; a log database holding another gateway's rows is refused; cleanup reaches both.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';
import { buildGateway } from '../../server/app.js';
import type { Db } from '../../server/db/index.js';
import type { DbKind } from '../../server/db/dsn.js';
import { createTestDatabase, forEachDatabase, logDatabaseBeside, type DbName } from '../helpers/databases.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { moneyOf } from '../helpers/money.js';

await forEachDatabase('log rows in their own database', (kind) => {
  const logs: DbName = logDatabaseBeside(kind);
  let f: RelayFixture;
  const ctx = () => f.tg.gateway.ctx;
  const mainRows = async () => (await ctx().db.selectFrom('logs').select('id').execute()).length;
  const chat = (content = 'hi') =>
    f.openai().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] });

  beforeAll(async () => {
    f = await startRelayFixture(kind, { logs });
  });
  afterAll(async () => f?.close());

  it(`ships the rows of served calls from ${kind} to ${logs} by itself, and the console reads them there`, async () => {
    await Promise.all(Array.from({ length: 8 }, (_, i) => chat(`call ${i}`)));
    await ctx().journal.flush();
    // No explicit shipping: the jobs leader ships every second.
    for (let i = 0; i < 50 && (await mainRows()) > 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await mainRows()).toBe(0);
    const page = (await f.user.get('/api/log/self?p=1&page_size=20&type=2')).body.data;
    expect(page.items).toHaveLength(8);
    const m = await moneyOf(f, f.userId, f.tokenId);
    expect(m.consume).toHaveLength(8);
    const stat = (await f.user.get('/api/log/self/stat?type=2')).body.data;
    expect(stat.quota).toBe(m.logged);
    expect(stat.rpm).toBe(8);
    // The detail of a shipped row is found by the id it was written with.
    const extend = await f.user.get(`/api/log/extend/${page.items[0].id}`);
    expect(extend.body).toMatchObject({ success: true });
  });

  it('ships a row exactly once when a copy already reached the log database (a crash before the outbox delete)', async () => {
    await chat('copied early');
    await ctx().journal.flush();
    const row = await ctx().db.selectFrom('logs').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    await ctx().logDb.insertInto('logs').values(row).execute();
    await f.flush();
    expect(await mainRows()).toBe(0);
    const copies = await ctx().logDb.selectFrom('logs').select('id').where('id', '=', row.id).execute();
    expect(copies).toHaveLength(1);
    const m = await moneyOf(f, f.userId, f.tokenId);
    expect(m.consume.filter((l) => l.id === row.id)).toHaveLength(1);
  });

  it('keeps serving and billing while the log database refuses rows, and ships them once it takes them again', async () => {
    const before = await moneyOf(f, f.userId, f.tokenId);
    await sql`alter table logs rename to logs_away`.execute(ctx().logDb);
    try {
      await chat('while away');
      await chat('while away');
      await ctx().journal.flush();
      await expect(ctx().logShipper!.shipBatch()).rejects.toThrow();
      expect(await mainRows()).toBe(2);
    } finally {
      await sql`alter table logs_away rename to logs`.execute(ctx().logDb);
    }
    await f.flush();
    expect(await mainRows()).toBe(0);
    const after = await moneyOf(f, f.userId, f.tokenId);
    expect(after.consume).toHaveLength(before.consume.length + 2);
    // Logs sum to what the balance lost, the two calls made while the log database was away included.
    expect(after.logged - before.logged).toBe(before.user.quota - after.user.quota);
  });

  it('cleans up old rows in both databases', async () => {
    await chat('old one');
    await ctx().journal.flush();
    await f.flush();
    await chat('old, not shipped yet');
    await ctx().journal.flush();
    expect(await mainRows()).toBe(1);
    const cutoff = Math.floor(Date.now() / 1000) + 10;
    const res = await f.root.delete(`/api/log/?target_timestamp=${cutoff}`);
    expect(res.body).toMatchObject({ success: true });
    expect(res.body.data).toBeGreaterThanOrEqual(2);
    expect(await mainRows()).toBe(0);
    expect(await ctx().logDb.selectFrom('logs').select('id').where('created_at', '<', cutoff).execute()).toEqual([]);
  });

  it('refuses to start on a log database that holds another gateway database’s rows', async () => {
    const other = loadConfig({ LOG_LEVEL: 'silent', CONSOLE_DIR: '', HOST: '127.0.0.1', PORT: '0' });
    other.db = { kind: 'sqlite', path: ':memory:' };
    other.logDb = f.tg.logDatabase!.target;
    await expect(buildGateway(other)).rejects.toThrow(ConfigError);
    await expect(buildGateway(other)).rejects.toThrow(/LOG_SQL_DSN/);
  });
});

/** The indexes on `logs`, primary key aside: each as its definition (MySQL: its name). */
async function logIndexes(db: Db, kind: DbKind): Promise<string[]> {
  const query =
    kind === 'sqlite'
      ? sql<{
          name: string;
        }>`select sql as name from sqlite_master where type = 'index' and tbl_name = 'logs' and sql is not null`
      : kind === 'postgres'
        ? sql<{ name: string }>`select indexdef as name from pg_indexes where tablename = 'logs' and indexname <> 'logs_pkey'`
        : sql<{ name: string }>`select distinct index_name as name from information_schema.statistics
            where table_schema = database() and table_name = 'logs' and index_name <> 'PRIMARY'`;
  return (await query.execute(db)).rows.map((r) => r.name).sort();
}

await forEachDatabase('the main database’s logs table as an outbox', (kind) => {
  it('drops its search indexes while LOG_SQL_DSN is set and builds them again when it is not', async () => {
    const main = await createTestDatabase(kind);
    const logs = await createTestDatabase(logDatabaseBeside(kind));
    const start = async (withLogs: boolean) => {
      const config = loadConfig({ LOG_LEVEL: 'silent', CONSOLE_DIR: '', HOST: '127.0.0.1', PORT: '0' });
      config.db = main.target;
      config.logDb = withLogs ? logs.target : null;
      return buildGateway(config);
    };
    try {
      let gw = await start(false);
      const searchIndexes = await logIndexes(gw.ctx.db, kind);
      expect(searchIndexes).toHaveLength(8);
      if (kind !== 'mysql') {
        // Consume rows and rows of the default group stay out of the type and group indexes.
        expect(searchIndexes.find((d) => d.includes('logs_type_created'))).toMatch(/where .*type.* <> 2\b/i);
        expect(searchIndexes.find((d) => d.includes('logs_group_created'))).toMatch(/where .*group.* <> 'default'/i);
      }
      await gw.close();
      gw = await start(true);
      expect(await logIndexes(gw.ctx.db, kind)).toEqual([]);
      // A second start with LOG_SQL_DSN leaves the outbox as it is.
      await gw.close();
      gw = await start(true);
      expect(await logIndexes(gw.ctx.db, kind)).toEqual([]);
      await gw.close();
      gw = await start(false);
      expect(await logIndexes(gw.ctx.db, kind)).toEqual(searchIndexes);
      await gw.close();
    } finally {
      await main.drop();
      await logs.drop();
    }
  });
});

it('reads LOG_SQL_DSN in every SQL_DSN form plus sqlite:PATH, and ignores it when it names the main database', () => {
  expect(loadConfig({}).logDb).toBeNull();
  expect(loadConfig({ LOG_SQL_DSN: 'sqlite:/var/lib/gw/logs.db' }).logDb).toEqual({
    kind: 'sqlite',
    path: '/var/lib/gw/logs.db',
  });
  expect(loadConfig({ LOG_SQL_DSN: 'postgres://u@db:5432/logs' }).logDb).toEqual({
    kind: 'postgres',
    url: 'postgres://u@db:5432/logs',
  });
  expect(loadConfig({ LOG_SQL_DSN: 'root:pw@tcp(db:3306)/logs' }).logDb).toMatchObject({ kind: 'mysql', database: 'logs' });
  expect(loadConfig({ SQL_DSN: 'postgres://u@db/gw', LOG_SQL_DSN: 'postgres://u@db/gw' }).logDb).toBeNull();
  expect(() => loadConfig({ LOG_SQL_DSN: 'sqlite:' })).toThrow(/^LOG_SQL_DSN:/);
  expect(() => loadConfig({ LOG_SQL_DSN: 'oracle://x' })).toThrow(/^LOG_SQL_DSN:/);
});
