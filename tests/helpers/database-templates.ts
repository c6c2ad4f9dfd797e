/**
 * Vitest global set-up: migrates one template database per reachable kind once per run, so that a
 * test file's database is a copy (PostgreSQL's CREATE DATABASE … TEMPLATE, a copied SQLite file,
 * MySQL tables created LIKE the template's) instead of running every migration again (2–3 s each
 * on the servers). Copies are still migrated by the gateway at start; that finds nothing to do.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrate, openDb } from '../../server/db/index.js';
import { MYSQL_ADMIN, PG_ADMIN_URL, type DatabaseTemplates } from './database-servers.js';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseTemplates: DatabaseTemplates;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const suffix = `${process.pid}_${randomBytes(3).toString('hex')}`;
  const templates: DatabaseTemplates = {};
  const cleanups: (() => Promise<void>)[] = [];
  const wanted = (process.env.TEST_DBS ?? 'sqlite,postgres,mysql').split(',').map((s) => s.trim());

  if (wanted.includes('sqlite')) {
    const dir = mkdtempSync(join(tmpdir(), 'gw-template-'));
    const path = join(dir, 'template.db');
    const handle = await openDb({ kind: 'sqlite', path });
    await migrate(handle);
    await handle.close();
    templates.sqlite = path;
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  }

  // An unreachable server leaves its kind without a template: createTestDatabase then makes an
  // empty database and reports the server as the tests always have (skip, or fail under CI).
  if (wanted.includes('postgres')) {
    const name = `gw_tpl_${suffix}`;
    try {
      const pg = (await import('pg')).default;
      const admin = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 3000 });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      const url = new URL(PG_ADMIN_URL);
      url.pathname = `/${name}`;
      const handle = await openDb({ kind: 'postgres', url: url.toString() });
      await migrate(handle);
      await handle.close();
      templates.postgres = name;
      cleanups.push(async () => {
        const c = new pg.Client({ connectionString: PG_ADMIN_URL });
        await c.connect();
        await c.query(`drop database if exists ${name} with (force)`);
        await c.end();
      });
    } catch {
      /* no template: see above */
    }
  }

  if (wanted.includes('mysql')) {
    const name = `gw_tpl_${suffix}`;
    try {
      const mysql = await import('mysql2/promise');
      const admin = await mysql.createConnection({ ...MYSQL_ADMIN, connectTimeout: 3000 });
      await admin.query(`create database ${name} character set utf8mb4`);
      const { host, port, user, password } = MYSQL_ADMIN;
      const handle = await openDb({ kind: 'mysql', host, port, user, password, database: name });
      await migrate(handle);
      await handle.close();
      const [rows] = await admin.query('select table_name as t from information_schema.tables where table_schema = ?', [name]);
      await admin.end();
      templates.mysql = { database: name, tables: (rows as { t: string }[]).map((r) => r.t) };
      cleanups.push(async () => {
        const c = await mysql.createConnection(MYSQL_ADMIN);
        await c.query(`drop database if exists ${name}`);
        await c.end();
      });
    } catch {
      /* no template: see above */
    }
  }

  project.provide('databaseTemplates', templates);
  return async () => {
    await Promise.all(cleanups.map((c) => c()));
  };
}
