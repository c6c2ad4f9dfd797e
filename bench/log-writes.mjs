// bench/log-writes: what a log row costs the billing writer on SQLite, by the indexes `logs` has
// and by how many users, keys and models the rows spread over. The relay writes its rows in the
// journal's batches (server/billing/journal.ts): here 16-row inserts, one transaction each, into a
// database built by the app's migrations, with the journal's pragmas. An index whose leading column
// repeats across rows (one user) adds at its right edge, one page per batch; rows of many users land
// on as many pages of each such index, each written to the WAL at every commit.
//
//   node --import tsx bench/log-writes.mjs
//
// Prints CPU and wall µs per row for: the indexes as migrated (type and group sparse), the eight
// whole indexes as before, and created_at and user_id alone; each with one user and with 1,000.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { migrate, openDb } from '../server/db/index.js';

const BATCH = 16;
const BATCHES = Number(process.env.LOG_WRITES_BATCHES ?? 6000);
const COLUMNS = ['user_id', 'created_at', 'type', 'content', 'username', 'token_name', 'token_id', 'model_name'];
const REST = ['quota', 'prompt_tokens', 'completion_tokens', 'use_time', 'is_stream', 'channel_id', 'group', 'ip', 'other'];
const OTHER = '{"model_ratio":0.75,"group_ratio":1,"completion_ratio":4,"frt":350,"admin_info":{"use_channel":[3]}}';

const LAYOUTS = {
  'as migrated': (db) => db,
  'eight whole': (db) => {
    for (const [name, column] of [
      ['logs_type_created', 'type'],
      ['logs_group_created', 'group'],
    ]) {
      db.exec(`drop index ${name}`);
      db.exec(`create index ${name} on logs ("${column}", created_at)`);
    }
  },
  'created_at, user_id': (db) => {
    for (const name of ['type', 'username', 'model', 'token', 'channel', 'group']) db.exec(`drop index logs_${name}_created`);
  },
};

const dir = mkdtempSync(join(tmpdir(), 'gw-log-writes-'));

/** µs of CPU and of wall time per row, for `users` users on `layout`. */
async function run(layout, users) {
  const path = join(dir, `${layout.replace(/\W/g, '')}-${users}.db`);
  const handle = await openDb({ kind: 'sqlite', path });
  await migrate(handle);
  await handle.close();
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('temp_store = MEMORY');
  LAYOUTS[layout](db);
  const names = [...COLUMNS, ...REST].map((c) => `"${c}"`).join(', ');
  const row = `(${[...COLUMNS, ...REST].map(() => '?').join(', ')})`;
  const insert = db.prepare(`insert into logs (${names}) values ${Array(BATCH).fill(row).join(', ')}`);
  const start = Math.floor(Date.now() / 1000);
  let n = 0;
  const batch = () => {
    const values = [];
    for (let i = 0; i < BATCH; i++, n++) {
      const u = (n * 7919) % users;
      values.push(u + 1, start + (n >> 6), 2, '', `user${u}`, `key-${u}-${n % 3}`, u * 3 + (n % 3), `model-${u % 50}`);
      values.push(1234, 100, 200, 1, 1, (u % 20) + 1, 'default', '', OTHER);
    }
    db.transaction(() => insert.run(values))();
  };
  for (let i = 0; i < BATCHES / 3; i++) batch(); // the indexes grow past their first pages
  const cpu = process.cpuUsage();
  const wall = performance.now();
  for (let i = 0; i < BATCHES; i++) batch();
  const used = process.cpuUsage(cpu);
  const rows = BATCHES * BATCH;
  db.close();
  return { cpu: (used.user + used.system) / rows, wall: ((performance.now() - wall) * 1000) / rows };
}

console.log(`log rows on SQLite, ${BATCH} a transaction, ${(BATCHES * BATCH).toLocaleString('en')} timed per case`);
console.log('indexes               users   CPU µs/row   wall µs/row');
try {
  for (const layout of Object.keys(LAYOUTS)) {
    for (const users of [1, 1000]) {
      const { cpu, wall } = await run(layout, users);
      console.log(
        `${layout.padEnd(20)}  ${String(users).padStart(5)}   ${cpu.toFixed(1).padStart(10)}   ${wall.toFixed(1).padStart(11)}`,
      );
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
