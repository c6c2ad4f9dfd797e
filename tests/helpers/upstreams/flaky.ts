/**
 * An OpenAI chat stand-in whose health the test turns up and down while it runs: every n-th call
 * failing with a 500, a delay before each answer, keys it answers 401 for (a revoked key), and a
 * stream-only mode refusing plain calls with the words such upstreams use. Answers are the
 * recorded OpenAI fixtures; each call's key is recorded.
 */
import { createServer } from 'node:http';
import { OPENAI_FIXTURES } from './openai.js';
import { listenLocally, readBody, sendJson } from './stand-in-server.js';

export interface FlakyState {
  /** Every `failEvery`-th call answers 500 (0: none; 1: all; 2: half). */
  failEvery: number;
  delayMs: number;
  revoked: Set<string>;
  streamOnly: boolean;
}

export interface FlakyStandIn {
  url: string;
  state: FlakyState;
  /** The key of each call, in order. */
  calls: Array<{ key: string; stream: boolean }>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const error = (message: string, type: string, code: string | null) => ({ error: { message, type, param: null, code } });

export async function startFlakyStandIn(initial: Partial<FlakyState> = {}): Promise<FlakyStandIn> {
  const state: FlakyState = { failEvery: 0, delayMs: 0, revoked: new Set(), streamOnly: false, ...initial };
  const calls: FlakyStandIn['calls'] = [];
  let seq = 0;
  const server = createServer((req, res) => {
    void (async () => {
      const body = JSON.parse((await readBody(req)) || '{}') as { model?: string; stream?: boolean };
      const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      const stream = body.stream === true;
      calls.push({ key, stream });
      if (state.delayMs > 0) await sleep(state.delayMs);
      if (state.revoked.has(key)) return sendJson(res, 401, OPENAI_FIXTURES.invalidKey);
      if (state.streamOnly && !stream) {
        return sendJson(res, 400, error('Stream must be set to true', 'invalid_request_error', null));
      }
      seq += 1;
      if (state.failEvery > 0 && seq % state.failEvery === 0) {
        return sendJson(res, 500, error('The server had an error while processing your request.', 'server_error', null));
      }
      const model = String(body.model ?? 'gpt-4o-mini');
      if (!stream) return sendJson(res, 200, { ...OPENAI_FIXTURES.chat, model });
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const chunk of OPENAI_FIXTURES.streamChunks) res.write(chunk);
      res.end();
    })();
  });
  const { url, close } = await listenLocally(server);
  return { url, state, calls, close };
}
