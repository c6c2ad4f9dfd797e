// bench/logs: the log list and stat queries, the dashboard and the channel statistics at scale, on
// SQLite or PostgreSQL.
//
//   node --import tsx bench/logs.mjs                                   # SQLite, 2M rows
//   LOGS_BENCH_ROWS=10000000 node --import tsx bench/logs.mjs          # SQLite, 10M rows
//   LOGS_BENCH_DSN=postgres://postgres@127.0.0.1:5432/logs_bench node --import tsx bench/logs.mjs
//
// Builds the database through the app's own migrations and fills `logs` with ROWS rows spread over
// the last 30 days (1 000 users with 3 keys each, each key on one of 50 models served by two of 20
// channels; 90 % consume rows) in bulk SQL (a recursive CTE on SQLite, generate_series on
// PostgreSQL) with the indexes dropped and rebuilt after, then derives the hourly totals the app
// keeps beside the rows. It then times what the routes call: the first page of every filter of
// /api/log (server/logs/list-repository.ts), deep pages, logStat over one day and over all time,
// the dashboard (/api/data, /api/data/self, /api/data/users) and the channel statistics
// (server/logs/quota-data.ts): the median of RUNS runs after a warm-up (one run when a query takes
// over a second). Target: every query under 100 ms. The "(before)" lines sum the stat over the rows
// alone, as logStat did before log_totals, for comparison; they are not held to the target.
// Last, the cleanup of the oldest day is timed once (DELETE /api/log/, batches of about 50 ms).
//
// LOGS_BENCH_DSN names a PostgreSQL database the bench creates (on the same server, through its
// `postgres` database) and drops at the end. LOGS_BENCH_KEEP=1 keeps the filled database (SQLite:
// LOGS_BENCH_DB=/path/file.db) and reuses it on the next run; the cleanup is then skipped.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { migrate, openDb } from '../server/db/index.js';
import { backfill as backfillTotals } from '../server/db/migrations/0013_log_totals.js';
import { backfill as backfillRollups } from '../server/db/migrations/0014_quota_data_rollups.js';
import { backfill as backfillModelHours } from '../server/db/migrations/0015_quota_data_model_hours.js';
import { listLogs, logStat } from '../server/logs/list-repository.js';
import { channelUse, hourlyUsage, hourlyUsageByUser } from '../server/logs/quota-data.js';
import { deleteLogsBefore } from '../server/logs/repository.js';
import { toLogItem } from '../server/logs/view.js';
import { pgAdmin } from './lib.mjs';

const ROWS = Number(process.env.LOGS_BENCH_ROWS ?? 2_000_000);
const USERS = 1000;
const MODELS = 50;
const CHANNELS = 20;
const DAYS = 30;
const RUNS = 5;
const TARGET_MS = 100;
const CHUNK = 1_000_000;

const dsn = process.env.LOGS_BENCH_DSN ?? '';
const kind = dsn ? 'postgres' : 'sqlite';
const keep = process.env.LOGS_BENCH_KEEP === '1' || Boolean(process.env.LOGS_BENCH_DB);
const dir = kind === 'sqlite' && !process.env.LOGS_BENCH_DB ? mkdtempSync(join(tmpdir(), 'gw-logs-bench-')) : null;
const path = process.env.LOGS_BENCH_DB ?? (dir ? join(dir, 'logs.db') : '');
const now = Math.floor(Date.now() / 1000);
const first = now - DAYS * 86_400;

async function open() {
  if (kind === 'sqlite') return openDb({ kind, path });
  const exists = await pgAdmin(dsn, 'LOGS_BENCH_DSN', async (admin, name) => {
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount && !keep) await admin.query(`drop database ${name} with (force)`);
    if (!found.rowCount || !keep) await admin.query(`create database ${name}`);
    return found.rowCount > 0 && keep;
  });
  if (!exists) console.log(`created database ${new URL(dsn).pathname.slice(1)}`);
  return openDb({ kind, url: dsn });
}

/**
 * One chunk of rows [from, to) as INSERT … SELECT: the columns are derived from the row number by
 * an LCG, so both databases hold the same rows.
 */
function fillChunk(from, to) {
  const seq =
    kind === 'sqlite'
      ? sql`seq(i) as (select ${sql.lit(from)} union all select i + 1 from seq where i < ${sql.lit(to - 1)})`
      : sql`seq(i) as (select generate_series(${sql.lit(from)}::bigint, ${sql.lit(to - 1)}::bigint))`;
  const pad = (expr, width) =>
    kind === 'sqlite' ? sql`printf('%0${sql.raw(String(width))}d', ${expr})` : sql`lpad((${expr})::text, ${sql.lit(width)}, '0')`;
  return sql`
    with ${kind === 'sqlite' ? sql`recursive ` : sql``}${seq},
    a as (select i, (i * 1103515245 + 12345) % 2147483648 as r1 from seq),
    b as (select i, r1, (r1 * 1103515245 + 12345) % 2147483648 as r2 from a),
    c as (
      select i, r1, r2, 1 + r1 % ${sql.lit(USERS)} as u, r2 % 3 as k,
        case when r2 % 100 < 90 then 2 when r2 % 100 < 97 then 5 when r2 % 100 < 99 then 1 else 3 end as t
      from b
    ),
    d as (select c.*, (u * 7 + k * 11) % ${sql.lit(MODELS)} as m from c),
    e as (
      select d.*, 1 + (m + ((r2 / 7) % 2) * 10) % ${sql.lit(CHANNELS)} as ch,
        case when t = 2 then (r1 / 1000) % 4000 else 0 end as p,
        case when t = 2 then (r2 / 1000) % 1000 else 0 end as q
      from d
    )
    insert into logs (user_id, created_at, type, content, username, token_name, token_id, model_name, quota,
      prompt_tokens, completion_tokens, use_time, is_stream, channel_id, "group", ip, other)
    select u, ${sql.lit(first)} + i * ${sql.lit(DAYS * 86_400)} / ${sql.lit(ROWS)}, t,
      case when t = 2 then '模型倍率 0.75，补全倍率 4，分组倍率 1' else 'upstream error' end,
      'user' || ${pad(sql`u`, 4)}, 'key-' || u || '-' || k, u * 3 + k, 'model-' || ${pad(sql`m`, 2)},
      (p + q * 4) * 3 / 4, p, q, r2 % 20, r1 % 2, ch, case when u % 5 = 0 then 'vip' else 'default' end, '10.0.0.1',
      '{"model_ratio":0.75,"group_ratio":1,"completion_ratio":4,"frt":350,"admin_info":{"use_channel":[' || ch || ']}}'
    from e`;
}

/** The indexes of `logs` besides its primary key, as the statements that rebuild them. */
async function logIndexes(db) {
  if (kind === 'sqlite') {
    const { rows } =
      await sql`select name, sql from sqlite_master where type = 'index' and tbl_name = 'logs' and sql is not null`.execute(db);
    return rows;
  }
  const { rows } =
    await sql`select indexname as name, indexdef as sql from pg_indexes where tablename = 'logs' and indexname not like '%pkey'`.execute(
      db,
    );
  return rows;
}

async function fill(db) {
  const started = performance.now();
  if (kind === 'sqlite') {
    // Loading only: a crash mid-fill just means filling again.
    await sql`pragma journal_mode = OFF`.execute(db);
    await sql`pragma synchronous = OFF`.execute(db);
    await sql`pragma cache_size = -1000000`.execute(db);
  }
  const indexes = await logIndexes(db);
  for (const { name } of indexes) await sql`drop index ${sql.ref(name)}`.execute(db);
  for (let from = 0; from < ROWS; from += CHUNK) {
    await fillChunk(from, Math.min(ROWS, from + CHUNK)).execute(db);
    process.stdout.write(`\rfilling: ${Math.min(ROWS, from + CHUNK).toLocaleString('en')} rows`);
  }
  process.stdout.write(`, indexes`);
  for (const index of indexes) await sql.raw(index.sql).execute(db);
  process.stdout.write(`, hourly totals`);
  // What the UsageWriter (server/logs/hourly-totals.ts) keeps for the consume rows.
  await sql`
    insert into quota_data (user_id, username, model_name, channel_id, created_at, token_used, count, quota)
    select user_id, min(username), model_name, channel_id, created_at / 3600 * 3600,
      sum(prompt_tokens + completion_tokens), count(*), sum(quota)
    from logs where type = 2 group by user_id, model_name, channel_id, created_at / 3600`.execute(db);
  await backfillRollups(db);
  await backfillModelHours(db);
  process.stdout.write(`, log totals`);
  await backfillTotals(db, kind);
  if (kind === 'sqlite') await sql`pragma journal_mode = WAL`.execute(db);
  else await sql`vacuum analyze`.execute(db);
  console.log(` in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

async function median(fn) {
  let t = performance.now();
  await fn();
  const times = [];
  if (performance.now() - t > 1000) times.push(performance.now() - t);
  const runs = times.length ? 1 : RUNS;
  for (let i = 0; i < runs; i++) {
    t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const reused = kind === 'sqlite' ? keep && existsSync(path) : false;
const handle = await open();
const { db } = handle;
const t0 = performance.now();
await migrate(handle);
console.log(`migrations: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
// What autovacuum would soon do after a migration's backfill: statistics for the planner.
if (kind === 'postgres') await sql`analyze`.execute(db);
const count = async () =>
  Number(
    (
      await db
        .selectFrom('logs')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
if (!reused && (await count()) === 0) await fill(db);
console.log(`logs: ${(await count()).toLocaleString('en')} rows, ${kind === 'sqlite' ? `SQLite ${path}` : `PostgreSQL ${dsn}`}`);

// The console's default range: from the start of a day to one hour ahead (here: the last day).
const dayStart = now - 86_400;
const dayEnd = now + 3600;
const weekStart = now - 7 * 86_400;
const midUser = USERS / 2;
const username = (u) => `user${String(u).padStart(4, '0')}`;
const model = (m) => `model-${String(m).padStart(2, '0')}`;
const list =
  (filter, p = 1, size = 10) =>
  async () => {
    const slice = await listLogs(db, kind, filter, size, (p - 1) * size);
    slice.rows.map((row) => toLogItem(row, true, () => 'channel'));
    return { total: slice.total, capped: slice.capped };
  };
const stat = (filter) => () => logStat({ rows: db, rowsKind: kind, totals: db }, filter, now);
/** The stat's quota summed over the rows alone: what logStat cost before log_totals. */
const rowsStat = (f) => async () => {
  let q = db
    .selectFrom('logs')
    .select((eb) => eb.fn.sum('quota').as('quota'))
    .where('type', '=', 2);
  if (f.userId) q = q.where('user_id', '=', f.userId);
  if (f.username) q = q.where('username', '=', f.username);
  if (f.modelName) q = q.where('model_name', '=', f.modelName);
  if (f.channelId) q = q.where('channel_id', '=', f.channelId);
  if (f.group) q = q.where('group', '=', f.group);
  if (f.start) q = q.where('created_at', '>=', f.start);
  if (f.end) q = q.where('created_at', '<=', f.end);
  return { quota: Number((await q.executeTakeFirst()).quota) };
};
const rows = (fn) => async () => ({ rows: (await fn()).length });

const cases = [
  ['list: no filter', list({})],
  ['list: username', list({ username: username(midUser) })],
  ['list: self (user_id)', list({ userId: midUser })],
  ['list: token_name', list({ tokenName: `key-${midUser}-1` })],
  ['list: key (user_id + token_id)', list({ userId: midUser, tokenId: midUser * 3 + 1 })],
  ['list: model_name', list({ modelName: model(7) })],
  ['list: channel', list({ channelId: 3 })],
  ['list: group', list({ group: 'vip' })],
  ['list: type 5 (error)', list({ type: 5 })],
  ['list: type 1 (top-up)', list({ type: 1 })],
  ['list: type 2 (consume)', list({ type: 2 })],
  ['list: group default', list({ group: 'default' })],
  ['list: 1 day + type 3', list({ start: dayStart, end: dayEnd, type: 3 })],
  ['list: time range (1 day)', list({ start: dayStart, end: dayEnd })],
  ['list: 1 day + username', list({ start: dayStart, end: dayEnd, username: username(midUser) })],
  ['list: 1 day + type 2 + model', list({ start: dayStart, end: dayEnd, type: 2, modelName: model(7) })],
  ['list: self + model', list({ userId: midUser, modelName: model(11) })],
  ['list: type 2 + unknown username', list({ type: 2, username: 'nobody' })],
  ['list: 1 day + unknown group', list({ start: dayStart, end: dayEnd, group: 'nobody' })],
  ['list: 100 rows, no filter', list({}, 1, 100)],
  ['deep page p=500, no filter', list({}, 500)],
  ['deep page p=500, 1 day', list({ start: dayStart, end: dayEnd }, 500)],
  ['deep page p=100, username', list({ username: username(midUser) }, 100)],
  ['stat: 1 day', stat({ start: dayStart, end: dayEnd })],
  ['stat: 1 day + username', stat({ start: dayStart, end: dayEnd, username: username(midUser) })],
  ['stat: 1 day + model', stat({ start: dayStart, end: dayEnd, modelName: model(7) })],
  ['stat: all time', stat({})],
  ['stat: all time, username', stat({ username: username(midUser) })],
  ['stat: all time, self', stat({ userId: midUser })],
  ['stat: all time, token_name', stat({ tokenName: `key-${midUser}-1` })],
  ['stat: all time, model', stat({ modelName: model(7) })],
  ['stat: all time, channel', stat({ channelId: 3 })],
  ['stat: all time, group', stat({ group: 'vip' })],
  ['stat: all time, self + model', stat({ userId: midUser, modelName: model(11) })],
  ['(before) rows only: 1 day', rowsStat({ start: dayStart, end: dayEnd }), true],
  ['(before) rows only: all time', rowsStat({}), true],
  ['(before) rows only: all time, model', rowsStat({ modelName: model(7) }), true],
  ['(before) rows only: all time, channel', rowsStat({ channelId: 3 }), true],
  ['(before) rows only: all time, group', rowsStat({ group: 'vip' }), true],
  ['/api/data: 7 days', rows(() => hourlyUsage(db, { start: weekStart, end: now }))],
  ['/api/data: 30 days', rows(() => hourlyUsage(db, { start: first, end: now }))],
  ['/api/data: 7 days, one user', rows(() => hourlyUsage(db, { start: weekStart, end: now, userId: midUser }))],
  ['/api/data/self: 30 days', rows(() => hourlyUsage(db, { start: first, end: now, userId: midUser }))],
  ['/api/data/users: 1 day', rows(() => hourlyUsageByUser(db, { start: dayStart, end: now }))],
  ['/api/data/users: 7 days', rows(() => hourlyUsageByUser(db, { start: weekStart, end: now }))],
  ['channel stats: 7 days', rows(() => channelUse(db, { start: weekStart, end: now }))],
  ['channel stats: 7 days, merged', rows(() => channelUse(db, { start: weekStart, end: now, merge: true }))],
  ['channel stats: all time', rows(() => channelUse(db, {}))],
  ['channel stats: all time, one channel', rows(() => channelUse(db, { channelId: 3 }))],
];

let failed = 0;
console.log(`\n${'query'.padEnd(40)} ${'median ms'.padStart(10)}  answer`);
for (const [name, fn, reference] of cases) {
  const ms = await median(fn);
  const over = !reference && ms > TARGET_MS;
  if (over) failed++;
  const answer = JSON.stringify(await fn());
  console.log(`${name.padEnd(40)} ${ms.toFixed(2).padStart(10)}  ${answer}${over ? `  <-- over ${TARGET_MS} ms` : ''}`);
}

// Cleanup of the oldest day, once (it changes the data, so not on a kept database).
if (!keep) {
  const t = performance.now();
  const deleted = await deleteLogsBefore(db, first + 86_400);
  console.log(`\ncleanup of the oldest day: ${deleted.toLocaleString('en')} rows in ${(performance.now() - t).toFixed(0)} ms`);
}

await handle.close();
if (dir) rmSync(dir, { recursive: true, force: true });
if (kind === 'postgres' && !keep)
  await pgAdmin(dsn, 'LOGS_BENCH_DSN', (admin, name) => admin.query(`drop database if exists ${name} with (force)`));
console.log(failed ? `\n${failed} queries over ${TARGET_MS} ms` : `\nevery query under ${TARGET_MS} ms`);
process.exitCode = failed ? 1 : 0;
