import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { ApiClient, startTestGateway } from '../helpers/gateway.js';
import { availableDatabases } from '../helpers/databases.js';
import { spawnGateway } from '../helpers/process.js';
import { startOpenAIStandIn } from '../helpers/upstreams/openai.js';
import { openDb } from '../../server/db/index.js';

const TOKEN = 'metrics-secret-123';

/** Prometheus text: each sample line is `name{labels} value`. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*(?:\{.*\})?) (-?[\d.e+-]+|NaN|[+-]Inf)$/i.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    out.set(match[1]!, Number(match[2]));
  }
  return out;
}

describe('metrics, request ids and health', () => {
  let f: RelayFixture;
  beforeAll(async () => {
    f = await startRelayFixture('sqlite', { env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(async () => f?.close());

  const metrics = async () => {
    const res = await fetch(f.tg.url + '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    return samples(await res.text());
  };

  it('serves metrics only with the token, and they move after a relayed call', async () => {
    expect((await fetch(f.tg.url + '/metrics')).status).toBe(401);
    expect((await fetch(f.tg.url + '/metrics', { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    const served = (all: Map<string, number>) =>
      [...all]
        .filter(([k]) =>
          /^gateway_relay_requests_total\{format="openai",model="gpt-4o-mini",channel="\d+",status="200"\}$/.test(k),
        )
        .reduce((sum, [, v]) => sum + v, 0);
    const before = await metrics();
    const done = await f.openai().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    expect(done.choices[0]?.message.content).toBeTruthy();
    const stream = await f
      .openai()
      .chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], stream: true });
    for await (const _chunk of stream) void _chunk;
    await f.flush();
    const after = await metrics();
    expect(served(after) - served(before)).toBe(2);
    expect(after.get('gateway_quota_billed_total{model="gpt-4o-mini"}')).toBeGreaterThan(
      before.get('gateway_quota_billed_total{model="gpt-4o-mini"}') ?? 0,
    );
    expect(after.get('gateway_relay_first_token_seconds_count{format="openai"}')).toBeGreaterThanOrEqual(1);
    expect(after.get('gateway_in_flight{kind="stream"}')).toBe(0);
    expect(after.has('nodejs_eventloop_lag_seconds')).toBe(true);
    expect(after.get('gateway_journal_commit_seconds_count')).toBeGreaterThan(0);
    // A refused call is counted without minting a series for the model it named.
    await fetch(f.tg.url + '/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${f.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'made-up-model-x', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect([...(await metrics()).keys()].some((k) => k.includes('made-up-model-x'))).toBe(false);
  });

  it('gives every answer a request id, stored on the log row', async () => {
    const res = await fetch(f.tg.url + '/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${f.key}`, 'content-type': 'application/json', 'x-request-id': 'forged' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], stream: true }),
    });
    await res.text();
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^\d{14}[0-9a-f]{12}$/);
    expect(res.headers.get('x-oneapi-request-id')).toBe(id);
    const row = await f.lastLog();
    expect(JSON.parse(row.other ?? '{}').request_id).toBe(id);
    expect((await fetch(f.tg.url + '/api/status')).headers.get('x-request-id')).toMatch(/^\d{14}/);
  });

  it('answers /healthz and /readyz', async () => {
    expect((await fetch(f.tg.url + '/healthz')).status).toBe(200);
    const ready = await fetch(f.tg.url + '/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready', database: true, log_database: true, redis: true });
  });
});

describe('readiness without a database', async () => {
  const kinds = await availableDatabases();
  it.runIf(kinds.includes('postgres'))('fails /readyz once PostgreSQL is gone, while /healthz still answers', async () => {
    const tg = await startTestGateway('postgres');
    try {
      expect((await fetch(tg.url + '/readyz')).status).toBe(200);
      await tg.database.drop();
      const res = await fetch(tg.url + '/readyz');
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ database: false });
      expect((await fetch(tg.url + '/healthz')).status).toBe(200);
    } finally {
      await tg.gateway.close().catch(() => undefined);
    }
  });
});

describe('graceful shutdown', () => {
  it('lets 20 streams finish on SIGTERM, writes every log row with its request id, and exits 0', async () => {
    const upstream = await startOpenAIStandIn();
    const dir = mkdtempSync(join(tmpdir(), 'gw-shutdown-'));
    const path = join(dir, 'gw.db');
    const gw = await spawnGateway({ SQLITE_PATH: path, SQL_DSN: '', LOG_LEVEL: 'info', SHUTDOWN_TIMEOUT: '20' });
    let logOutput = '';
    gw.child.stdout?.on('data', (c: Buffer) => (logOutput += c.toString()));
    try {
      const root = new ApiClient(gw.url);
      expect(
        (await root.post('/api/setup', { username: 'root', password: 'root-pass-123', confirmPassword: 'root-pass-123' })).body
          .success,
      ).toBe(true);
      await root.login('root', 'root-pass-123');
      const ratios = JSON.parse(
        (await root.get('/api/option/')).body.data.find((o: { key: string }) => o.key === 'ModelRatio').value,
      );
      await root.put('/api/option/', { key: 'ModelRatio', value: JSON.stringify({ ...ratios, 'drip-40': 1 }) });
      await root.post('/api/channel/', {
        type: 1,
        name: 's',
        key: 'k',
        base_url: upstream.url,
        models: 'drip-40',
        group: 'default',
      });
      const token = (await root.post('/api/token/', { name: 't', unlimited_quota: true, expired_time: -1 })).body.data;
      const key = (await root.post(`/api/token/${token.id}/key`)).body.data.key;
      await new Promise((r) => setTimeout(r, 300)); // the channel cache picks the channel up

      const streams = Array.from({ length: 20 }, async () => {
        const res = await fetch(gw.url + '/v1/chat/completions', {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'drip-40', messages: [{ role: 'user', content: 'hi' }], stream: true }),
        });
        const text = await res.text();
        return { status: res.status, done: text.includes('[DONE]'), id: res.headers.get('x-request-id') };
      });
      // SIGTERM once every stream is in flight (it reached the upstream), not after a guessed delay:
      // on a busy machine a request not yet read when the listener closes is refused, not drained.
      const deadline = Date.now() + 20_000;
      while (upstream.requests.filter((r) => r.url.includes('/chat/completions')).length < 20 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 10));
      }
      // A connection that never carried a request (a browser's preconnect) must not hold the exit up.
      const { port } = new URL(gw.url);
      const unused = connect(Number(port), '127.0.0.1');
      await new Promise((r) => unused.once('connect', r));
      const unusedClosed = new Promise((r) => unused.once('close', r));
      unused.on('error', () => undefined);
      const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
        gw.child.once('exit', (code) => resolve({ code, at: Date.now() })),
      );
      gw.child.kill('SIGTERM');
      const answers = await Promise.all(streams);
      const answered = Date.now();
      expect(answers.every((a) => a.status === 200 && a.done)).toBe(true);
      const exit = await exited;
      expect(exit.code).toBe(0);
      // SHUTDOWN_TIMEOUT is 20 s: the exit follows the last stream, not the deadline.
      expect(exit.at - answered).toBeLessThan(8_000);
      await unusedClosed;

      const handle = await openDb({ kind: 'sqlite', path });
      const rows = await handle.db.selectFrom('logs').select(['other', 'quota']).where('type', '=', 2).execute();
      await handle.close();
      const ids = rows.map((r) => JSON.parse(r.other ?? '{}').request_id);
      expect(new Set(ids)).toEqual(new Set(answers.map((a) => a.id)));
      expect(rows.every((r) => Number(r.quota) > 0)).toBe(true);
      // Log lines are JSON and carry the same ids.
      const lines = logOutput.split('\n').filter((l) => l.startsWith('{'));
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.some((l) => l.includes(answers[0]!.id!))).toBe(true);
    } finally {
      await gw.stop();
      await upstream.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
