/**
 * OpenTelemetry traces against an OTLP/HTTP stand-in collector: one server span per relayed call
 * with the GenAI attributes, under the caller's trace, a client span per upstream attempt, and the
 * attempt's trace context sent upstream. Off (no endpoint), nothing of it runs or is loaded.
 */
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenLocally } from '../helpers/upstreams/stand-in-server.js';
import { must } from '../helpers/gateway.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { tracingOf } from '../../server/observability/tracing.js';
import { ConfigError, loadConfig } from '../../server/config.js';

interface Posted {
  contentType: string;
  body: Buffer;
}

async function startCollector() {
  const posts: Posted[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces') posts.push({ contentType: String(req.headers['content-type']), body: Buffer.concat(chunks) });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  return { posts, ...(await listenLocally(server)) };
}

type Attr = { key: string; value: Record<string, unknown> };
interface JsonSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  status?: { code?: number; message?: string };
  attributes: Attr[];
}

function valueOf(v: Record<string, unknown>): unknown {
  if ('stringValue' in v) return v.stringValue;
  if ('intValue' in v) return Number(v.intValue);
  if ('doubleValue' in v) return v.doubleValue;
  if ('boolValue' in v) return v.boolValue;
  if ('arrayValue' in v) return ((v.arrayValue as { values?: Record<string, unknown>[] }).values ?? []).map(valueOf);
  return undefined;
}

const attrs = (span: JsonSpan): Record<string, unknown> =>
  Object.fromEntries(span.attributes.map((a) => [a.key, valueOf(a.value)]));

function spansOf(posts: Posted[]): JsonSpan[] {
  return posts.flatMap((p) =>
    (JSON.parse(p.body.toString('utf8')).resourceSpans ?? []).flatMap((r: any) =>
      r.scopeSpans.flatMap((s: any) => s.spans as JsonSpan[]),
    ),
  );
}

const SERVER = 2;
const CLIENT = 3;
const ERROR = 2;

function traceparent(): { header: string; traceId: string; parentId: string } {
  const traceId = randomBytes(16).toString('hex');
  const parentId = randomBytes(8).toString('hex');
  return { header: `00-${traceId}-${parentId}-01`, traceId, parentId };
}

describe('traces over OTLP/HTTP (JSON, the exporter default)', () => {
  let f: RelayFixture;
  let collector: Awaited<ReturnType<typeof startCollector>>;

  const chat = (tp: string, body: Record<string, unknown>) =>
    fetch(`${f.tg.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${f.key}`, 'content-type': 'application/json', traceparent: tp },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'Hello!' }], ...body }),
    });

  async function traceOf(traceId: string): Promise<{ call: JsonSpan; attempts: JsonSpan[] }> {
    await tracingOf(f.tg.gateway.ctx)!.flush();
    const spans = spansOf(collector.posts).filter((s) => s.traceId === traceId);
    const calls = spans.filter((s) => s.kind === SERVER);
    expect(calls).toHaveLength(1);
    const call = calls[0]!;
    const attempts = spans.filter((s) => s.kind === CLIENT && s.parentSpanId === call.spanId);
    expect(attempts.length + 1).toBe(spans.length);
    return { call, attempts };
  }

  beforeAll(async () => {
    collector = await startCollector();
    f = await startRelayFixture('sqlite', { env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url } });
  });
  afterAll(async () => {
    await f?.close();
    await collector?.close();
  });

  it('sends one span per plain call, with the GenAI attributes, under the caller’s trace', async () => {
    const tp = traceparent();
    const res = await chat(tp.header, { model: 'gpt-4o-mini' });
    expect(res.status).toBe(200);
    await res.json();
    await f.flush();
    const { call, attempts } = await traceOf(tp.traceId);
    expect(collector.posts[0]!.contentType).toContain('application/json');
    expect(call.parentSpanId).toBe(tp.parentId);
    expect(call.name).toBe('chat gpt-4o-mini');
    const a = attrs(call);
    expect(a).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.system': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.usage.input_tokens': 19,
      'gen_ai.usage.output_tokens': 10,
      'gen_ai.usage.cache_read.input_tokens': 0,
      'gen_ai.response.finish_reasons': ['stop'],
      'gateway.user.id': f.userId,
      'gateway.token.name': 'main',
      'gateway.retries': 0,
      'gateway.quota': (await f.lastLog()).quota,
    });
    expect(a['gen_ai.response.model']).toMatch(/^gpt-4o-mini/);
    expect(typeof a['gateway.channel.id']).toBe('number');
    expect(attempts).toHaveLength(1);
    expect(attrs(attempts[0]!)).toMatchObject({ 'gen_ai.request.model': 'gpt-4o-mini', 'http.response.status_code': 200 });
    // The upstream was called within the same trace, as the attempt's child.
    const sent = String(f.upstream.requests.at(-1)!.headers.traceparent);
    expect(sent).toBe(`00-${tp.traceId}-${attempts[0]!.spanId}-01`);
  });

  it('records a streamed call: its finish reason and time to first token', async () => {
    const tp = traceparent();
    const res = await chat(tp.header, { model: 'gpt-4o-mini', stream: true, stream_options: { include_usage: true } });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    expect(await res.text()).toContain('[DONE]');
    const { call, attempts } = await traceOf(tp.traceId);
    const a = attrs(call);
    expect(a['gateway.stream']).toBe(true);
    expect(a['gen_ai.response.finish_reasons']).toEqual(['stop']);
    expect(a['gateway.time_to_first_token_ms']).toBeGreaterThanOrEqual(0);
    expect(a['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
    expect(attempts).toHaveLength(1);
  });

  it('starts a trace of its own for a caller without traceparent', async () => {
    const before = spansOf(collector.posts).length;
    await f.openai().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] });
    await tracingOf(f.tg.gateway.ctx)!.flush();
    const fresh = spansOf(collector.posts).slice(before);
    const call = fresh.find((s) => s.kind === SERVER)!;
    expect(call.parentSpanId ?? '').toBe('');
    expect(fresh.filter((s) => s.kind === SERVER)).toHaveLength(1);
  });

  it('records a retried call with a child span per attempt, the failed one marked', async () => {
    must(await f.root.put('/api/option/', { key: 'RetryTimes', value: '2' }), 'RetryTimes');
    const broken = await f.addChannel({ name: 'broken', key: 'sk-upstream-invalid', priority: 10 });
    const tp = traceparent();
    const res = await chat(tp.header, { model: 'gpt-4o-mini' });
    expect(res.status).toBe(200);
    await res.json();
    const { call, attempts } = await traceOf(tp.traceId);
    expect(attrs(call)['gateway.retries']).toBe(1);
    expect(attempts).toHaveLength(2);
    const [first, second] = [...attempts].sort(
      (x, y) => Number(attrs(x)['gateway.attempt']) - Number(attrs(y)['gateway.attempt']),
    );
    expect(attrs(first!)).toMatchObject({ 'gateway.channel.id': broken, 'http.response.status_code': 401, 'error.type': '401' });
    expect(first!.status?.code).toBe(ERROR);
    expect(attrs(second!)['http.response.status_code']).toBe(200);
    expect(attrs(call)['gateway.channel.id']).toBe(attrs(second!)['gateway.channel.id']);
  });
});

describe('traces over OTLP/HTTP with protobuf', () => {
  it('posts protobuf bodies holding the caller’s trace id', async () => {
    const collector = await startCollector();
    const f = await startRelayFixture('sqlite', {
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: `${collector.url}/`, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' },
    });
    try {
      const tp = traceparent();
      const res = await fetch(`${f.tg.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer sk-${f.key}`, 'content-type': 'application/json', traceparent: tp.header },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello!' }] }),
      });
      await res.json();
      await tracingOf(f.tg.gateway.ctx)!.flush();
      expect(collector.posts.length).toBeGreaterThan(0);
      const post = collector.posts.at(-1)!;
      expect(post.contentType).toBe('application/x-protobuf');
      expect(post.body.includes(Buffer.from(tp.traceId, 'hex'))).toBe(true);
      expect(post.body.includes(Buffer.from('gen_ai.usage.input_tokens'))).toBe(true);
    } finally {
      await f.close();
      await collector.close();
    }
  });
});

describe('tracing off', () => {
  it('starts no tracer, sends no trace context upstream, and loads OpenTelemetry only lazily', async () => {
    const f = await startRelayFixture('sqlite');
    try {
      expect(tracingOf(f.tg.gateway.ctx)).toBeUndefined();
      await f.openai().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] });
      expect(f.upstream.requests.at(-1)!.headers.traceparent).toBeUndefined();
    } finally {
      await f.close();
    }
    // The built server names the OpenTelemetry packages only in dynamic imports.
    const bundle = readFileSync(new URL('../../dist/server/main.js', import.meta.url), 'utf8');
    const named = bundle.match(/.{0,8}["']@opentelemetry\/[^"']+["']/g) ?? [];
    expect(named.length).toBeGreaterThan(0);
    for (const use of named) expect(use).toMatch(/import\(\s*["']@opentelemetry/);
  });
});

describe('tracing settings from the OTEL_* variables', () => {
  it('reads the endpoint, protocol, headers and service name, and refuses a protocol it does not speak', () => {
    expect(loadConfig({}).otel).toBeNull();
    expect(
      loadConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otel.example:4318/',
        OTEL_EXPORTER_OTLP_HEADERS: 'x-honeycomb-team=abc%3D1, dataset = gw',
        OTEL_SERVICE_NAME: 'edge-gw',
      }).otel,
    ).toEqual({
      url: 'https://otel.example:4318/v1/traces',
      protocol: 'http/json',
      headers: { 'x-honeycomb-team': 'abc=1', dataset: 'gw' },
      serviceName: 'edge-gw',
    });
    const traces = loadConfig({
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://tempo:4318/custom/traces',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
    }).otel;
    expect(traces).toMatchObject({
      url: 'http://tempo:4318/custom/traces',
      protocol: 'http/protobuf',
      serviceName: 'ai-gateway',
    });
    const grpc = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' };
    expect(() => loadConfig(grpc)).toThrow(ConfigError);
    expect(() => loadConfig(grpc)).toThrow(/^OTEL_EXPORTER_OTLP_PROTOCOL:/);
  });
});
