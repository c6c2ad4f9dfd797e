// What the benchmarks share: ports, child processes' output and /proc figures, the console API, a
// PostgreSQL database of their own.
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';

export function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

export function waitForLine(child, pattern) {
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d) => {
      out += d;
      const m = pattern.exec(out);
      if (m) resolve(m);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (d) => process.stderr.write(d));
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}

export const cpuTicks = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime + stime
};
export const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

export async function api(base, cookie, userId, method, path, body) {
  const res = await fetch(base + path, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(cookie ? { cookie } : {}),
      ...(userId ? { 'New-Api-User': String(userId) } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  if (!json.success) throw new Error(`${method} ${path}: ${json.message}`);
  return { json, cookie: res.headers.get('set-cookie')?.split(';')[0] ?? cookie };
}

export const taskset = (core, cmd, args) =>
  existsSync('/usr/bin/taskset') ? ['taskset', ['-c', String(core), cmd, ...args]] : [cmd, args];

/**
 * Runs `run(admin, name)` on the `postgres` database of the server `dsn` names, where a bench creates
 * and drops its own database `name` (the DSN's; `variable` names the setting in errors).
 */
export async function pgAdmin(dsn, variable, run) {
  const pg = (await import('pg')).default;
  const url = new URL(dsn);
  const name = url.pathname.slice(1);
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`${variable}: a plain database name, not "${name}"`);
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    return await run(admin, name);
  } finally {
    await admin.end();
  }
}
