/**
 * Calls refused before they leave: a request the provider's protocol cannot carry (an image given
 * by link to Ollama, token ids to an embeddings API that takes text). The adapter's `request`
 * returns `refusedCall(message)` and its `send` is `sendUnlessRefused`, so the client gets a 400
 * with that message, no upstream is called and no other channel is tried.
 */
import { callUpstream, type CancelSignal, type UpstreamResponse } from '../call/call-upstream.js';
import { jsonAnswer } from './kit/http-like.js';
import type { PreparedCall } from './types.js';

export function refusedCall(message: string): PreparedCall {
  return { target: { url: 'about:blank', headers: {} }, body: '', refusal: message };
}

/** The refusal as a 400 answer, or the call POSTed as usual. */
export function sendUnlessRefused(call: PreparedCall, exchange: { signal: CancelSignal }): Promise<UpstreamResponse> {
  const message = call.refusal;
  if (message !== undefined) {
    return Promise.resolve(jsonAnswer(400, { error: { message, type: 'invalid_request_error' } }));
  }
  return callUpstream(call.target, call.body, 'application/json', exchange.signal);
}
