// bench/startup: time from process start to the first /api/status answer, idle memory, and the
// size of the console's initial JavaScript (gzip). Needs a prior `npm run build`.
// Targets: start < 2 s, idle RSS < 150 MB, initial JS < 500 KB gzip.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createServer } from 'node:net';

function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function waitForStatus(url, deadline) {
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok) return true;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  return false;
}

function rssOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

function initialJsGzip() {
  const html = readFileSync('dist/console/index.html', 'utf8');
  const files = [...html.matchAll(/<script[^>]+src="([^"]+)"|<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)]
    .map((m) => m[1] ?? m[2])
    .filter(Boolean);
  let total = 0;
  for (const f of files) total += gzipSync(readFileSync(join('dist/console', f))).length;
  return { files: files.length, kb: total / 1024 };
}

if (!existsSync('dist/server/main.js') || !existsSync('dist/console/index.html')) {
  console.error('run `npm run build` first');
  process.exit(1);
}

const runs = [];
for (let i = 0; i < 3; i++) {
  const dir = mkdtempSync(join(tmpdir(), 'gw-bench-'));
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, ['dist/server/main.js'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SQLITE_PATH: join(dir, 'gw.db'),
      SQL_DSN: '',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const up = await waitForStatus(`http://127.0.0.1:${port}/api/status`, Date.now() + 15_000);
  const startMs = performance.now() - started;
  await new Promise((r) => setTimeout(r, 2000));
  const rss = rssOf(child.pid);
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  rmSync(dir, { recursive: true, force: true });
  if (!up) throw new Error('gateway did not answer /api/status within 15 s');
  runs.push({ startMs, rss });
}

const js = initialJsGzip();
const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const start = median(runs.map((r) => r.startMs));
const rss = median(runs.map((r) => r.rss));
console.log(
  `startup (fresh SQLite, median of ${runs.length}): ${start.toFixed(0)} ms   target < 2000 ms   ${start < 2000 ? 'OK' : 'OVER'}`,
);
console.log(`idle RSS after 2 s: ${rss.toFixed(1)} MB   target < 150 MB   ${rss < 150 ? 'OK' : 'OVER'}`);
console.log(
  `console initial JS: ${js.kb.toFixed(1)} KB gzip in ${js.files} file(s)   target < 500 KB   ${js.kb < 500 ? 'OK' : 'OVER'}`,
);
