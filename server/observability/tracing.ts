/**
 * The gateway's view of tracing: spans it starts and ends, with nothing of OpenTelemetry in it, so
 * that a gateway without OTEL_EXPORTER_OTLP_ENDPOINT loads none of those packages (otel.ts is
 * imported only when tracing is on). One tracer per gateway, found by its context.
 */
import type { IncomingHttpHeaders } from 'node:http';

export type SpanValue = string | number | boolean | string[];
export type SpanAttributes = Record<string, SpanValue | undefined>;

export interface SpanHandle {
  set(attributes: SpanAttributes): void;
  /** Marks the span failed (its status ERROR) with the error's type and message. */
  fail(type: string, message: string): void;
  /** Ends the span; later calls do nothing. */
  end(): void;
  /** The W3C `traceparent` naming this span, for the call it makes. */
  traceparent(): string;
}

export interface Tracing {
  /** A span for one incoming call, a child of the caller's `traceparent` when it sent one. */
  startCall(name: string, headers: IncomingHttpHeaders, attributes: SpanAttributes): SpanHandle;
  /** A client span under `parent` (one upstream attempt). */
  startChild(parent: SpanHandle, name: string, attributes: SpanAttributes): SpanHandle;
  /** Sends the spans ended so far. */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

const tracers = new WeakMap<object, Tracing>();

export function setTracing(owner: object, tracing: Tracing): void {
  tracers.set(owner, tracing);
}

/** The gateway's tracer; undefined when tracing is off. */
export function tracingOf(owner: object): Tracing | undefined {
  return tracers.get(owner);
}
