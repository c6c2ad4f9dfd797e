/**
 * The `traceparent` an upstream call carries, by the call's cancel signal (one per relayed call):
 * set by the attempt's span before the call goes out, read where the request is built. Nothing is
 * set when tracing is off, and the lookup then finds nothing.
 */
const traceparents = new WeakMap<object, string>();

export function setUpstreamTraceparent(signal: object, traceparent: string): void {
  if (traceparent) traceparents.set(signal, traceparent);
}

/** The header to add to an upstream call, or undefined. */
export function upstreamTraceparent(signal: object): string | undefined {
  return traceparents.get(signal);
}
