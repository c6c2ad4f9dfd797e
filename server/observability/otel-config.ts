/**
 * Tracing's settings, read from the standard OTEL_* variables: on only when an OTLP endpoint is
 * set. Kept apart from the tracer so that reading them loads none of the OpenTelemetry packages.
 */
export interface OtelConfig {
  /** Where spans are posted: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as it is, or OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces. */
  url: string;
  /** OTEL_EXPORTER_OTLP_PROTOCOL: `http/json` (the HTTP exporter's default) or `http/protobuf`. */
  protocol: 'http/json' | 'http/protobuf';
  /** OTEL_EXPORTER_OTLP_HEADERS (`key=value,…`, values URL-encoded), e.g. a collector's API key. */
  headers: Record<string, string>;
  /** OTEL_SERVICE_NAME, else `ai-gateway`. */
  serviceName: string;
}

type Env = Record<string, string | undefined>;

function headersOf(value: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (value ?? '').split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const name = pair.slice(0, at).trim();
    if (name) headers[name] = decodeURIComponent(pair.slice(at + 1).trim());
  }
  return headers;
}

export function otelConfigFrom(env: Env): OtelConfig | null {
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (!base && !traces) return null;
  const url = traces || `${base!.replace(/\/+$/, '')}/v1/traces`;
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || 'http/json').trim();
  // gRPC is not spoken here: refused at start rather than posted to a port that expects it.
  if (protocol !== 'http/json' && protocol !== 'http/protobuf') {
    throw new RangeError(`expected http/json or http/protobuf, got "${protocol}"`);
  }
  return {
    url,
    protocol,
    headers: { ...headersOf(env.OTEL_EXPORTER_OTLP_HEADERS), ...headersOf(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS) },
    serviceName: env.OTEL_SERVICE_NAME?.trim() || 'ai-gateway',
  };
}
