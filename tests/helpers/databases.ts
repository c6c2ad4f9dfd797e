/**
 * The databases server tests run against. SQLite always; PostgreSQL and MySQL when their servers
 * answer (each test file creates and drops its own database, so runs never collide). An unreachable
 * server skips its tests with a message, except under CI=true, where it fails them.
 */
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { DbTarget } from '../../server/db/dsn.js';
import { MYSQL_ADMIN, PG_ADMIN_URL, type DatabaseTemplates } from './database-servers.js';

export { MYSQL_ADMIN, PG_ADMIN_URL };
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export type DbName = 'sqlite' | 'postgres' | 'mysql';

export interface TestDatabase {
  target: DbTarget;
  /** The same target as SQL_DSN (for child processes). */
  dsn: string;
  drop(): Promise<void>;
}

function uniqueName(): string {
  return `gw_test_${process.pid}_${randomBytes(4).toString('hex')}`;
}

/** The run's migrated templates; none outside a vitest run with the global set-up. */
function templates(): DatabaseTemplates {
  try {
    return inject('databaseTemplates') ?? {};
  } catch {
    return {};
  }
}

/**
 * A database of its own for a test file: a copy of the run's migrated template, or with `fresh` (a
 * test of migrating itself) an empty one.
 */
export async function createTestDatabase(kind: DbName, { fresh = false } = {}): Promise<TestDatabase> {
  const name = uniqueName();
  const template = fresh ? {} : templates();
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'gw-sqlite-'));
    const path = join(dir, 'test.db');
    if (template.sqlite) copyFileSync(template.sqlite, path);
    return { target: { kind: 'sqlite', path }, dsn: '', drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  if (kind === 'postgres') {
    const pg = (await import('pg')).default;
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    await admin.query(template.postgres ? `create database ${name} template ${template.postgres}` : `create database ${name}`);
    await admin.end();
    const url = new URL(PG_ADMIN_URL);
    url.pathname = `/${name}`;
    return {
      target: { kind: 'postgres', url: url.toString() },
      dsn: url.toString(),
      drop: async () => {
        const c = new pg.Client({ connectionString: PG_ADMIN_URL });
        await c.connect();
        await c.query(`drop database if exists ${name} with (force)`);
        await c.end();
      },
    };
  }
  const mysql = await import('mysql2/promise');
  const admin = await mysql.createConnection({ ...MYSQL_ADMIN, multipleStatements: true });
  await admin.query(`create database ${name} character set utf8mb4`);
  if (template.mysql) {
    const from = template.mysql.database;
    const copy = template.mysql.tables.flatMap((t) => [
      `create table \`${name}\`.\`${t}\` like \`${from}\`.\`${t}\``,
      `insert into \`${name}\`.\`${t}\` select * from \`${from}\`.\`${t}\``,
    ]);
    await admin.query(copy.join(';\n'));
  }
  await admin.end();
  const { host, port, user, password } = MYSQL_ADMIN;
  return {
    target: { kind: 'mysql', host, port, user, password, database: name },
    dsn: `mysql://${encodeURIComponent(user)}:${encodeURIComponent(password)}@${host}:${port}/${name}`,
    drop: async () => {
      const c = await mysql.createConnection(MYSQL_ADMIN);
      await c.query(`drop database if exists ${name}`);
      await c.end();
    },
  };
}

async function reachable(kind: DbName): Promise<string | null> {
  try {
    if (kind === 'postgres') {
      const pg = (await import('pg')).default;
      const c = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 3000 });
      await c.connect();
      await c.end();
    } else if (kind === 'mysql') {
      const mysql = await import('mysql2/promise');
      const c = await mysql.createConnection({ ...MYSQL_ADMIN, connectTimeout: 3000 });
      await c.end();
    }
    return null;
  } catch (err) {
    return (err as Error).message || String(err);
  }
}

export const isCI = process.env.CI === 'true';

/**
 * Which databases this run covers. `TEST_DBS=sqlite` narrows it. Returns the available kinds and
 * prints why any were skipped; under CI an unreachable server throws instead.
 */
export async function availableDatabases(): Promise<DbName[]> {
  const wanted = (process.env.TEST_DBS ?? 'sqlite,postgres,mysql').split(',').map((s) => s.trim()) as DbName[];
  const out: DbName[] = [];
  for (const kind of wanted) {
    const problem = await reachable(kind);
    if (problem === null) out.push(kind);
    else if (isCI) throw new Error(`${kind} is unreachable under CI=true: ${problem}`);
    else console.warn(`[skip] ${kind} tests skipped: server unreachable (${problem})`);
  }
  return out;
}

/** Under CI a missing Redis fails; elsewhere it skips with a message. Returns whether to run. */
export async function redisAvailable(): Promise<boolean> {
  const { Redis } = await import('ioredis');
  const r = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 2000, retryStrategy: () => null });
  try {
    await r.connect();
    await r.ping();
    return true;
  } catch (err) {
    if (isCI) throw new Error(`redis is unreachable under CI=true: ${(err as Error).message}`);
    console.warn(`[skip] redis tests skipped: server unreachable (${(err as Error).message})`);
    return false;
  } finally {
    r.disconnect();
  }
}

const matrix = await availableDatabases().then(
  (kinds) => kinds,
  (err: unknown) => err as Error,
);

/**
 * Declares `fn`'s tests once per database: `describe` for each reachable one, `describe.skip`
 * (with the reason printed) for an unreachable one outside CI.
 */
export async function forEachDatabase(title: string, fn: (kind: DbName) => void): Promise<void> {
  const { describe } = await import('vitest');
  if (matrix instanceof Error) throw matrix;
  const wanted = (process.env.TEST_DBS ?? 'sqlite,postgres,mysql').split(',').map((s) => s.trim()) as DbName[];
  for (const kind of wanted) {
    const run = matrix.includes(kind);
    (run ? describe : describe.skip)(`${title} [${kind}]`, () => fn(kind));
  }
}

/**
 * A database for LOG_SQL_DSN beside a main one of kind `kind`: another reachable kind where there
 * is one (sqlite → postgres → mysql → sqlite), else a second database of the same kind.
 */
export function logDatabaseBeside(kind: DbName): DbName {
  const order: DbName[] = ['sqlite', 'postgres', 'mysql'];
  const kinds = matrix instanceof Error ? [] : matrix;
  for (let i = 1; i < order.length; i++) {
    const next = order[(order.indexOf(kind) + i) % order.length]!;
    if (kinds.includes(next)) return next;
  }
  return kind;
}
