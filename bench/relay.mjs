// bench/relay: the relay's overhead. Starts the OpenAI stand-in and the built gateway (pinned to one
// core with taskset; the stand-in and the load generator share the other), then loads both with
// autocannon at concurrency 50 and 200, streaming (20-chunk SSE) and not, and prints requests/s
// direct and through the gateway, their ratio, the latency the gateway adds (p50/p99), the
// gateway's CPU time per request and its peak memory; finally a 60 s soak for memory flatness.
// Needs `npm run build`. Run: `npm run bench` or `node bench/relay.mjs [seconds-per-run]`.
// Targets (2 cores, gateway on one): CPU ≤ 150 µs per request, ≤ 250 µs per 20-chunk stream,
// zero errors at concurrency 200, memory flat across 60 s.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import autocannon from 'autocannon';

const SECONDS = Number(process.argv[2] ?? 10);
const SOAK_SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const CLK_TCK = 100;

if (!existsSync('dist/server/main.js')) {
  console.error('run `npm run build` first');
  process.exit(1);
}

function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function waitForLine(child, pattern) {
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

const cpuTicks = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime + stime
};
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

async function api(base, cookie, userId, method, path, body) {
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

function load(url, headers, body, connections, duration) {
  return new Promise((resolve, reject) => {
    autocannon({ url, method: 'POST', headers, body, connections, duration, pipelining: 1 }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
  });
}

const taskset = (core, cmd, args) =>
  existsSync('/usr/bin/taskset') ? ['taskset', ['-c', String(core), cmd, ...args]] : [cmd, args];

const dir = mkdtempSync(join(tmpdir(), 'gw-relay-bench-'));
const [upCmd, upArgs] = taskset(0, process.execPath, ['--import', 'tsx', 'bench/upstream.mts']);
const upstream = spawn(upCmd, upArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
const upstreamUrl = (await waitForLine(upstream, /upstream (http:\/\/\S+)/))[1];

const port = await freePort();
// GATEWAY_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) profiles the gateway under load.
const gatewayNodeArgs = (process.env.GATEWAY_NODE_ARGS ?? '').split(' ').filter(Boolean);
const [gwCmd, gwArgs] = taskset(1, process.execPath, [...gatewayNodeArgs, 'dist/server/main.js']);
const gateway = spawn(gwCmd, gwArgs, {
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    SQL_DSN: '',
    SQLITE_PATH: join(dir, 'gw.db'),
    LOG_LEVEL: 'warn',
    GLOBAL_API_RATE_LIMIT: '1000000',
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
await waitForLine(gateway, /gateway listening/);
const base = `http://127.0.0.1:${port}`;

// Root (200 USD of quota: the pre-charge is skipped as for any large balance), a channel to the
// stand-in, and an unlimited token.
await api(base, '', 0, 'POST', '/api/setup', { username: 'root', password: 'bench-pass-1', confirmPassword: 'bench-pass-1' });
let { json, cookie } = await api(base, '', 0, 'POST', '/api/user/login', { username: 'root', password: 'bench-pass-1' });
const rootId = json.data.id;
await api(base, cookie, rootId, 'POST', '/api/channel/', {
  type: 1,
  name: 'stand-in',
  key: 'sk-upstream-good',
  base_url: upstreamUrl,
  models: 'gpt-4o-mini',
  group: 'default',
});
const token = (
  await api(base, cookie, rootId, 'POST', '/api/token/', {
    name: 'bench',
    remain_quota: 0,
    unlimited_quota: true,
    expired_time: -1,
  })
).json.data;
const key = (await api(base, cookie, rootId, 'POST', `/api/token/${token.id}/key`, {})).json.data.key;
await new Promise((r) => setTimeout(r, 1500)); // the channel cache reloads on the bus at once; leave margin

const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}` };
const bodies = {
  plain: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello!' }] }),
  stream: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello!' }], stream: true }),
};

let peakRss = rssMb(gateway.pid);
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, rssMb(gateway.pid));
}, 250);

const rows = [];
for (const mode of ['plain', 'stream']) {
  for (const connections of [50, 200]) {
    await load(`${base}/v1/chat/completions`, headers, bodies[mode], connections, 2); // warm-up
    const direct = await load(`${upstreamUrl}/v1/chat/completions`, headers, bodies[mode], connections, SECONDS);
    const before = cpuTicks(gateway.pid);
    const through = await load(`${base}/v1/chat/completions`, headers, bodies[mode], connections, SECONDS);
    const cpuMs = ((cpuTicks(gateway.pid) - before) / CLK_TCK) * 1000;
    const ok = through.requests.total - through.errors - through.non2xx;
    rows.push({
      mode,
      connections,
      directRps: direct.requests.average,
      gatewayRps: through.requests.average,
      ratio: through.requests.average / direct.requests.average,
      addedP50: through.latency.p50 - direct.latency.p50,
      addedP99: through.latency.p99 - direct.latency.p99,
      cpuUsPerReq: (cpuMs * 1000) / Math.max(1, ok),
      errors: through.errors + through.non2xx + through.timeouts,
    });
  }
}

console.log(`\nrelay overhead (${SECONDS} s per run; gateway pinned to core 1, stand-in and load on core 0)`);
console.log('mode    conc  direct req/s  gateway req/s  ratio  +p50 ms  +p99 ms  gateway CPU µs/req  errors');
for (const r of rows) {
  console.log(
    `${r.mode.padEnd(7)} ${String(r.connections).padStart(4)}  ${r.directRps.toFixed(0).padStart(12)}  ${r.gatewayRps.toFixed(0).padStart(13)}  ${r.ratio.toFixed(2).padStart(5)}  ${r.addedP50.toFixed(1).padStart(7)}  ${r.addedP99.toFixed(1).padStart(7)}  ${r.cpuUsPerReq.toFixed(0).padStart(18)}  ${String(r.errors).padStart(6)}`,
  );
}
console.log(`peak gateway RSS during the runs: ${peakRss.toFixed(1)} MB`);

if (SOAK_SECONDS > 0) {
  const samples = [];
  const soak = setInterval(() => samples.push(rssMb(gateway.pid)), 1000);
  const result = await load(`${base}/v1/chat/completions`, headers, bodies.stream, 50, SOAK_SECONDS);
  clearInterval(soak);
  const third = Math.max(1, Math.floor(samples.length / 3));
  const avg = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const early = avg(samples.slice(0, third));
  const late = avg(samples.slice(-third));
  console.log(
    `soak ${SOAK_SECONDS} s streaming at 50: ${result.requests.total} requests, ${result.errors + result.non2xx} errors; RSS first third ${early.toFixed(1)} MB, last third ${late.toFixed(1)} MB (${(((late - early) / early) * 100).toFixed(1)}%)`,
  );
}

clearInterval(sampler);
gateway.kill('SIGTERM');
upstream.kill('SIGTERM');
await new Promise((r) => setTimeout(r, 500));
rmSync(dir, { recursive: true, force: true });
