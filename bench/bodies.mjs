// bench/bodies: what large request bodies cost everyone else. While 60 MB bodies arrive (four from
// callers without a valid key, then two from a valid key, parsed and refused for an unknown model),
// a probe asks /api/status every 10 ms; the figures are the probe's latency and the gateway's RSS,
// against the same probe on an idle gateway in the same run. Needs a prior `npm run build`.
// Targets: an anonymous body is refused from its headers (no parsing, no memory), and no body holds
// the event loop: the probe's worst latency stays within a few tens of milliseconds of idle.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { api, freePort, rssMb, waitForLine } from './lib.mjs';

const SIZE = 60 * 1024 * 1024;

// The bodies are sent from a worker thread, so that writing them does not delay the probe.
if (!isMainThread) {
  const { base, authorizations } = workerData;
  /** A 60 MB chat request whose one message is a long string (as an inline image would be). */
  const head = Buffer.from('{"model":"no-such-model","messages":[{"role":"user","content":"');
  const tail = Buffer.from('"}]}');
  const filler = Buffer.alloc(1024 * 1024, 0x61);

  function send(authorization) {
    return new Promise((resolve) => {
      const started = performance.now();
      const req = http.request(`${base}/v1/chat/completions`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': String(SIZE),
          ...(authorization ? { authorization } : {}),
        },
      });
      let written = 0;
      const pump = () => {
        if (written === 0) {
          req.write(head);
          written += head.length;
        }
        while (written < SIZE - tail.length) {
          const piece = filler.subarray(0, Math.min(filler.length, SIZE - tail.length - written));
          written += piece.length;
          if (!req.write(piece)) return void req.once('drain', pump);
        }
        req.end(tail);
      };
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - started }));
      });
      req.on('error', () => resolve({ status: 'reset', ms: performance.now() - started }));
      pump();
    });
  }

  const answers = await Promise.all(authorizations.map(send));
  parentPort.postMessage(answers.map((a) => `${a.status} in ${a.ms.toFixed(0)} ms`).join(', '));
  process.exit(0);
}

function sendFromWorker(base, authorizations) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { base, authorizations } });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

if (!existsSync('dist/server/main.js')) {
  console.error('run `npm run build` first');
  process.exit(1);
}

const dir = mkdtempSync(join(tmpdir(), 'gw-bodies-bench-'));
const port = await freePort();
const gateway = spawn(process.execPath, ['dist/server/main.js'], {
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', SQL_DSN: '', SQLITE_PATH: join(dir, 'gw.db'), LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'pipe', 'pipe'],
});
await waitForLine(gateway, /gateway listening/);
const base = `http://127.0.0.1:${port}`;
await api(base, '', 0, 'POST', '/api/setup', { username: 'root', password: 'bench-pass-1', confirmPassword: 'bench-pass-1' });
const { json, cookie } = await api(base, '', 0, 'POST', '/api/user/login', { username: 'root', password: 'bench-pass-1' });
const token = (
  await api(base, cookie, json.data.id, 'POST', '/api/token/', { name: 'b', unlimited_quota: true, expired_time: -1 })
).json.data;
const key = (await api(base, cookie, json.data.id, 'POST', `/api/token/${token.id}/key`, {})).json.data.key;

async function probeWhile(work) {
  const latencies = [];
  let peak = rssMb(gateway.pid);
  let running = true;
  const probing = (async () => {
    while (running) {
      const t = performance.now();
      await fetch(`${base}/api/status`).then((r) => r.arrayBuffer());
      latencies.push(performance.now() - t);
      peak = Math.max(peak, rssMb(gateway.pid));
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const result = await work();
  running = false;
  await probing;
  latencies.sort((a, b) => a - b);
  return { result, p50: latencies[Math.floor(latencies.length / 2)], max: latencies.at(-1), peak };
}

const fmt = (n) => n.toFixed(1).padStart(7);
const rows = [];
const row = (name, r, before) =>
  rows.push(
    `${name.padEnd(40)} probe p50 ${fmt(r.p50)} ms  max ${fmt(r.max)} ms  RSS ${fmt(before)} → peak ${fmt(r.peak)} MB  ${r.result ?? ''}`,
  );

let before = rssMb(gateway.pid);
row('idle (baseline)', await probeWhile(() => new Promise((r) => setTimeout(r, 2000))), before);
before = rssMb(gateway.pid);
const anonymous = await probeWhile(() => sendFromWorker(base, [null, null, 'Bearer sk-wrong', 'Bearer sk-wrong']));
row('4 × 60 MB, no valid key', anonymous, before);
before = rssMb(gateway.pid);
const keyed = await probeWhile(() => sendFromWorker(base, [`Bearer ${key}`, `Bearer ${key}`]));
row('2 × 60 MB, valid key (parsed, refused)', keyed, before);
console.log(rows.join('\n'));
gateway.kill();
rmSync(dir, { recursive: true, force: true });
