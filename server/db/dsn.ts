export type DbKind = 'sqlite' | 'postgres' | 'mysql';

export type DbTarget =
  | { kind: 'sqlite'; path: string }
  | { kind: 'postgres'; url: string }
  | { kind: 'mysql'; host: string; port: number; user: string; password: string; database: string };

/**
 * SQL_DSN: empty → SQLite file at `sqlitePath`; sqlite:PATH → SQLite file at PATH; postgres:// or postgresql:// → PostgreSQL;
 * mysql://user:pass@host:port/db or the Go form user:pass@tcp(host:port)/db?params → MySQL.
 */
export function parseDsn(dsn: string, sqlitePath: string): DbTarget {
  const value = dsn.trim();
  if (value === '') return { kind: 'sqlite', path: sqlitePath };
  if (value.startsWith('sqlite:')) {
    const path = value.slice('sqlite:'.length);
    if (!path) throw new Error('sqlite: must be followed by a file path');
    return { kind: 'sqlite', path };
  }
  if (/^postgres(ql)?:\/\//.test(value)) {
    new URL(value); // throws on malformed
    return { kind: 'postgres', url: value };
  }
  if (value.startsWith('mysql://')) {
    const u = new URL(value);
    const database = decodeURIComponent(u.pathname.replace(/^\//, ''));
    if (!database) throw new Error('MySQL DSN must name a database');
    return {
      kind: 'mysql',
      host: u.hostname || '127.0.0.1',
      port: u.port ? Number(u.port) : 3306,
      user: decodeURIComponent(u.username || 'root'),
      password: decodeURIComponent(u.password),
      database,
    };
  }
  const go = /^([^:@]*)(?::([^@]*))?@tcp\(([^:)]+)(?::(\d+))?\)\/([^?]+)(\?.*)?$/.exec(value);
  if (go) {
    return {
      kind: 'mysql',
      user: go[1] || 'root',
      password: go[2] ?? '',
      host: go[3] ?? '127.0.0.1',
      port: go[4] ? Number(go[4]) : 3306,
      database: go[5] ?? '',
    };
  }
  throw new Error('expected empty (SQLite), sqlite:PATH, postgres://…, mysql://… or user:pass@tcp(host:port)/db');
}
