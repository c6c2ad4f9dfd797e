#!/usr/bin/env node
/**
 * Runs the real coding-agent CLIs (Claude Code, Codex, Gemini CLI, Qwen Code), installed from npm into
 * a cache prefix, against a local gateway (dist/server/main.js on a temporary SQLite) whose one
 * channel is an OpenAI-chat stand-in; records what each CLI sent at the gateway's door into
 * tests/fixtures/agents/<cli>/, and prints a matrix: CLI × answered, statuses, quota billed.
 *
 *   npm run build:server && node scripts/agents/run.mjs [--only claude,codex] [--timeout 120]
 *       [--prefix DIR] [--no-install] [--no-fixtures] [--no-isolate]
 *
 * The CLIs' network is loopback only: after the npm install the run re-executes itself under
 * `unshare -rn` (a network namespace with nothing but `lo`), unless --no-isolate or unshare is
 * missing. In both cases HTTP(S)_PROXY points at a loopback proxy that refuses and records every
 * vendor host a CLI tries (telemetry, update checks, logins), listed in the matrix.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const PACKAGES = {
  claude: '@anthropic-ai/claude-code',
  codex: '@openai/codex',
  gemini: '@google/gemini-cli',
  qwen: '@qwen-code/qwen-code',
};
/** The models each CLI is told to use (all on the one stand-in channel). */
const MODELS = {
  claude: 'claude-sonnet-4-5',
  claudeSmall: 'claude-haiku-4-5',
  codex: 'gpt-5-codex',
  gemini: 'gemini-2.5-flash',
  qwen: 'qwen3-coder-plus',
};
const REPLY = 'pong from the stand-in';
const PROMPT = 'Reply with one word: pong. Do not use any tools.';

function parseArgs(argv) {
  const opts = {
    only: Object.keys(PACKAGES),
    timeout: 120,
    prefix: join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'ai-gateway-agents'),
    install: true,
    fixtures: true,
    isolate: true,
    inner: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--only') opts.only = argv[++i].split(',');
    else if (a === '--timeout') opts.timeout = Number(argv[++i]);
    else if (a === '--prefix') opts.prefix = resolve(argv[++i]);
    else if (a === '--no-install') opts.install = false;
    else if (a === '--no-fixtures') opts.fixtures = false;
    else if (a === '--no-isolate') opts.isolate = false;
    else if (a === '--inner') opts.inner = true;
    else throw new Error(`unknown argument ${a}`);
  }
  for (const cli of opts.only) if (!PACKAGES[cli]) throw new Error(`unknown CLI ${cli}`);
  return opts;
}

const opts = parseArgs(process.argv.slice(2));

if (!opts.inner) {
  if (opts.install) {
    mkdirSync(opts.prefix, { recursive: true });
    const pkgs = opts.only.map((cli) => `${PACKAGES[cli]}@latest`);
    console.log(`installing ${pkgs.join(' ')} into ${opts.prefix}`);
    const npm = spawnSync('npm', ['i', '--prefix', opts.prefix, '--no-audit', '--no-fund', ...pkgs], { stdio: 'inherit' });
    if (npm.status !== 0) process.exit(npm.status ?? 1);
  }
  if (!existsSync(join(ROOT, 'dist/server/main.js'))) {
    console.error('dist/server/main.js is missing: run `npm run build:server` first');
    process.exit(1);
  }
  const args = [...process.argv.slice(2).filter((a) => a !== '--no-install'), '--inner', '--no-install'];
  const self = [fileURLToPath(import.meta.url), ...args];
  // A new network namespace starts with `lo` down: bring it up, then run the inner part there.
  const canIsolate = opts.isolate && spawnSync('unshare', ['-rn', 'ip', 'link', 'set', 'lo', 'up']).status === 0;
  if (!canIsolate) console.warn('network NOT isolated (no unshare or --no-isolate): vendor calls only go to the refusing proxy');
  const run = canIsolate
    ? spawnSync('unshare', ['-rn', 'sh', '-c', 'ip link set lo up && exec "$0" "$@"', process.execPath, ...self], {
        stdio: 'inherit',
        env: { ...process.env, AGENTS_ISOLATED: '1' },
      })
    : spawnSync(process.execPath, self, { stdio: 'inherit' });
  process.exit(run.status ?? 1);
}

// ---------------------------------------------------------------- inner run (loopback only)

const work = mkdtempSync(join(tmpdir(), 'agents-run-'));
const children = [];

function listen(server) {
  return new Promise((res) => server.listen(0, '127.0.0.1', () => res(server.address().port)));
}

function readBody(req) {
  return new Promise((res, rej) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => res(Buffer.concat(chunks)));
    req.on('error', rej);
  });
}

/** An OpenAI chat stand-in: answers REPLY (streamed or not) with usage by a simple token rule. */
async function startUpstream() {
  const server = createServer(async (req, res) => {
    const raw = (await readBody(req)).toString();
    const url = new URL(req.url, 'http://x');
    if (req.method === 'GET' && url.pathname.endsWith('/models')) {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ object: 'list', data: Object.values(MODELS).map((id) => ({ id, object: 'model' })) }));
      return;
    }
    if (req.method !== 'POST' || !url.pathname.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `stand-in serves chat only, not ${req.method} ${url.pathname}` } }));
      return;
    }
    const body = JSON.parse(raw || '{}');
    const usage = { prompt_tokens: Math.ceil(raw.length / 4), completion_tokens: 5, total_tokens: 0 };
    usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
    const id = `chatcmpl-${randomBytes(6).toString('hex')}`;
    const base = { id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: body.model };
    if (body.stream) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const send = (o) => res.write(`data: ${JSON.stringify(o)}\n\n`);
      send({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
      send({ ...base, choices: [{ index: 0, delta: { content: REPLY }, finish_reason: null }] });
      send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
      if (body.stream_options?.include_usage) send({ ...base, choices: [], usage });
      res.end('data: [DONE]\n\n');
      return;
    }
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({
        ...base,
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content: REPLY }, finish_reason: 'stop' }],
        usage,
      }),
    );
  });
  return { server, port: await listen(server) };
}

/**
 * The CLIs' HTTP(S)_PROXY: passes what is bound for loopback (some CLIs ignore NO_PROXY), refuses
 * everything else and remembers the host each CLI tried to reach.
 */
async function startRefusingProxy() {
  const hosts = new Set();
  const loopback = (host) => /^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/.test(host);
  const server = createServer((req, res) => {
    let url;
    try {
      url = new URL(req.url);
    } catch {
      hosts.add(req.url);
      res.writeHead(403).end('loopback only');
      return;
    }
    if (!loopback(url.host)) {
      hosts.add(url.host);
      res.writeHead(403).end('loopback only');
      return;
    }
    const onward = httpRequest(
      { host: '127.0.0.1', port: url.port, method: req.method, path: url.pathname + url.search, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode, answer.headers);
        answer.pipe(res);
      },
    );
    onward.on('error', () => res.writeHead(502).end());
    req.pipe(onward);
  });
  server.on('connect', (req, socket, head) => {
    if (!loopback(req.url)) {
      hosts.add(req.url);
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const onward = connect(Number(req.url.split(':').pop()), '127.0.0.1', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      onward.write(head);
      onward.pipe(socket);
      socket.pipe(onward);
    });
    onward.on('error', () => socket.destroy());
    socket.on('error', () => onward.destroy());
  });
  return { server, hosts, port: await listen(server) };
}

const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'x-goog-api-key', 'api-key', 'cookie', 'proxy-authorization']);

/** A pass-through in front of the gateway that keeps each request (secrets redacted) by the CLI whose key it carries. */
async function startRecorder(gatewayPort, keys) {
  const records = [];
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const url = new URL(req.url, 'http://x');
    const headerText = JSON.stringify(req.headers) + url.search;
    const cli = Object.keys(keys).find((c) => headerText.includes(keys[c])) ?? 'unknown';
    for (const k of ['key']) if (url.searchParams.has(k)) url.searchParams.set(k, '<redacted>');
    const headers = {};
    for (const [k, v] of Object.entries(req.headers)) headers[k] = SECRET_HEADERS.has(k) ? '<redacted>' : v;
    const text = body.toString();
    let parsed = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    const record = { cli, method: req.method, path: url.pathname + url.search, headers, body: parsed, status: 0 };
    records.push(record);
    const upstream = httpRequest(
      { host: '127.0.0.1', port: gatewayPort, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        record.status = answer.statusCode;
        res.writeHead(answer.statusCode, answer.headers);
        const kept = [];
        answer.on('data', (c) => {
          if (kept.length < 64) kept.push(c);
          res.write(c);
        });
        answer.on('end', () => {
          if (answer.statusCode >= 400) record.error = Buffer.concat(kept).toString().slice(0, 500);
          res.end();
        });
      },
    );
    upstream.on('error', (err) => {
      record.status = 502;
      res.writeHead(502).end(String(err));
    });
    upstream.end(body);
  });
  return { server, records, port: await listen(server) };
}

async function freePort() {
  const s = createServer();
  const port = await listen(s);
  await new Promise((r) => s.close(r));
  return port;
}

async function startGateway() {
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'dist/server/main.js')], {
    cwd: work,
    env: {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      PORT: String(port),
      SQLITE_PATH: join(work, 'gateway.db'),
      CONSOLE_DIR: '',
      LOG_LEVEL: 'warn',
      ALLOW_PRIVATE_UPSTREAMS: 'true',
      SESSION_SECRET: randomBytes(16).toString('hex'),
      SYNC_FREQUENCY: '1',
      GLOBAL_API_RATE_LIMIT: '100000',
      CRITICAL_RATE_LIMIT: '100000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let log = '';
  child.stdout.on('data', (c) => (log += c));
  child.stderr.on('data', (c) => (log += c));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`gateway exited: ${log}`);
    try {
      const res = await fetch(`${url}/api/status`);
      if (res.ok) return { url, port, log: () => log };
      if (i === 99) log += `status ${res.status} ${await res.text()}`;
    } catch (err) {
      if (i === 99) log += String(err.cause ?? err);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`gateway did not start: ${log}`);
}

/** A console session (cookie + New-Api-User). */
function consoleClient(base) {
  let cookie = '';
  let userId = null;
  const call = async (method, path, body) => {
    const headers = { 'content-type': 'application/json' };
    if (cookie) headers.cookie = cookie;
    if (userId !== null) headers['New-Api-User'] = String(userId);
    const res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const set = res.headers.getSetCookie().find((c) => c.startsWith('session='));
    if (set) cookie = set.split(';')[0];
    const json = await res.json();
    if (!json.success) throw new Error(`${method} ${path}: ${JSON.stringify(json)}`);
    if (path === '/api/user/login') userId = json.data.id;
    return json.data;
  };
  return call;
}

async function setUp(gatewayUrl, upstreamPort) {
  const root = consoleClient(gatewayUrl);
  const password = `root-${randomBytes(6).toString('hex')}`;
  await root('POST', '/api/setup', { username: 'root', password, confirmPassword: password });
  await root('POST', '/api/user/login', { username: 'root', password });
  const options = await root('GET', '/api/option/');
  const ratios = JSON.parse(options.find((o) => o.key === 'ModelRatio').value);
  for (const m of Object.values(MODELS)) ratios[m] ??= 1;
  await root('PUT', '/api/option/', { key: 'ModelRatio', value: JSON.stringify(ratios) });
  await root('POST', '/api/channel/', {
    type: 8, // Custom: OpenAI-compatible chat, so /v1/responses and the other formats are converted
    name: 'chat stand-in',
    key: 'sk-upstream-standin',
    base_url: `http://127.0.0.1:${upstreamPort}`,
    models: Object.values(MODELS).join(','),
    group: 'default',
  });
  const userPassword = `agent-${randomBytes(6).toString('hex')}`;
  await root('POST', '/api/user/', { username: 'agents', password: userPassword, display_name: 'agents' });
  const found = await root('GET', '/api/user/search?keyword=agents');
  const id = found.items[0].id;
  await root('PUT', '/api/user/', { id, username: 'agents', display_name: 'agents', quota: 500_000_000, group: 'default' });
  const user = consoleClient(gatewayUrl);
  await user('POST', '/api/user/login', { username: 'agents', password: userPassword });
  const keys = {};
  for (const name of [...opts.only, 'probe']) {
    const token = await user('POST', '/api/token/', { name, remain_quota: 0, unlimited_quota: true, expired_time: -1 });
    const key = (await user('POST', `/api/token/${token.id}/key`, {})).key;
    keys[name] = key.startsWith('sk-') ? key : `sk-${key}`;
  }
  // The channel cache follows writes; wait until the stand-in answers through the gateway.
  for (let i = 0; ; i++) {
    const res = await fetch(`${gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keys.probe}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODELS.qwen, messages: [{ role: 'user', content: 'hi' }] }),
    });
    if (res.ok) break;
    if (i > 50) throw new Error(`the gateway does not relay: ${res.status} ${await res.text()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { root, keys };
}

function cliBin(name) {
  return join(opts.prefix, 'node_modules/.bin', name);
}

function version(cli) {
  try {
    return JSON.parse(readFileSync(join(opts.prefix, 'node_modules', PACKAGES[cli], 'package.json'), 'utf8')).version;
  } catch {
    return 'missing';
  }
}

/** Per CLI: the command, its environment and the files its fresh HOME needs. */
function invocation(cli, base, key, home) {
  const common = {
    HOME: home,
    PATH: process.env.PATH,
    TERM: 'dumb',
    NO_COLOR: '1',
    CI: '1',
    DISABLE_TELEMETRY: '1',
    DO_NOT_TRACK: '1',
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
  };
  const settings = (dir, extra = {}) => {
    mkdirSync(join(home, dir), { recursive: true });
    writeFileSync(
      join(home, dir, 'settings.json'),
      JSON.stringify(
        {
          telemetry: { enabled: false },
          privacy: { usageStatisticsEnabled: false },
          usageStatisticsEnabled: false,
          general: { disableAutoUpdate: true, disableUpdateNag: true, checkpointing: { enabled: false } },
          ...extra,
        },
        null,
        2,
      ),
    );
  };
  switch (cli) {
    case 'claude':
      return {
        cmd: cliBin('claude'),
        args: ['-p', PROMPT, '--model', MODELS.claude, '--output-format', 'text'],
        env: {
          ...common,
          ANTHROPIC_BASE_URL: base,
          ANTHROPIC_API_KEY: key,
          ANTHROPIC_SMALL_FAST_MODEL: MODELS.claudeSmall,
          ANTHROPIC_DEFAULT_HAIKU_MODEL: MODELS.claudeSmall,
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          DISABLE_AUTOUPDATER: '1',
          DISABLE_ERROR_REPORTING: '1',
          DISABLE_BUG_COMMAND: '1',
          CLAUDE_CODE_USE_BEDROCK: '',
        },
      };
    case 'codex':
      return {
        cmd: cliBin('codex'),
        args: [
          'exec',
          '--skip-git-repo-check',
          '-m',
          MODELS.codex,
          '-c',
          'model_provider="gateway"',
          '-c',
          `model_providers.gateway={ name = "gateway", base_url = "${base}/v1", env_key = "GATEWAY_API_KEY", wire_api = "responses" }`,
          '-c',
          'check_for_update_on_startup=false',
          '-c',
          'analytics.enabled=false',
          '-c',
          'otel.exporter="none"',
          PROMPT,
        ],
        env: { ...common, CODEX_HOME: join(home, '.codex'), GATEWAY_API_KEY: key },
        setup: () => mkdirSync(join(home, '.codex'), { recursive: true }),
      };
    case 'gemini':
      return {
        cmd: cliBin('gemini'),
        args: ['-p', PROMPT, '-m', MODELS.gemini],
        env: { ...common, GOOGLE_GEMINI_BASE_URL: base, GEMINI_API_KEY: key, GEMINI_CLI_TRUST_WORKSPACE: 'true' },
        setup: () =>
          settings('.gemini', { security: { auth: { selectedType: 'gemini-api-key' } }, selectedAuthType: 'gemini-api-key' }),
      };
    case 'qwen':
      return {
        cmd: cliBin('qwen'),
        args: ['-p', PROMPT, '--auth-type', 'openai', '-m', MODELS.qwen],
        env: { ...common, OPENAI_BASE_URL: `${base}/v1`, OPENAI_API_KEY: key, OPENAI_MODEL: MODELS.qwen },
        setup: () => settings('.qwen', { security: { auth: { selectedType: 'openai' } }, selectedAuthType: 'openai' }),
      };
    default:
      throw new Error(cli);
  }
}

function runCli(cli, base, key, proxyPort) {
  const home = join(work, `home-${cli}`);
  mkdirSync(home, { recursive: true });
  const inv = invocation(cli, base, key, home);
  inv.setup?.();
  const proxy = `http://127.0.0.1:${proxyPort}`;
  const env = { ...inv.env, HTTP_PROXY: proxy, HTTPS_PROXY: proxy, http_proxy: proxy, https_proxy: proxy };
  return new Promise((resolveRun) => {
    const started = Date.now();
    const child = spawn(inv.cmd, inv.args, { cwd: home, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    children.push(child);
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }, opts.timeout * 1000);
    child.on('error', (e) => {
      err += String(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolveRun({ code, timedOut, out, err, seconds: Math.round((Date.now() - started) / 1000) });
    });
  });
}

/** The log rows billed to a token, after the gateway's queued writes land. */
async function billed(root, tokenName) {
  let last = '';
  for (let i = 0; i < 20; i++) {
    const page = await root('GET', `/api/log/?token_name=${tokenName}&page_size=100&type=2`);
    const sig = JSON.stringify(page.items.map((r) => [r.id, r.quota]));
    if (i > 2 && sig === last) return page.items;
    last = sig;
    await new Promise((r) => setTimeout(r, 500));
  }
  return [];
}

function redactText(text, keys, home) {
  let t = text;
  for (const k of Object.values(keys)) t = t.split(k).join('<redacted>');
  return t.split(home).join('<home>').split(work).join('<work>');
}

function writeFixtures(cli, records, keys, meta) {
  const dir = join(ROOT, 'tests/fixtures/agents', cli);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  records.forEach((r, i) => {
    const slug = r.path
      .split('?')[0]
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60);
    const { cli: _cli, ...rest } = r;
    const text = redactText(JSON.stringify({ cli, version: meta.version, ...rest }, null, 2), keys, join(work, `home-${cli}`));
    writeFileSync(join(dir, `${String(i + 1).padStart(2, '0')}-${r.method.toLowerCase()}-${slug}.json`), `${text}\n`);
  });
}

async function main() {
  console.log(`isolated network: ${process.env.AGENTS_ISOLATED === '1' ? 'yes (unshare -rn, loopback only)' : 'no'}`);
  const upstream = await startUpstream();
  const proxy = await startRefusingProxy();
  const gateway = await startGateway();
  const { root, keys } = await setUp(gateway.url, upstream.port);
  const recorder = await startRecorder(gateway.port, keys);
  const base = `http://127.0.0.1:${recorder.port}`;
  const rows = [];
  for (const cli of opts.only) {
    const v = version(cli);
    if (v === 'missing') {
      rows.push({ cli, version: v, result: 'not installed' });
      continue;
    }
    proxy.hosts.clear();
    console.log(`\n=== ${cli} ${v}`);
    const run = await runCli(cli, base, keys[cli], proxy.port);
    const records = recorder.records.filter((r) => r.cli === cli);
    const logs = await billed(root, cli);
    const answered = run.out.includes(REPLY.split(' ')[0]) && run.code === 0;
    const result = answered ? 'answered' : run.timedOut ? `timeout ${opts.timeout}s` : `error (exit ${run.code})`;
    const statuses = records.map((r) => `${r.method} ${r.path.split('?')[0]} ${r.status}`);
    console.log(`exit ${run.code}${run.timedOut ? ' (timed out)' : ''} in ${run.seconds}s`);
    console.log(`stdout: ${redactText(run.out.trim().slice(-400), keys, work)}`);
    if (!answered) console.log(`stderr: ${redactText(run.err.trim().slice(-1500), keys, work)}`);
    for (const r of records) console.log(`  ${r.method} ${r.path} → ${r.status}${r.error ? ` ${r.error.slice(0, 200)}` : ''}`);
    rows.push({
      cli,
      version: v,
      result,
      requests: statuses,
      billedRows: logs.length,
      quota: logs.reduce((s, r) => s + (r.quota ?? 0), 0),
      models: [...new Set(logs.map((r) => r.model_name))].join(' '),
      vendorHosts: [...proxy.hosts].join(' ') || '-',
    });
    if (opts.fixtures && records.length > 0) writeFixtures(cli, records, keys, { version: v });
  }
  console.log(
    '\n| CLI | version | result | requests (method path status) | billed rows | quota | models billed | vendor hosts tried |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of rows)
    console.log(
      `| ${r.cli} | ${r.version} | ${r.result} | ${(r.requests ?? []).join('<br>') || '-'} | ${r.billedRows ?? '-'} | ${r.quota ?? '-'} | ${r.models || '-'} | ${r.vendorHosts ?? '-'} |`,
    );
  for (const s of [upstream.server, proxy.server, recorder.server]) s.close();
}

function cleanUp() {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
}

main()
  .then(() => {
    cleanUp();
    process.exit(0);
  })
  .catch((err) => {
    console.error(err);
    cleanUp();
    process.exit(1);
  });
