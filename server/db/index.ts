import type { FastifyBaseLogger } from 'fastify';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  Kysely,
  Migrator,
  MysqlDialect,
  PostgresDialect,
  SqliteDialect,
  type Dialect,
  type Migration,
  type MigrationProvider,
  type SqliteDatabase,
} from 'kysely';
import type { DbKind, DbTarget } from './dsn.js';
import type { Database, MigrationDb } from './types.js';
import * as m0001 from './migrations/0001_init.js';
import * as m0002 from './migrations/0002_logs_group_index.js';
import * as m0003 from './migrations/0003_user_oauth_indexes.js';
import * as m0004 from './migrations/0004_reservations.js';
import * as m0005 from './migrations/0005_session_epoch.js';
import * as m0006 from './migrations/0006_leases.js';
import * as m0007 from './migrations/0007_channel_keys.js';
import * as m0008 from './migrations/0008_channel_limits.js';
import * as m0009 from './migrations/0009_redemption_expiry_prefill_groups.js';
import * as m0010 from './migrations/0010_two_factor.js';
import * as m0011 from './migrations/0011_model_catalog.js';
import * as m0012 from './migrations/0012_audit_logs.js';
import * as m0013 from './migrations/0013_log_totals.js';
import * as m0014 from './migrations/0014_quota_data_rollups.js';
import * as m0015 from './migrations/0015_quota_data_model_hours.js';
import * as m0016 from './migrations/0016_family_console.js';
import * as m0017 from './migrations/0017_custom_oauth.js';
import * as m0018 from './migrations/0018_subscriptions.js';
import * as m0019 from './migrations/0019_card_payments.js';
import * as m0020 from './migrations/0020_routing_limits.js';
import * as m0021 from './migrations/0021_cached_tokens.js';
import * as m0022 from './migrations/0022_body_logs.js';
import * as m0023 from './migrations/0023_sparse_log_indexes.js';

export type Db = Kysely<Database>;

export interface DbHandle {
  db: Db;
  kind: DbKind;
  close(): Promise<void>;
}

/**
 * Kysely prepares every SQLite statement anew; keeping prepared statements by SQL text saves that
 * work on the relay's hot path (a handful of distinct statements run thousands of times).
 */
function withStatementCache(database: SqliteDatabase): SqliteDatabase {
  const cache = new Map<string, ReturnType<SqliteDatabase['prepare']>>();
  return {
    close: () => database.close(),
    prepare(sql: string) {
      let statement = cache.get(sql);
      if (!statement) {
        statement = database.prepare(sql);
        if (cache.size >= 1000) cache.delete(cache.keys().next().value as string);
        cache.set(sql, statement);
      }
      return statement;
    },
  };
}

async function makeDialect(target: DbTarget, log?: FastifyBaseLogger): Promise<Dialect> {
  switch (target.kind) {
    case 'sqlite': {
      const { default: SQLite } = await import('better-sqlite3');
      if (target.path !== ':memory:') mkdirSync(dirname(target.path), { recursive: true });
      const database = new SQLite(target.path);
      database.pragma('journal_mode = WAL');
      // WAL with NORMAL sync: a commit is durable across a process crash; only a power loss may
      // drop the last transactions. FULL would fsync on every relayed request's debit.
      database.pragma('synchronous = NORMAL');
      database.pragma('busy_timeout = 5000');
      database.pragma('foreign_keys = ON');
      // A multi-row insert inside a transaction keeps a statement journal (the pages it changes, to
      // undo it alone); past 64 KiB SQLite moves it to a temporary file, created, written and
      // unlinked on every batch of the journal. In memory it costs a copy.
      database.pragma('temp_store = MEMORY');
      return new SqliteDialect({ database: withStatementCache(database) });
    }
    case 'postgres': {
      const pg = await import('pg');
      // int8 (bigint) columns hold quota: numbers, not strings (quota stays below 2^53).
      pg.default.types.setTypeParser(20, (v: string) => Number(v));
      pg.default.types.setTypeParser(1700, (v: string) => Number(v));
      const pool = new pg.default.Pool({ connectionString: target.url, max: 10 });
      // An idle connection dropped by the server (restart, failover) must not crash the process;
      // the pool replaces it on the next query.
      pool.on('error', (err) => log?.warn(`postgres: idle connection lost: ${err.message}`));
      return new PostgresDialect({ pool });
    }
    case 'mysql': {
      const mysql = await import('mysql2');
      const pool = mysql.createPool({
        host: target.host,
        port: target.port,
        user: target.user,
        password: target.password,
        database: target.database,
        connectionLimit: 10,
        supportBigNumbers: true,
        bigNumberStrings: false,
        decimalNumbers: true,
        charset: 'utf8mb4',
      });
      return new MysqlDialect({ pool });
    }
  }
}

/** `log` hears of dropped idle connections (the gateway's logger; tools and tests go without). */
export async function openDb(target: DbTarget, log?: FastifyBaseLogger): Promise<DbHandle> {
  const db = new Kysely<Database>({ dialect: await makeDialect(target, log) });
  return { db, kind: target.kind, close: () => db.destroy() };
}

/** Numbered migrations; each receives the dialect so DDL can differ where SQL does. */
const migrations: Record<string, { up(db: MigrationDb, kind: DbKind): Promise<void> }> = {
  '0001_init': m0001,
  '0002_logs_group_index': m0002,
  '0003_user_oauth_indexes': m0003,
  '0004_reservations': m0004,
  '0005_session_epoch': m0005,
  '0006_leases': m0006,
  '0007_channel_keys': m0007,
  '0008_channel_limits': m0008,
  '0009_redemption_expiry_prefill_groups': m0009,
  '0010_two_factor': m0010,
  '0011_model_catalog': m0011,
  '0012_audit_logs': m0012,
  '0013_log_totals': m0013,
  '0014_quota_data_rollups': m0014,
  '0015_quota_data_model_hours': m0015,
  '0016_family_console': m0016,
  '0017_custom_oauth': m0017,
  '0018_subscriptions': m0018,
  '0019_card_payments': m0019,
  '0020_routing_limits': m0020,
  '0021_cached_tokens': m0021,
  '0022_body_logs': m0022,
  '0023_sparse_log_indexes': m0023,
};

export async function migrate(handle: DbHandle): Promise<void> {
  const provider: MigrationProvider = {
    async getMigrations() {
      const out: Record<string, Migration> = {};
      for (const [name, m] of Object.entries(migrations)) {
        out[name] = { up: (db) => m.up(db, handle.kind) };
      }
      return out;
    },
  };
  const migrator = new Migrator({ db: handle.db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`migration ${failed?.migrationName ?? '?'} failed: ${(error as Error).message}`, { cause: error });
  }
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
