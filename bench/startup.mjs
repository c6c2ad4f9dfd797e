// bench/startup: the built gateway's start on a migrated SQLite database — CPU (user + system) and
// wall time from spawn to "listening" — its idle memory, and the console's initial JavaScript (gzip).
// Needs a prior `npm run build`. In the same run it starts, as baselines, the same build compiling
// every route schema at start (SCHEMA_PRECOMPILE=true, Fastify's default) and, with
// STARTUP_BASELINE_REF=<git ref>, that commit's server built its own way (`tsc`, one file per module).
// Targets: start ≤ 1.5 s CPU, idle RSS < 150 MB, initial JS < 500 KB gzip.
import { execSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const RUNS = Number(process.env.STARTUP_RUNS) || 5;
const TICK_MS = 1000 / Number(execSync('getconf CLK_TCK').toString().trim() || 100);

/** CPU milliseconds a process has used so far (its own, not its children's). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** Starts `entry` on `dbPath` and resolves at its "listening" line with the figures of that moment. */
function start(entry, dbPath, env = {}, idle = false) {
  const started = performance.now();
  const child = spawn(process.execPath, [entry], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', SQLITE_PATH: dbPath, SQL_DSN: '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((done, fail) => {
    child.once('exit', (code) => fail(new Error(`${entry} exited with ${code}`)));
    child.stdout.on('data', async (chunk) => {
      if (!/listening/.test(chunk)) return;
      const figures = { cpu: cpuMs(child.pid), wall: performance.now() - started, rss: 0 };
      if (idle) {
        await new Promise((r) => setTimeout(r, 2000));
        figures.rss = rssMb(child.pid);
      }
      child.removeAllListeners('exit');
      child.kill('SIGKILL');
      child.once('exit', () => done(figures));
    });
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measure(label, entry, env = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'gw-bench-'));
  const db = join(dir, 'gw.db');
  try {
    await start(entry, db, env); // migrates the fresh database; not counted
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await start(entry, db, env, i === 0));
    return { label, cpu: median(runs.map((r) => r.cpu)), wall: median(runs.map((r) => r.wall)), rss: runs[0].rss };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The server of `ref` built as that commit builds it, in a temporary folder using our node_modules. */
function buildBaseline(ref) {
  const dir = mkdtempSync(join(tmpdir(), 'gw-baseline-'));
  execSync(`git archive ${ref} server package.json | tar -x -C ${dir}`);
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'));
  const build = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).scripts['build:server'];
  execSync(build.startsWith('tsc ') ? `node ${resolve('node_modules/typescript-native/bin/tsc')} ${build.slice(4)}` : build, {
    cwd: dir,
    stdio: 'inherit',
  });
  return dir;
}

if (!existsSync('dist/server/main.js') || !existsSync('dist/console/index.html')) {
  console.error('run `npm run build` first');
  process.exit(1);
}

const rows = [await measure('this build', 'dist/server/main.js')];
rows.push(await measure('this build, SCHEMA_PRECOMPILE=true', 'dist/server/main.js', { SCHEMA_PRECOMPILE: 'true' }));
const ref = process.env.STARTUP_BASELINE_REF;
if (ref) {
  const dir = buildBaseline(ref);
  try {
    rows.push(await measure(`baseline ${ref}`, join(dir, 'dist/server/main.js')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`start on a migrated SQLite database, spawn to listening (median of ${RUNS}):`);
for (const r of rows) {
  console.log(
    `  ${r.label.padEnd(40)} CPU ${r.cpu.toFixed(0).padStart(5)} ms   wall ${r.wall.toFixed(0).padStart(5)} ms   idle RSS ${r.rss.toFixed(0)} MB`,
  );
}
const [ours] = rows;
console.log(`start CPU: ${ours.cpu.toFixed(0)} ms   target ≤ 1500 ms   ${ours.cpu <= 1500 ? 'OK' : 'OVER'}`);
console.log(`idle RSS after 2 s: ${ours.rss.toFixed(1)} MB   target < 150 MB   ${ours.rss < 150 ? 'OK' : 'OVER'}`);

const html = readFileSync('dist/console/index.html', 'utf8');
const files = [...html.matchAll(/<script[^>]+src="([^"]+)"|<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)]
  .map((m) => m[1] ?? m[2])
  .filter(Boolean);
const kb = files.reduce((sum, f) => sum + gzipSync(readFileSync(join('dist/console', f))).length, 0) / 1024;
console.log(
  `console initial JS: ${kb.toFixed(1)} KB gzip in ${files.length} file(s)   target < 500 KB   ${kb < 500 ? 'OK' : 'OVER'}`,
);
