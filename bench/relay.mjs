// bench/relay: the relay's overhead against the floor. Starts the OpenAI stand-in, the built gateway
// and bench/baseline.mjs (a bare relay: key in a Map, keep-alive pool, chunks written through, usage
// from the stream's tail, no per-event parse, no database) — the
// gateway and the baseline pinned to the same core with taskset, the stand-in and the load generator
// on the other — then loads each with autocannon at concurrency 50 and 200, streaming (20-chunk SSE)
// and not, for two payers: a large balance (the pre-charge is skipped) and a small one (every call
// reserves and settles quota). Prints requests/s, the latency the gateway adds, the CPU time per
// request of the gateway and of the baseline and their ratio (and round by round its median and
// range, and with BENCH_BEFORE the paired after ÷ before), and the gateway's peak memory; then a
// 60 s soak for memory flatness. Mode `usage` streams as `stream` does, for a client that asks for
// usage itself (stream_options.include_usage: every chunk carries "usage":null). Modes `claude` and
// `gemini` stream Claude's /v1/messages and Gemini's streamGenerateContent to channels of their own
// protocol (the Claude and Gemini stand-ins), against the floor relaying the same. Needs `npm run build`.
// Run: `npm run bench` or `node bench/relay.mjs [seconds-per-run]`; BENCH_SQL_DSN=postgres://… runs
// the gateway on that database instead of a fresh SQLite file (the database must be empty);
// BENCH_MODES=plain,stream,usage,claude,gemini, BENCH_CONNECTIONS=50,200 and
// BENCH_PAYERS=large,small,subscription,limited,routed narrow the
// runs (`subscription` pays from a subscription's period: against `small` in the same run). `limited` is the large payer through every limit at once, none of them reached: a token
// tpm_limit and a channel with rpm_limit and max_concurrency (with REDIS_CONN_STRING set, counted in
// Redis: the cost of the limits per call, against `large` in the same run). `routed` adds the
// token's max_concurrency, rpm_limit and rpd_limit and a channel-affinity rule keying every call by
// its token (BENCH_PAYERS=limited,routed: their cost against `limited`). BENCH_BEFORE=<path to a
// copy of an earlier build's main.js> loads that build too, in the same turns (SQLite only);
// BENCH_MAIN=<path> runs that build as the current one instead of dist/server/main.js; BENCH_PROMISES=1
// adds the promises each call creates (a count the machine's noise does not move).
// Targets (2 cores): gateway CPU per request ≤ 2× the baseline's, streaming and not, for both
// payers; zero errors at concurrency 200; memory flat across 60 s.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { api, cpuTicks, freePort, rssMb, taskset, waitForLine } from './lib.mjs';

const SECONDS = Number(process.argv[2] ?? 10);
const SOAK_SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const CLK_TCK = 100;

if (!existsSync('dist/server/main.js')) {
  console.error('run `npm run build` first');
  process.exit(1);
}

function load(url, headers, body, connections, duration) {
  return new Promise((resolve, reject) => {
    autocannon({ url, method: 'POST', headers, body, connections, duration, pipelining: 1 }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
  });
}

const dir = mkdtempSync(join(tmpdir(), 'gw-relay-bench-'));
const [upCmd, upArgs] = taskset(0, process.execPath, ['--import', 'tsx', 'bench/upstream.mts']);
const upstream = spawn(upCmd, upArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
const [, upstreamUrl, claudeUrl, geminiUrl] = await waitForLine(upstream, /upstream (\S+) claude (\S+) gemini (\S+)/);

// GATEWAY_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) profiles the gateway under load.
// BENCH_PROMISES=1 also counts the promises a call creates, gateway and floor (bench/count-promises.mjs):
// a figure the machine's noise does not move, but the counting hook does the CPU figures.
const COUNT_PROMISES = process.env.BENCH_PROMISES === '1';
const gatewayNodeArgs = [
  ...(process.env.GATEWAY_NODE_ARGS ?? '').split(' ').filter(Boolean),
  ...(COUNT_PROMISES ? ['--import', new URL('./count-promises.mjs', import.meta.url).href] : []),
];

/** The promises `proc` has created so far (it runs bench/count-promises.mjs). */
function promisesOf(proc) {
  return new Promise((resolve) => {
    let out = '';
    const onData = (d) => {
      out += d;
      const m = /promise-count (\d+)/.exec(out);
      if (!m) return;
      proc.stderr.off('data', onData);
      resolve(Number(m[1]));
    };
    proc.stderr.on('data', onData);
    proc.kill('SIGUSR2');
  });
}

/**
 * Starts a built gateway (`main`) on core 1 with a fresh database, the stand-in's channels and the
 * bench's payers; `dbName` keeps two gateways' databases apart.
 */
async function startGateway(main, dbName) {
  const port = await freePort();
  const [gwCmd, gwArgs] = taskset(1, process.execPath, [...gatewayNodeArgs, main]);
  const gateway = spawn(gwCmd, gwArgs, {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SQL_DSN: process.env.BENCH_SQL_DSN ?? '',
      SQLITE_PATH: join(dir, dbName),
      LOG_LEVEL: 'warn',
      GLOBAL_API_RATE_LIMIT: '1000000',
      // The stand-in upstream listens on loopback.
      ALLOW_PRIVATE_UPSTREAMS: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await waitForLine(gateway, /gateway listening/);
  const base = `http://127.0.0.1:${port}`;

  // Root (200 USD of quota: the pre-charge is skipped as for any large balance) with an unlimited
  // token, and a user with 8 USD on a token limited to the same (below the 10 USD shortcut: every call
  // reserves its estimate and settles), both on a channel to the stand-in.
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
  // Claude and Gemini clients reach channels of their own protocol: their streams pass through.
  await api(base, cookie, rootId, 'POST', '/api/channel/', {
    type: 14,
    name: 'claude',
    key: 'sk-ant-upstream',
    base_url: claudeUrl,
    models: 'claude-sonnet-4-20250514',
    group: 'default,vip,svip',
  });
  await api(base, cookie, rootId, 'POST', '/api/channel/', {
    type: 24,
    name: 'gemini',
    key: 'AIza-upstream',
    base_url: geminiUrl,
    models: 'gemini-2.5-flash',
    group: 'default,vip,svip',
  });
  // Claude's and Gemini's calls priced near gpt-4o-mini's, so that the small payer's balance lasts a
  // run of every mode as it does for OpenAI's (the price does not change the work of a call).
  const ratios = JSON.parse(
    (await api(base, cookie, rootId, 'GET', '/api/option/')).json.data.find((o) => o.key === 'ModelRatio').value,
  );
  await api(base, cookie, rootId, 'PUT', '/api/option/', {
    key: 'ModelRatio',
    value: JSON.stringify({ ...ratios, 'claude-sonnet-4-20250514': 0.002, 'gemini-2.5-flash': 0.002 }),
  });
  // The limited payer's group reaches only a channel with limits, far above what the bench sends.
  const MAX = 2147483647;
  await api(base, cookie, rootId, 'POST', '/api/channel/', {
    type: 1,
    name: 'stand-in-limited',
    key: 'sk-upstream-good',
    base_url: upstreamUrl,
    models: 'gpt-4o-mini',
    group: 'vip',
    rpm_limit: MAX,
    max_concurrency: 100000,
  });
  // `routed`: the same limits in svip, plus the token's request limits and channel affinity.
  const usable = { default: 'default', vip: 'vip', svip: 'svip' };
  await api(base, cookie, rootId, 'PUT', '/api/option/', { key: 'UserUsableGroups', value: JSON.stringify(usable) });
  await api(base, cookie, rootId, 'POST', '/api/channel/', {
    type: 1,
    name: 'stand-in-routed',
    key: 'sk-upstream-good',
    base_url: upstreamUrl,
    models: 'gpt-4o-mini',
    group: 'svip',
    rpm_limit: MAX,
    max_concurrency: 100000,
  });
  /** A new token's key; `tokens` keeps each token by its key, for refills. */
  const tokens = new Map();
  async function tokenKey(session, userId, remainQuota, extra = {}) {
    const token = (
      await api(base, session, userId, 'POST', '/api/token/', {
        name: 'bench',
        remain_quota: remainQuota,
        unlimited_quota: remainQuota === 0,
        expired_time: -1,
        ...extra,
      })
    ).json.data;
    const key = (await api(base, session, userId, 'POST', `/api/token/${token.id}/key`, {})).json.data.key;
    tokens.set(key, token);
    return key;
  }
  const SMALL = 4_000_000;
  const small = (
    await api(base, cookie, rootId, 'POST', '/api/user/', {
      username: 'bench-small',
      password: 'bench-pass-2',
      display_name: 'small',
    })
  ).json.data;
  await api(base, cookie, rootId, 'PUT', '/api/user/', { ...small, password: '', quota: SMALL });
  const smallLogin = await api(base, '', 0, 'POST', '/api/user/login', { username: 'bench-small', password: 'bench-pass-2' });
  // The subscription payer: no wallet, calls drawn only from a subscription's period (each call
  // reserves on the subscription and settles, as `small` does on the wallet).
  const sub = (
    await api(base, cookie, rootId, 'POST', '/api/user/', {
      username: 'bench-sub',
      password: 'bench-pass-3',
      display_name: 'sub',
    })
  ).json.data;
  const plan = (
    await api(base, cookie, rootId, 'POST', '/api/subscription/admin/plans', {
      plan: { title: 'bench', price_amount: 1, duration_unit: 'day', duration_value: 1, total_amount: 1e15 },
    })
  ).json.data;
  await api(base, cookie, rootId, 'POST', '/api/subscription/admin/bind', { user_id: sub.id, plan_id: plan.id });
  const subLogin = await api(base, '', 0, 'POST', '/api/user/login', { username: 'bench-sub', password: 'bench-pass-3' });
  await api(base, subLogin.cookie, sub.id, 'PUT', '/api/subscription/self/preference', {
    billing_preference: 'subscription_only',
  });
  const keys = {
    large: await tokenKey(cookie, rootId, 0),
    subscription: await tokenKey(subLogin.cookie, sub.id, 0),
    small: await tokenKey(smallLogin.cookie, small.id, SMALL),
    limited: await tokenKey(cookie, rootId, 0, { group: 'vip', tpm_limit: MAX }),
    routed: await tokenKey(cookie, rootId, 0, {
      group: 'svip',
      tpm_limit: MAX,
      max_concurrency: 100000,
      rpm_limit: MAX,
      rpd_limit: MAX,
    }),
  };
  // Channel affinity for the routed payer: every call looks its pin up.
  const rule = {
    name: 'bench',
    model_regex: ['^gpt-4o-mini$'],
    path_regex: ['^/v1/chat/completions$'],
    key_sources: [{ type: 'context_int', key: 'token_id' }],
    groups: ['svip'],
  };
  await api(base, cookie, rootId, 'PUT', '/api/option/', {
    key: 'channel_affinity_setting.rules',
    value: JSON.stringify([rule]),
  });
  await api(base, cookie, rootId, 'PUT', '/api/option/', { key: 'channel_affinity_setting.enabled', value: 'true' });
  await new Promise((r) => setTimeout(r, 1500)); // the channel cache reloads on the bus at once; leave margin
  /** The small payer's balances back to SMALL: a long run would otherwise spend them. */
  const refill = async () => {
    await api(base, cookie, rootId, 'PUT', '/api/user/', { ...small, password: '', quota: SMALL });
    const token = tokens.get(keys.small);
    await api(base, smallLogin.cookie, small.id, 'PUT', '/api/token/', { ...token, remain_quota: SMALL });
  };
  return { proc: gateway, base, keys, refill };
}

const current = await startGateway(process.env.BENCH_MAIN ?? 'dist/server/main.js', 'gw.db');
// BENCH_BEFORE=<a copy of an earlier dist/server/main.js> runs that build too, in the same turns:
// before/after figures from one run on this noisy machine.
const before = process.env.BENCH_BEFORE ? await startGateway(process.env.BENCH_BEFORE, 'before.db') : null;
const { base, keys } = current;
const gateway = current.proc;

const [blCmd, blArgs] = taskset(1, process.execPath, [
  ...gatewayNodeArgs,
  'bench/baseline.mjs',
  upstreamUrl,
  keys.large,
  claudeUrl,
  geminiUrl,
]);
const baseline = spawn(blCmd, blArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
const baselineUrl = (await waitForLine(baseline, /baseline (http:\/\/\S+)/))[1];

const bodies = {
  plain: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello!' }] }),
  stream: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello!' }], stream: true }),
  // The client asks for usage itself (as SDKs often do): every chunk then carries "usage":null.
  usage: JSON.stringify({
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: 'Hello!' }],
    stream: true,
    stream_options: { include_usage: true },
  }),
  claude: JSON.stringify({
    model: 'claude-sonnet-4-20250514',
    max_tokens: 256,
    stream: true,
    messages: [{ role: 'user', content: 'Hello!' }],
  }),
  gemini: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Hello!' }] }] }),
};
/** Where each mode's requests go, and how its format sends the key. */
const PATHS = {
  plain: '/v1/chat/completions',
  stream: '/v1/chat/completions',
  usage: '/v1/chat/completions',
  claude: '/v1/messages',
  gemini: '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
};
const HEADERS = {
  plain: (key) => ({ authorization: `Bearer ${key}` }),
  stream: (key) => ({ authorization: `Bearer ${key}` }),
  usage: (key) => ({ authorization: `Bearer ${key}` }),
  claude: (key) => ({ 'x-api-key': key, 'anthropic-version': '2023-06-01' }),
  gemini: (key) => ({ 'x-goog-api-key': key }),
};
const headersFor = (key, mode = 'plain') => ({ 'content-type': 'application/json', ...HEADERS[mode](key) });

let peakRss = rssMb(gateway.pid);
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, rssMb(gateway.pid));
}, 250);

/** A measured target: where it listens, its process, the key it takes, and its totals so far. */
function target(name, url, proc, key) {
  return { name, url, proc, pid: proc.pid, key, ticks: 0, ok: 0, errors: 0, promises: 0, rps: [], p50: [], p99: [], turns: [] };
}

/**
 * Loads the targets in turn, SLICE seconds each, round after round until each had SECONDS: noise on
 * a shared machine (other processes, frequency changes) then falls on all of them alike. Every other
 * round goes in reverse order: a target's turn follows another's, whose work left over (commits,
 * collection) runs on the same core, and in a fixed order one build always followed the other.
 */
async function measureInterleaved(targets, mode, connections) {
  const body = bodies[mode];
  const slice = Math.min(SLICE, SECONDS);
  for (let done = 0, round = 0; done < SECONDS; done += slice, round++) {
    for (const t of round % 2 === 0 ? targets : [...targets].reverse()) {
      const promisesBefore = COUNT_PROMISES ? await promisesOf(t.proc) : 0;
      const before = cpuTicks(t.pid);
      const r = await load(`${t.url}${PATHS[mode]}`, headersFor(t.key, mode), body, connections, slice);
      const ticks = cpuTicks(t.pid) - before;
      if (COUNT_PROMISES) t.promises += (await promisesOf(t.proc)) - promisesBefore;
      const ok = r.requests.total - r.errors - r.non2xx;
      t.ticks += ticks;
      t.ok += ok;
      // CPU per call in this turn alone, in the order of the rounds (the same for every target).
      t.turns.push(((ticks / CLK_TCK) * 1e6) / Math.max(1, ok));
      t.errors += r.errors + r.non2xx + r.timeouts;
      t.rps.push(r.requests.average);
      t.p50.push(r.latency.p50);
      t.p99.push(r.latency.p99);
    }
  }
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return targets.map((t) => ({
    ...t,
    rps: mean(t.rps),
    p50: mean(t.p50),
    p99: mean(t.p99),
    cpuUs: ((t.ticks / CLK_TCK) * 1e6) / Math.max(1, t.ok),
  }));
}

const SLICE = Number(process.env.BENCH_SLICE ?? 2);
const list = (name, all) => (process.env[name] ? process.env[name].split(',') : all);
const rows = [];
for (const mode of list('BENCH_MODES', ['plain', 'stream', 'usage', 'claude', 'gemini'])) {
  for (const connections of list('BENCH_CONNECTIONS', [50, 200]).map(Number)) {
    const body = bodies[mode];
    const payers = list('BENCH_PAYERS', ['large', 'small', 'subscription', 'limited', 'routed']);
    const targets = [
      target('baseline', baselineUrl, baseline, keys.large),
      ...payers.map((payer) => target(payer, base, gateway, keys[payer])),
      ...(before ? payers.map((p) => target(`${p}@before`, before.base, before.proc, before.keys[p])) : []),
    ];
    for (const gw of before ? [current, before] : [current]) await gw.refill();
    for (const t of targets) await load(`${t.url}${PATHS[mode]}`, headersFor(t.key, mode), body, connections, 2); // warm-up
    const [bl, ...gws] = await measureInterleaved(targets, mode, connections);
    for (const gw of gws) rows.push({ mode, connections, payer: gw.name, bl, gw });
  }
}

/** Per mode, the gateway's CPU per call over the floor's, each payer (the target: ≤ 2). */
function summary() {
  for (const mode of new Set(rows.map((r) => r.mode))) {
    const of = rows.filter((r) => r.mode === mode);
    const floor = of.reduce((a, r) => a + r.bl.cpuUs, 0) / of.length;
    const parts = of.map(
      (r) => `${r.payer}@${r.connections} ${r.gw.cpuUs.toFixed(0)} µs ×${(r.gw.cpuUs / r.bl.cpuUs).toFixed(2)}`,
    );
    console.log(`${mode}: floor ${floor.toFixed(0)} µs/call; ${parts.join(', ')}`);
  }
}

/** The median and range of per-round quotients `a[i] / b[i]`, as `1.23 [1.10-1.31]`. */
function perRound(a, b) {
  const q = a.map((x, i) => x / b[i]).sort((x, y) => x - y);
  const median = q.length % 2 ? q[(q.length - 1) / 2] : (q[q.length / 2 - 1] + q[q.length / 2]) / 2;
  return `${median.toFixed(2)} [${q[0].toFixed(2)}-${q.at(-1).toFixed(2)}]`;
}

/** The quotient of the cheapest turns of each: contention on this machine only ever adds CPU. */
const quietest = (a, b) => (Math.min(...a) / Math.min(...b)).toFixed(2);

/**
 * Each row's ratio round by round (the gateway's turn against the floor's turn of the same round),
 * and with BENCH_BEFORE each payer's after ÷ before round by round: paired turns share the machine's
 * state of the moment, so their quotient's spread says what a difference in the table is worth.
 */
function spread() {
  const rounds = rows[0]?.gw.turns.length ?? 0;
  console.log(
    `\nround by round (${rounds} rounds): ratio median [min-max], quietest${before ? '; after ÷ before median [min-max], quietest' : ''}`,
  );
  for (const { mode, connections, payer, bl, gw } of rows) {
    if (payer.endsWith('@before')) continue;
    const old = rows.find((r) => r.mode === mode && r.connections === connections && r.payer === `${payer}@before`);
    const paired = old ? `   ${perRound(gw.turns, old.gw.turns)} ${quietest(gw.turns, old.gw.turns)}` : '';
    console.log(
      `${mode.padEnd(7)} ${String(connections).padStart(4)}  ${payer.padEnd(12)}  ${perRound(gw.turns, bl.turns)} ${quietest(gw.turns, bl.turns)}${paired}`,
    );
  }
}

const SQL = process.env.BENCH_SQL_DSN ? process.env.BENCH_SQL_DSN.split(':')[0] : 'sqlite';
console.log(
  `\nrelay overhead on ${SQL} (${SECONDS} s per target in ${SLICE} s turns; gateway and baseline pinned to core 1, stand-in and load on core 0)`,
);
console.log(
  'mode    conc  payer         baseline req/s  gateway req/s  +p50 ms  +p99 ms  baseline CPU µs  gateway CPU µs  ratio  errors',
);
for (const { mode, connections, payer, bl, gw } of rows) {
  console.log(
    `${mode.padEnd(7)} ${String(connections).padStart(4)}  ${payer.padEnd(12)}  ${bl.rps.toFixed(0).padStart(14)}  ${gw.rps.toFixed(0).padStart(13)}  ${(gw.p50 - bl.p50).toFixed(1).padStart(7)}  ${(gw.p99 - bl.p99).toFixed(1).padStart(7)}  ${bl.cpuUs.toFixed(0).padStart(15)}  ${gw.cpuUs.toFixed(0).padStart(14)}  ${(gw.cpuUs / bl.cpuUs).toFixed(2).padStart(5)}  ${String(gw.errors + bl.errors).padStart(6)}`,
  );
}
summary();
spread();
if (COUNT_PROMISES) {
  console.log("\npromises per call (BENCH_PROMISES: the CPU figures above are the counting hook's)");
  for (const { mode, connections, payer, bl, gw } of rows) {
    const per = (t) => (t.promises / Math.max(1, t.ok)).toFixed(1);
    console.log(
      `${mode.padEnd(7)} ${String(connections).padStart(4)}  ${payer.padEnd(12)}  gateway ${per(gw)}  floor ${per(bl)}`,
    );
  }
}
console.log(`peak gateway RSS during the runs: ${peakRss.toFixed(1)} MB`);

if (SOAK_SECONDS > 0) {
  const samples = [];
  await current.refill();
  const soak = setInterval(() => samples.push(rssMb(gateway.pid)), 1000);
  const result = await load(`${base}/v1/chat/completions`, headersFor(keys.small), bodies.stream, 50, SOAK_SECONDS);
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
before?.proc.kill('SIGTERM');
baseline.kill('SIGTERM');
upstream.kill('SIGTERM');
await new Promise((r) => setTimeout(r, 500));
rmSync(dir, { recursive: true, force: true });
