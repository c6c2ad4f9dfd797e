// Builds the gateway's image from a clean checkout of HEAD on locally made base images and checks it
// with podman: contents (no dev dependencies, tests or secrets), the setup wizard, a relayed call to a
// stand-in upstream billed, data kept across a restart, and a clean exit on stop. Everything it makes
// (container, volume, checkout) is removed at the end; the base images are kept as a cache.
// `--runtime runc`, the ulimits and host networking are what this kind of machine allows (crun refuses
// its hybrid cgroups; raising limits is not permitted); the gateway listens on a free host port.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const RUN_FLAGS = ['--ulimit', 'nofile=1024:1024', '--ulimit', 'nproc=1024:1024', '--network', 'host'];
const GRACE_S = 45; // above the image's SHUTDOWN_TIMEOUT (30 s): a drained gateway exits well before
const id = `gw-check-${process.pid}`;
const image = `localhost/ai-gateway:check-${process.pid}`;
const started = performance.now();
process.chdir(fileURLToPath(new URL('..', import.meta.url)));
const lap = (label, since) => console.log(`  ${label}: ${((performance.now() - since) / 1000).toFixed(1)} s`);

function podman(args, opts = {}) {
  const r = spawnSync('podman', ['--runtime', 'runc', ...args], { encoding: 'utf8', ...opts });
  if (r.status !== 0 && !opts.allowFail) throw new Error(`podman ${args.join(' ')} failed:\n${r.stderr}`);
  return (r.stdout ?? '').trim();
}
function check(ok, what) {
  if (!ok) throw new Error(`CHECK FAILED: ${what}`);
  console.log(`  ok  ${what}`);
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function until(what, probe, ms = 60_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`CHECK FAILED: ${what} (waited ${ms / 1000} s)`);
    await sleep(300);
  }
}
function freePort() {
  const s = createServer();
  return new Promise((resolve) =>
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    }),
  );
}

// A stand-in OpenAI upstream: every chat completion answers with fixed, sizeable usage.
const upstream = createServer((req, res) => {
  let body = '';
  req.on('data', (d) => (body += d));
  req.on('end', () => {
    if (req.url !== '/v1/chat/completions') return res.writeHead(404).end('{}');
    const { model } = JSON.parse(body);
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: 'chatcmpl-standin',
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: 'Hello from the stand-in.' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 1000, completion_tokens: 500, total_tokens: 1500 },
      }),
    );
  });
});
const [port, upstreamPort] = [await freePort(), await freePort()];
await new Promise((r) => upstream.listen(upstreamPort, '127.0.0.1', r));
const base = `http://127.0.0.1:${port}`;

let session = { cookie: '', user: 0 };
async function api(method, path, body) {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', cookie: session.cookie, 'New-Api-User': String(session.user) },
    body: body && JSON.stringify(body),
  });
  const json = await res.json();
  if (!json.success) throw new Error(`${method} ${path}: ${res.status} ${json.message}`);
  if (res.headers.get('set-cookie')) session.cookie = res.headers.get('set-cookie').split(';')[0];
  return json.data;
}
async function login() {
  session = { cookie: '', user: 0 };
  session.user = (await api('POST', '/api/user/login', { username: 'root', password: 'container-check-1' })).id;
}
const quota = async () => (await api('GET', '/api/user/self')).quota;
const consumeRows = async () => (await api('GET', '/api/log/self?p=1&page_size=10&type=2')).items;
async function relay(key) {
  const res = await fetch(`${base}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello!' }] }),
  });
  const json = await res.json();
  return res.ok && json.choices?.[0]?.message?.content === 'Hello from the stand-in.';
}
function startContainer() {
  podman(['start', id]);
  return until('the container answers /healthz', async () => (await fetch(`${base}/healthz`)).ok);
}
function stopContainer() {
  const t = performance.now();
  podman(['stop', '-t', String(GRACE_S), id]);
  const seconds = (performance.now() - t) / 1000;
  const code = podman(['inspect', '--format', '{{.State.ExitCode}}', id]);
  check(code === '0' && seconds < GRACE_S - 1, `SIGTERM stops it cleanly: exit code ${code} after ${seconds.toFixed(1)} s`);
}

const checkout = mkdtempSync(join(tmpdir(), 'gw-checkout-'));
const volume = `${id}-data`;
let failed = false;
// Removes what this run made, also when CI interrupts it (the base images stay as the cache).
function cleanUp() {
  podman(['rm', '-f', '-t', '0', id], { allowFail: true });
  podman(['volume', 'rm', '-f', volume], { allowFail: true });
  podman(['rmi', '-f', image], { allowFail: true });
  rmSync(checkout, { recursive: true, force: true });
  upstream.close();
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    console.error(`\n${signal}: removing the check's container, volume and image`);
    cleanUp();
    process.exit(1);
  });
}

try {
  console.log('base images (kept between runs):');
  let t = performance.now();
  const [runtimeBase, buildBase] = execFileSync('scripts/container/base-image.sh', {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  })
    .trim()
    .split(' ');
  lap('ready', t);

  console.log(
    `image, built from a clean checkout of HEAD (${execFileSync('git', ['rev-parse', '--short', 'HEAD']).toString().trim()}):`,
  );
  execFileSync('sh', ['-c', `git archive HEAD | tar -x -C ${checkout}`]);
  t = performance.now();
  const ca = process.env.NODE_EXTRA_CA_CERTS; // an intercepting proxy's CA, for npm inside the build
  const build = ['build', '--format', 'docker', '--layers=false', ...RUN_FLAGS, '-t', image];
  build.push('--build-arg', `NODE_IMAGE=${runtimeBase}`, '--build-arg', `BUILD_IMAGE=${buildBase}`);
  if (ca) build.push('--secret', `id=extra_ca,src=${ca}`);
  const out = spawnSync('podman', ['--runtime', 'runc', ...build, checkout], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`podman build failed:\n${(out.stdout + out.stderr).slice(-4000)}`);
  lap('build time', t);
  const size = Number(podman(['image', 'inspect', '--format', '{{.Size}}', image]));
  console.log(`  image size: ${(size / 1e6).toFixed(0)} MB`);

  console.log('image contents:');
  const inImage = (script) => podman(['run', '--rm', ...RUN_FLAGS, '--user', '0', image, 'sh', '-c', script]).split('\n');
  const lock = JSON.parse(readFileSync(join(checkout, 'package-lock.json'), 'utf8')).packages;
  const devOnly = Object.keys(lock).filter((path) => lock[path].dev && path.lastIndexOf('node_modules/') === 0);
  const present = new Set(inImage('cd /app && ls -d node_modules/* node_modules/@*/*'));
  const devFound = devOnly.filter((path) => present.has(path));
  check(
    devOnly.length > 100 && devFound.length === 0,
    `none of the lock's ${devOnly.length} dev-only packages ${devFound.slice(0, 5)}`,
  );
  const strays = inImage('cd /app && find . -path ./node_modules -prune -o -type f -print').filter(
    (f) => !/^\.\/(package\.json|dist\/server\/main\.js(\.map)?|dist\/console\/.+)$/.test(f),
  );
  check(
    strays.length === 0,
    `beside node_modules only package.json and the build: no tests, sources or data ${strays.slice(0, 5)}`,
  );
  const secrets = inImage('ls -d /root/.npmrc /app/.env* /app/.git /run/secrets/* /data/* 2>/dev/null; true').filter(Boolean);
  check(secrets.length === 0, `no .npmrc, .env, .git, build secret or data left ${secrets}`);
  // The package trim must leave every package the bundle names loadable, lazily loaded drivers too
  // (imports found by keyword: Buffer.from("…") names no package).
  const loadAll = `const b = (await import('node:fs')).readFileSync('dist/server/main.js', 'utf8');
    const names = new Set([...b.matchAll(/(?<![.\\w$])(?:from|import|require)\\s*\\(?\\s*"([^"./][^"]*)"/g)].map((m) => m[1]));
    for (const name of names) await import(name);
    console.log(names.size);`;
  const loaded = podman(['run', '--rm', ...RUN_FLAGS, image, 'node', '--input-type=module', '-e', loadAll]);
  check(Number(loaded) > 20, `every one of the ${loaded} modules the server bundle imports loads`);
  check(podman(['image', 'inspect', '--format', '{{.Config.User}}', image]) === '1000:1000', 'runs as uid 1000, not root');
  check(podman(['image', 'inspect', '--format', '{{json .Config.Volumes}}', image]).includes('/data'), '/data is a volume');
  check(
    podman(['image', 'inspect', '--format', '{{json .Config.Healthcheck}}', image]).includes('/healthz'),
    'a HEALTHCHECK on /healthz',
  );

  console.log('setup and a relayed call:');
  podman(['volume', 'create', volume]);
  const env = { PORT: String(port), HOST: '127.0.0.1', ALLOW_PRIVATE_UPSTREAMS: 'true' };
  podman([
    'create',
    '--name',
    id,
    ...RUN_FLAGS,
    '-v',
    `${volume}:/data`,
    ...Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]),
    image,
  ]);
  t = performance.now();
  await startContainer();
  lap('start to /healthz', t);
  check(spawnSync('podman', ['--runtime', 'runc', 'healthcheck', 'run', id]).status === 0, 'podman healthcheck run passes');
  check((await api('GET', '/api/status')).setup === false, '/api/status: setup wizard pending');
  await api('POST', '/api/setup', { username: 'root', password: 'container-check-1', confirmPassword: 'container-check-1' });
  check((await api('GET', '/api/status')).setup === true, 'POST /api/setup created the root user');
  await login();
  await api('POST', '/api/channel/', {
    type: 1,
    name: 'stand-in',
    key: 'sk-standin',
    base_url: `http://127.0.0.1:${upstreamPort}`,
    models: 'gpt-4o-mini',
    group: 'default',
  });
  const token = await api('POST', '/api/token/', { name: 'check', remain_quota: 0, unlimited_quota: true, expired_time: -1 });
  const key = (await api('POST', `/api/token/${token.id}/key`, {})).key;
  const before = await quota();
  check(await until('a relayed call is answered', () => relay(key), 10_000), 'the stand-in answered a relayed chat completion');
  const after = await until('the call is billed', async () => ((await quota()) < before ? quota() : 0), 20_000);
  const rows = await until('a consume log row', async () => ((await consumeRows()).length ? consumeRows() : 0), 20_000);
  check(after < before && rows.length === 1, `billed: quota ${before} → ${after}, one consume log row (${rows[0].quota} quota)`);

  console.log('restart:');
  stopContainer();
  await startContainer();
  await login();
  check((await api('GET', '/api/status')).setup === true, 'setup is still done');
  check((await quota()) === after && (await consumeRows()).length === 1, 'quota and the log row were kept');
  check(await relay(key), 'the token and channel still relay');
  await until('the second call is billed', async () => (await quota()) < after, 20_000);

  console.log('stop:');
  stopContainer();
} catch (err) {
  failed = true;
  console.error(`\n${err.message}`);
  const logs = podman(['logs', '--tail', '40', id], { allowFail: true });
  if (logs) console.error(`\nlast container output:\n${logs}`);
} finally {
  cleanUp();
}
lap(failed ? 'container check FAILED after' : 'container check passed in', started);
process.exit(failed ? 1 : 0);
