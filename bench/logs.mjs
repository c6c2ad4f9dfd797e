// bench/logs: the log list and stat queries on SQLite at 2 000 000 rows.
//
//   node --import tsx bench/logs.mjs
//
// Builds a SQLite database through the app's own migrations, fills `logs` with 2M rows spread over
// the last 30 days (1 000 users, 3 000 token names, 50 models, 20 channels; 90 % consume rows),
// then times the functions the /api/log routes call (server/logs/list-repository.ts; the cleanup's
// is in server/logs/repository.ts), median of RUNS runs after a warm-up. Target: every first page
// under 50 ms.
// Last, the cleanup of the oldest day is timed once (DELETE /api/log/, batches of 10 000).
// LOGS_BENCH_DB=/path/file.db keeps the filled database there and reuses it on the next run (the
// cleanup is then skipped); LOGS_BENCH_ROWS changes the row count.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { migrate, openDb } from '../server/db/index.js';
import { listLogs, logStat } from '../server/logs/list-repository.js';
import { deleteLogsBefore } from '../server/logs/repository.js';
import { toLogItem } from '../server/logs/view.js';

const ROWS = Number(process.env.LOGS_BENCH_ROWS ?? 2_000_000);
const USERS = 1000;
const TOKENS_PER_USER = 3;
const MODELS = 50;
const CHANNELS = 20;
const DAYS = 30;
const RUNS = 7;
const TARGET_MS = 50;

const keep = process.env.LOGS_BENCH_DB;
const dir = keep ? null : mkdtempSync(join(tmpdir(), 'gw-logs-bench-'));
const path = keep ?? join(dir, 'logs.db');
const now = Math.floor(Date.now() / 1000);
const first = now - DAYS * 86_400;

/** A small deterministic generator: the same data on every run. */
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const username = (u) => `user${String(u).padStart(4, '0')}`;
const tokenName = (u, k) => `key-${u}-${k}`;
const modelName = (m) => `model-${String(m).padStart(2, '0')}`;

async function fill() {
  const handle = await openDb({ kind: 'sqlite', path });
  await migrate(handle);
  await handle.close();

  const started = performance.now();
  const db = new Database(path);
  // Loading only: a crash mid-fill just means filling again.
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -1000000');
  const insert = db.prepare(
    `insert into logs (user_id, created_at, type, content, username, token_name, token_id, model_name, quota,
       prompt_tokens, completion_tokens, use_time, is_stream, channel_id, "group", ip, other)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const random = rng(42);
  const step = (DAYS * 86_400) / ROWS;
  const chunk = 200_000;
  const load = db.transaction((from, to) => {
    for (let i = from; i < to; i++) {
      const user = 1 + Math.floor(random() * USERS);
      const k = Math.floor(random() * TOKENS_PER_USER);
      const model = Math.floor(random() * MODELS);
      const channel = 1 + Math.floor(random() * CHANNELS);
      const roll = random();
      const type = roll < 0.9 ? 2 : roll < 0.97 ? 5 : roll < 0.99 ? 1 : 3;
      const prompt = type === 2 ? Math.floor(random() * 4000) : 0;
      const completion = type === 2 ? Math.floor(random() * 1000) : 0;
      const quota = type === 2 ? Math.ceil((prompt + completion * 4) * 0.75) : 0;
      insert.run(
        user,
        Math.floor(first + i * step),
        type,
        type === 2 ? '模型倍率 0.75，补全倍率 4，分组倍率 1' : 'upstream error',
        username(user),
        tokenName(user, k),
        user * TOKENS_PER_USER + k,
        modelName(model),
        quota,
        prompt,
        completion,
        Math.floor(random() * 20),
        random() < 0.5 ? 1 : 0,
        channel,
        user % 5 === 0 ? 'vip' : 'default',
        '10.0.0.1',
        JSON.stringify({
          model_ratio: 0.75,
          group_ratio: 1,
          completion_ratio: 4,
          frt: 350,
          admin_info: { use_channel: [channel] },
        }),
      );
    }
  });
  for (let from = 0; from < ROWS; from += chunk) {
    load(from, Math.min(ROWS, from + chunk));
    process.stdout.write(`\rfilling: ${Math.min(ROWS, from + chunk).toLocaleString('en')} rows`);
  }
  db.pragma('journal_mode = DELETE');
  db.close();
  console.log(` in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

async function median(fn) {
  await fn();
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

if (!keep || !existsSync(path)) await fill();
const handle = await openDb({ kind: 'sqlite', path });
const { db } = handle;
const count = Number(
  (
    await db
      .selectFrom('logs')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow()
  ).n,
);
console.log(`logs: ${count.toLocaleString('en')} rows, SQLite ${path}`);

// The console's default range: from the start of a day to one hour ahead (here: the last day).
const dayStart = now - 86_400;
const dayEnd = now + 3600;
const midUser = username(USERS / 2);
const list =
  (filter, p = 1, size = 10) =>
  async () => {
    const slice = await listLogs(db, 'sqlite', filter, size, (p - 1) * size);
    slice.rows.map((row) => toLogItem(row, true, () => 'channel'));
    return slice;
  };
const stat = (filter) => () => logStat(db, 'sqlite', filter, now);

const cases = [
  ['first page, no filter', list({}), true],
  ['first page, username', list({ username: midUser }), true],
  ['first page, model_name', list({ modelName: modelName(7) }), true],
  ['first page, token_name', list({ tokenName: tokenName(USERS / 2, 1) }), true],
  ['first page, time range (1 day)', list({ start: dayStart, end: dayEnd }), true],
  ['first page, 1 day + username', list({ start: dayStart, end: dayEnd, username: midUser }), true],
  ['first page, 1 day + type 2 + model', list({ start: dayStart, end: dayEnd, type: 2, modelName: modelName(7) }), true],
  ['first page, type 5 (error)', list({ type: 5 }), true],
  ['first page, type 2 + unknown username', list({ type: 2, username: 'nobody' }), true],
  ['first page, 1 day + unknown group', list({ start: dayStart, end: dayEnd, group: 'nobody' }), true],
  ['first page, channel', list({ channelId: 3 }), true],
  ['first page, self (user_id) + model', list({ userId: USERS / 2, modelName: modelName(7) }), true],
  ['first page, 100 rows, no filter', list({}, 1, 100), true],
  ['deep page p=500, no filter', list({}, 500), false],
  ['deep page p=500, 1 day', list({ start: dayStart, end: dayEnd }, 500), false],
  ['stat, 1 day', stat({ start: dayStart, end: dayEnd }), false],
  ['stat, 1 day + username', stat({ start: dayStart, end: dayEnd, username: midUser }), false],
  ['stat, username (all time)', stat({ username: midUser }), false],
  ['stat, no filter (all 30 days)', stat({}), false],
];

let failed = 0;
console.log(`\n${'query'.padEnd(40)} ${'median ms'.padStart(10)}  total`);
for (const [name, fn, firstPage] of cases) {
  const ms = await median(fn);
  const result = await fn();
  const note = 'total' in result ? `${result.total}${result.capped ? '+' : ''}` : JSON.stringify(result);
  const over = firstPage && ms > TARGET_MS;
  if (over) failed++;
  console.log(`${name.padEnd(40)} ${ms.toFixed(2).padStart(10)}  ${note}${over ? `  <-- over ${TARGET_MS} ms` : ''}`);
}

// Cleanup of the oldest day, once (it changes the data, so not on a kept database).
if (!keep) {
  const t = performance.now();
  const deleted = await deleteLogsBefore(db, first + 86_400);
  console.log(`\ncleanup of the oldest day: ${deleted.toLocaleString('en')} rows in ${(performance.now() - t).toFixed(0)} ms`);
}

await handle.close();
if (dir) rmSync(dir, { recursive: true, force: true });
console.log(failed ? `\n${failed} first-page queries over ${TARGET_MS} ms` : `\nevery first page under ${TARGET_MS} ms`);
process.exitCode = failed ? 1 : 0;
