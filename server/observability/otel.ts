/**
 * Tracing with the OpenTelemetry SDK: spans batched and posted over OTLP/HTTP (JSON by the
 * official exporter, or protobuf), W3C trace context read from callers and written for upstreams.
 * The packages are imported when tracing starts, never at load: a gateway without an endpoint
 * pays nothing for them. No global provider or context manager is installed: spans are parented
 * explicitly, so two gateways in one process (tests) keep their tracers apart.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Context, Span } from '@opentelemetry/api';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { ExportResult } from '@opentelemetry/core';
import type { OtelConfig } from './otel-config.js';
import type { SpanAttributes, SpanHandle, Tracing } from './tracing.js';

const defined = (attributes: SpanAttributes) =>
  Object.fromEntries(Object.entries(attributes).filter(([, v]) => v !== undefined)) as Record<
    string,
    string | number | boolean | string[]
  >;

/** OTLP/HTTP with protobuf bodies, from the transformer the official exporters use. */
async function protobufExporter(config: OtelConfig): Promise<SpanExporter> {
  const { ProtobufTraceSerializer } = await import('@opentelemetry/otlp-transformer');
  const pending = new Set<Promise<unknown>>();
  return {
    export(spans: ReadableSpan[], done: (result: ExportResult) => void) {
      const body = ProtobufTraceSerializer.serializeRequest(spans);
      const sent = fetch(config.url, {
        method: 'POST',
        headers: { ...config.headers, 'content-type': 'application/x-protobuf' },
        body: Buffer.from(body ?? new Uint8Array()),
        signal: AbortSignal.timeout(10_000),
      })
        .then(async (res) => {
          await res.arrayBuffer();
          done({ code: res.ok ? 0 : 1, ...(res.ok ? {} : { error: new Error(`OTLP endpoint answered ${res.status}`) }) });
        })
        .catch((error: Error) => done({ code: 1, error }))
        .finally(() => pending.delete(sent));
      pending.add(sent);
    },
    async forceFlush() {
      await Promise.all(pending);
    },
    async shutdown() {
      await Promise.all(pending);
    },
  };
}

export async function createTracing(config: OtelConfig): Promise<Tracing> {
  const [api, core, sdk, resources] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/core'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/resources'),
  ]);
  const exporter =
    config.protocol === 'http/protobuf'
      ? await protobufExporter(config)
      : new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter({
          url: config.url,
          headers: config.headers,
        });
  const processor = new sdk.BatchSpanProcessor(exporter);
  const provider = new sdk.BasicTracerProvider({
    resource: resources.resourceFromAttributes({ 'service.name': config.serviceName }),
    spanProcessors: [processor],
  });
  const tracer = provider.getTracer('ai-gateway');
  const propagator = new core.W3CTraceContextPropagator();
  const spans = new WeakMap<SpanHandle, Span>();

  const handle = (span: Span): SpanHandle => {
    let ended = false;
    const h: SpanHandle = {
      set: (attributes) => span.setAttributes(defined(attributes)),
      fail(type, message) {
        span.setAttribute('error.type', type);
        span.setStatus({ code: api.SpanStatusCode.ERROR, message });
      },
      end() {
        if (ended) return;
        ended = true;
        span.end();
      },
      traceparent() {
        const carrier: Record<string, string> = {};
        propagator.inject(api.trace.setSpan(api.ROOT_CONTEXT, span), carrier, api.defaultTextMapSetter);
        return carrier.traceparent ?? '';
      },
    };
    spans.set(h, span);
    return h;
  };

  return {
    startCall(name: string, headers: IncomingHttpHeaders, attributes: SpanAttributes) {
      const parent: Context = propagator.extract(api.ROOT_CONTEXT, headers, api.defaultTextMapGetter);
      return handle(tracer.startSpan(name, { kind: api.SpanKind.SERVER, attributes: defined(attributes) }, parent));
    },
    startChild(parent: SpanHandle, name: string, attributes: SpanAttributes) {
      const span = spans.get(parent);
      const context = span ? api.trace.setSpan(api.ROOT_CONTEXT, span) : api.ROOT_CONTEXT;
      return handle(tracer.startSpan(name, { kind: api.SpanKind.CLIENT, attributes: defined(attributes) }, context));
    },
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}
