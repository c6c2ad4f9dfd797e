/**
 * A local HTTP server speaking OpenAI's wire format, replaying recorded responses from
 * tests/fixtures/providers/openai/. It stands in for the unreachable provider in tests and benches.
 *
 * Behaviour is chosen by the request, so one server serves many cases at once:
 * - key `sk-upstream-invalid` → 401 invalid_api_key; key `sk-upstream-broke` → 429 insufficient_quota
 * - model `fail-500` → 500; `fail-429` → 429 rate limit; `fail-400` → 400; `fail-context` → 400
 *   context_length_exceeded (param `messages`)
 * - model `slow-<ms>` → waits before answering; `drip-<n>` → a stream of n chunks, 20 ms apart
 * - model `cut-<n>` → a stream of n chunks, 20 ms apart, then the connection dropped (no end, no usage)
 * - model `no-usage` → a stream without the usage chunk even when include_usage was asked
 * - GET `[/v1]/dashboard/billing/subscription` and `…/usage` answer OpenAI's old billing shapes
 *   with OPENAI_BILLING's numbers (usage in cents)
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';

const fixtureDir = fileURLToPath(new URL('../../fixtures/providers/openai/', import.meta.url));
const fixture = (name: string) => readFileSync(fixtureDir + name, 'utf8');

export const OPENAI_FIXTURES = {
  chat: JSON.parse(fixture('chat-completion.json')) as Record<string, any>,
  streamChunks: fixture('chat-completion-stream.chunks.txt')
    .split('\n\n')
    .filter((s) => s.trim() !== '')
    .map((s) => `${s}\n\n`),
  completion: JSON.parse(fixture('completion.json')) as Record<string, any>,
  response: JSON.parse(fixture('response.json')) as Record<string, any>,
  compaction: JSON.parse(fixture('response-compaction.json')) as Record<string, any>,
  image: JSON.parse(fixture('image-generation.json')) as Record<string, any>,
  moderation: JSON.parse(fixture('moderation.json')) as Record<string, any>,
  responseStream: fixture('response-stream.chunks.txt')
    .split('\n\n')
    .filter((s) => s.trim() !== '')
    .map((s) => `${s}\n\n`),
  embeddings: JSON.parse(fixture('embeddings.json')) as Record<string, any>,
  models: JSON.parse(fixture('models.json')) as Record<string, any>,
  invalidKey: fixture('error-invalid-key.json'),
  rateLimit: fixture('error-rate-limit.json'),
  quota: fixture('error-quota.json'),
  contextLength: fixture('error-context-length.json'),
};

/** What the billing endpoints answer: balance = hard_limit_usd − total_usage / 100. */
export const OPENAI_BILLING = { hard_limit_usd: 120, total_usage: 2345.5 };

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: any;
}

export interface OpenAIStandIn {
  url: string;
  requests: RecordedRequest[];
  /** Requests whose connection the client closed before the answer ended. */
  aborted: number;
  /** The bytes of each chat stream sent in full, in order (when recording): what a relay must pass on. */
  streamed: string[];
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: string | object): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function errorBody(message: string, type: string, code: string | null) {
  return { error: { message, type, param: null, code } };
}

export async function startOpenAIStandIn(options: { record?: boolean } = {}): Promise<OpenAIStandIn> {
  const record = options.record ?? true;
  const state: OpenAIStandIn = { url: '', requests: [], aborted: 0, streamed: [], close: async () => undefined };

  async function streamChat(req: IncomingMessage, res: ServerResponse, body: any): Promise<void> {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    if (record) {
      let sent = '';
      const write = res.write.bind(res);
      const end = res.end.bind(res);
      res.write = ((chunk: string) => ((sent += chunk), write(chunk))) as typeof res.write;
      res.end = ((chunk?: string) => ((sent += chunk ?? ''), end(chunk))) as typeof res.end;
      res.once('finish', () => state.streamed.push(sent));
    }
    let closed = false;
    res.on('close', () => {
      if (!res.writableEnded) {
        closed = true;
        state.aborted += 1;
      }
    });
    const model = String(body.model ?? '');
    const wantUsage = body.stream_options?.include_usage === true && model !== 'no-usage';
    const drip = /^(drip|cut)-(\d+)$/.exec(model);
    if (drip) {
      const n = Number(drip[2]);
      const base = { id: 'chatcmpl-drip', object: 'chat.completion.chunk', created: 1741570284, model };
      for (let i = 0; i < n && !closed; i++) {
        res.write(
          `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: { content: 'tick ' }, finish_reason: null }] })}\n\n`,
        );
        await sleep(20);
      }
      if (closed) return;
      if (drip[1] === 'cut') return void res.socket?.destroy();
      res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`);
      if (wantUsage) {
        const usage = { prompt_tokens: 10, completion_tokens: n * 2, total_tokens: 10 + n * 2 };
        res.write(`data: ${JSON.stringify({ ...base, choices: [], usage })}\n\n`);
      }
      res.end('data: [DONE]\n\n');
      return;
    }
    for (const chunk of OPENAI_FIXTURES.streamChunks) {
      if (closed) return;
      if (!wantUsage && chunk.includes('"choices":[]')) continue;
      // OpenAI puts `"usage": null` on each chunk only when include_usage was asked.
      const sent = body.stream_options?.include_usage === true ? chunk : chunk.replace(',"usage":null', '');
      res.write(sent.replace('"model":"gpt-4o-mini-2024-07-18"', `"model":${JSON.stringify(model)}`));
    }
    res.end();
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = req.method === 'GET' ? '' : await readBody(req);
    let body: any = raw;
    if ((req.headers['content-type'] ?? '').includes('application/json') && raw) {
      try {
        body = JSON.parse(raw);
      } catch {
        return sendJson(res, 400, errorBody('We could not parse the JSON body of your request.', 'invalid_request_error', null));
      }
    }
    if (record) state.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });

    const auth = String(req.headers.authorization ?? req.headers['api-key'] ?? '');
    if (auth.includes('sk-upstream-invalid')) return sendJson(res, 401, OPENAI_FIXTURES.invalidKey);
    if (auth.includes('sk-upstream-broke')) return sendJson(res, 429, OPENAI_FIXTURES.quota);

    const model = typeof body === 'object' && body ? String(body.model ?? '') : '';
    const slow = /^slow-(\d+)$/.exec(model);
    if (slow) await sleep(Number(slow[1]));
    if (model === 'fail-500')
      return sendJson(res, 500, errorBody('The server had an error while processing your request.', 'server_error', null));
    if (model === 'fail-429') return sendJson(res, 429, OPENAI_FIXTURES.rateLimit);
    if (model === 'fail-context') return sendJson(res, 400, OPENAI_FIXTURES.contextLength);
    if (model === 'fail-400')
      return sendJson(res, 400, errorBody("Invalid value for 'messages'.", 'invalid_request_error', 'invalid_value'));

    const path = (req.url ?? '').split('?')[0] ?? '';
    if (path.endsWith('/chat/completions') && req.method === 'POST') {
      if (body.stream === true) return streamChat(req, res, body);
      return sendJson(res, 200, { ...OPENAI_FIXTURES.chat, model: model || OPENAI_FIXTURES.chat.model });
    }
    if (path.endsWith('/images/generations') && req.method === 'POST') {
      const n = Number(body.n ?? 1);
      return sendJson(res, 200, {
        ...OPENAI_FIXTURES.image,
        data: Array.from({ length: n }, () => OPENAI_FIXTURES.image.data[0]),
      });
    }
    if (path.endsWith('/moderations') && req.method === 'POST')
      return sendJson(res, 200, { ...OPENAI_FIXTURES.moderation, model });
    if (path.endsWith('/audio/speech') && req.method === 'POST') {
      // An MP3 frame header followed by silence: the shape of a speech answer, not real audio.
      const audio = Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(4092)]);
      res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': audio.length });
      return void res.end(audio);
    }
    if (path.endsWith('/responses/compact') && req.method === 'POST') {
      // Compaction does not stream; OpenAI refuses parameters it does not know.
      if ('stream' in body)
        return sendJson(res, 400, errorBody("Unknown parameter: 'stream'.", 'invalid_request_error', 'stream'));
      return sendJson(res, 200, OPENAI_FIXTURES.compaction);
    }
    if (path.endsWith('/responses') && req.method === 'POST') {
      if (body.stream === true) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        for (const chunk of OPENAI_FIXTURES.responseStream) res.write(chunk);
        return void res.end();
      }
      return sendJson(res, 200, { ...OPENAI_FIXTURES.response, model });
    }
    if (path.endsWith('/completions') && req.method === 'POST')
      return sendJson(res, 200, { ...OPENAI_FIXTURES.completion, model });
    if (path.endsWith('/embeddings') && req.method === 'POST') {
      const answer = structuredClone(OPENAI_FIXTURES.embeddings);
      answer.model = model;
      // Clients (the openai SDK by default) may ask for base64: little-endian float32s.
      if (body.encoding_format === 'base64') {
        for (const item of answer.data) item.embedding = Buffer.from(new Float32Array(item.embedding).buffer).toString('base64');
      }
      return sendJson(res, 200, answer);
    }
    if (path.endsWith('/models') && req.method === 'GET') return sendJson(res, 200, OPENAI_FIXTURES.models);
    if (/^(\/v1)?\/dashboard\/billing\/subscription$/.test(path) && req.method === 'GET') {
      const { hard_limit_usd } = OPENAI_BILLING;
      return sendJson(res, 200, {
        object: 'billing_subscription',
        has_payment_method: true,
        soft_limit_usd: hard_limit_usd,
        hard_limit_usd,
        system_hard_limit_usd: hard_limit_usd,
        access_until: 0,
      });
    }
    if (/^(\/v1)?\/dashboard\/billing\/usage$/.test(path) && req.method === 'GET') {
      return sendJson(res, 200, { object: 'list', daily_costs: [], total_usage: OPENAI_BILLING.total_usage });
    }
    return sendJson(res, 404, errorBody(`Invalid URL (${req.method} ${path})`, 'invalid_request_error', null));
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      if (!res.headersSent) sendJson(res, 500, errorBody(err.message, 'server_error', null));
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.url = `http://127.0.0.1:${port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
