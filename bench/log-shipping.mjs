// bench/log-shipping: how fast LOG_SQL_DSN's shipper moves log rows from the main database to the
// log database, and how long each round holds the main database's writer.
//
//   node --import tsx bench/log-shipping.mjs                                  # SQLite → SQLite
//   SHIP_BENCH_LOG_DSN=postgres://postgres@127.0.0.1:5432/ship_bench node --import tsx bench/log-shipping.mjs
//
// Fills the main (SQLite) database's `logs` with SHIP_BENCH_ROWS rows (default 200,000: a backlog,
// as when an installation with history turns LOG_SQL_DSN on), then ships them all
// (server/logs/shipper.ts) and prints rows/s, with the baseline in the same run: the same rows
// inserted into the log database alone, in the same batches, with no delete on the other side. The
// round's share of the main database is its outbox delete; its median and worst times are printed.
// SHIP_BENCH_LOG_DSN names a PostgreSQL database the bench creates and drops.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { migrate, openDb } from '../server/db/index.js';
import { setLogsOutbox } from '../server/logs/outbox.js';
import { LogShipper, SHIP_BATCH } from '../server/logs/shipper.js';
import { OptionStore } from '../server/options/store.js';
import { pgAdmin } from './lib.mjs';

const ROWS = Number(process.env.SHIP_BENCH_ROWS ?? 200_000);
const logDsn = process.env.SHIP_BENCH_LOG_DSN ?? '';
const dir = mkdtempSync(join(tmpdir(), 'gw-ship-bench-'));
const now = Math.floor(Date.now() / 1000);

/** Drops the log bench database, and creates it afresh when `create`. */
const pgDatabase = (create) =>
  pgAdmin(logDsn, 'SHIP_BENCH_LOG_DSN', async (admin, name) => {
    await admin.query(`drop database if exists ${name} with (force)`);
    if (create) await admin.query(`create database ${name}`);
  });

async function logTarget(label) {
  if (!logDsn) return { kind: 'sqlite', path: join(dir, `${label}.db`) };
  await pgDatabase(true);
  return { kind: 'postgres', url: logDsn };
}

async function fill(db) {
  await sql`
    with recursive n(i) as (select 1 union all select i + 1 from n where i < ${ROWS})
    insert into logs (user_id, created_at, type, content, username, token_name, token_id, model_name, quota,
      prompt_tokens, completion_tokens, use_time, is_stream, channel_id, "group", ip, other)
    select 1 + i % 1000, ${now - 86_400} + i % 86_400, 2, '', 'user' || (i % 1000), 'key', i % 3000,
      'model-' || (i % 50), 100 + i % 900, 20, 80, 1, 0, 1 + i % 20, 'default', '', '{"request_id":"bench"}'
    from n`.execute(db);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const main = await openDb({ kind: 'sqlite', path: join(dir, 'main.db') });
await migrate(main);
const options = new OptionStore(main.db);
await options.reload();
// As the gateway does at start with LOG_SQL_DSN: the main `logs` is an outbox, without search indexes.
await setLogsOutbox(main.db, main.kind, options, true);
await fill(main.db);

// Baseline: the rows copied into an empty log database, in the shipper's batches, nothing deleted.
const baseTarget = await logTarget('baseline');
const base = await openDb(baseTarget);
await migrate(base);
let started = performance.now();
for (let from = 0; ;) {
  const rows = await main.db.selectFrom('logs').selectAll().where('id', '>', from).orderBy('id').limit(SHIP_BATCH).execute();
  if (rows.length === 0) break;
  await base.db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += 200)
      await trx
        .insertInto('logs')
        .values(rows.slice(i, i + 200))
        .execute();
  });
  from = rows[rows.length - 1].id;
}
const baseMs = performance.now() - started;
await base.close();
if (logDsn) await pgDatabase(false);

// The shipper, timing each round's outbox delete on the main database.
const logs = await openDb(await logTarget('logs'));
await migrate(logs);
const shipper = new LogShipper(main.db, logs.db, logs.kind);
const deletes = [];
const original = main.db.transaction.bind(main.db);
main.db.transaction = () => {
  const builder = original();
  return {
    execute: async (fn) => {
      const t = performance.now();
      try {
        return await builder.execute(fn);
      } finally {
        deletes.push(performance.now() - t);
      }
    },
  };
};
started = performance.now();
const moved = await shipper.ship();
const shipMs = performance.now() - started;
const left = (
  await main.db
    .selectFrom('logs')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst()
).n;
const arrived = (
  await logs.db
    .selectFrom('logs')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst()
).n;

const rate = (ms) => Math.round((ROWS / ms) * 1000).toLocaleString('en');
console.log(`log shipping, ${ROWS.toLocaleString('en')} rows, SQLite → ${logs.kind}, batches of ${SHIP_BATCH}`);
console.log(`  baseline (copy only):      ${rate(baseMs)} rows/s`);
console.log(`  shipper (copy + delete):   ${rate(shipMs)} rows/s  (moved ${moved}, left ${left}, arrived ${arrived})`);
console.log(`  outbox delete per round:   median ${median(deletes).toFixed(1)} ms, worst ${Math.max(...deletes).toFixed(1)} ms`);
console.log(`  one tick (500 ms budget) moves about ${Math.round((ROWS / shipMs) * 500).toLocaleString('en')} rows`);

await logs.close();
await main.close();
if (logDsn) await pgDatabase(false);
rmSync(dir, { recursive: true, force: true });
if (Number(left) !== 0 || Number(arrived) !== ROWS) process.exitCode = 1;
