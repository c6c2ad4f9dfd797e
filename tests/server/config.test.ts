import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';
import { parseDsn } from '../../server/db/dsn.js';
import { GATEWAY_COMMAND } from '../helpers/process.js';

describe('configuration from the environment', () => {
  it('defaults to SQLite on port 3000', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.db).toEqual({ kind: 'sqlite', path: './data/gateway.db' });
    expect(c.sessionSecret).toBeNull();
    expect(c.passwordHashCost).toBe(10);
  });

  it('hashes new passwords at PASSWORD_HASH_COST and still checks hashes made at another cost', async () => {
    const { hashPassword, setPasswordHashCost, verifyPassword } = await import('../../server/auth/password.js');
    setPasswordHashCost(loadConfig({ PASSWORD_HASH_COST: '5' }).passwordHashCost);
    const cheap = await hashPassword('pw-1');
    expect(cheap).toMatch(/^\$2[aby]\$05\$/);
    setPasswordHashCost(6);
    expect(await hashPassword('pw-1')).toMatch(/^\$2[aby]\$06\$/);
    expect(await verifyPassword('pw-1', cheap)).toBe(true);
    expect(await verifyPassword('pw-2', cheap)).toBe(false);
    expect(() => setPasswordHashCost(3)).toThrow(RangeError);
  });

  it('reads every SQL_DSN form', () => {
    expect(parseDsn('postgres://u:p@db:5432/gw', 'x')).toEqual({ kind: 'postgres', url: 'postgres://u:p@db:5432/gw' });
    expect(parseDsn('mysql://root:secret@db:3307/gw', 'x')).toEqual({
      kind: 'mysql',
      host: 'db',
      port: 3307,
      user: 'root',
      password: 'secret',
      database: 'gw',
    });
    expect(parseDsn('root:pw@tcp(127.0.0.1:3306)/oneapi?charset=utf8mb4', 'x')).toEqual({
      kind: 'mysql',
      host: '127.0.0.1',
      port: 3306,
      user: 'root',
      password: 'pw',
      database: 'oneapi',
    });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ SQL_DSN: 'oracle://x' }, 'SQL_DSN'],
    [{ REDIS_CONN_STRING: 'localhost:6379' }, 'REDIS_CONN_STRING'],
    [{ SESSION_SECRET: 'short' }, 'SESSION_SECRET'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY'],
    [{ ALLOW_PRIVATE_UPSTREAMS: 'yes' }, 'ALLOW_PRIVATE_UPSTREAMS'],
    [{ PASSWORD_HASH_COST: '3' }, 'PASSWORD_HASH_COST'],
    [{ PASSWORD_HASH_COST: '16' }, 'PASSWORD_HASH_COST'],
  ])('refuses %o naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^${variable}:`));
  });

  it('stops start-up with a message naming the variable', () => {
    const run = spawnSync(process.execPath, GATEWAY_COMMAND, {
      env: { ...process.env, PORT: 'not-a-port' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('Invalid configuration: PORT');
  });
});
