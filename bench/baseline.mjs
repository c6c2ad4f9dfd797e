// The floor the relay bench compares the gateway with: what a relay must do and no more. The key
// looked up in a Map, the request forwarded over a keep-alive pool, stream chunks written through
// as they arrive, usage found by scanning the stream's tail (only the event that carries it is
// parsed), the caller's quota decremented — no database, no pricing, no logs, no per-event parse.
// Prints `baseline http://…` once listening.
// The same for Claude's /v1/messages and Gemini's streamGenerateContent, to their stand-ins.
// Run by bench/relay.mjs on the gateway's core: node bench/baseline.mjs <upstream-url> <key> [<claude-url> <gemini-url>]
import Fastify from 'fastify';
import { Agent, request } from 'undici';

const [upstreamUrl, key, claudeUrl, geminiUrl] = process.argv.slice(2);
const keys = new Map([[key, { quota: Number.MAX_SAFE_INTEGER, calls: 0 }]]);
const agent = new Agent({ keepAliveTimeout: 30_000, connections: 512, pipelining: 1 });
const upstreamHeaders = { authorization: 'Bearer sk-upstream-good', 'content-type': 'application/json' };
const TAIL = 4096;

/** The usage object in the tail of an answer or a stream: found by scanning, parsed alone. */
function tailUsage(tail, name = '"usage"') {
  const at = tail.lastIndexOf(name);
  const open = at === -1 ? -1 : tail.indexOf('{', at);
  if (open === -1) return null;
  let depth = 0;
  for (let i = open; i < tail.length; i++) {
    const c = tail.charCodeAt(i);
    if (c === 123) depth++;
    else if (c === 125 && --depth === 0) {
      try {
        return JSON.parse(tail.slice(open, i + 1));
      } catch {
        return null;
      }
    }
  }
  return null;
}

function charge(caller, usage) {
  caller.calls++;
  if (usage) caller.quota -= usage.total_tokens ?? usage.totalTokenCount ?? usage.output_tokens ?? 0;
}

const app = Fastify({ logger: false, bodyLimit: 64 * 1024 * 1024 });
// The body as received: a relay forwards it, it needs only to know whether it asks for a stream.
app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
/** The caller by its key, in whichever header its format sends it. */
const callerOf = (req) =>
  keys.get(String(req.headers.authorization ?? '').slice(7)) ??
  keys.get(String(req.headers['x-api-key'] ?? '')) ??
  keys.get(String(req.headers['x-goog-api-key'] ?? ''));

/** Forwards `body` to `url`; a stream's chunks written through, usage from the tail (`usageKey`). */
async function forward(reply, caller, url, headers, body, stream, usageKey) {
  const upstream = await request(url, { method: 'POST', headers, body, dispatcher: agent });
  if (!stream) {
    const text = await upstream.body.text();
    charge(caller, tailUsage(text.slice(-TAIL), usageKey));
    return reply.status(upstream.statusCode).header('content-type', 'application/json').send(text);
  }
  reply.hijack();
  reply.raw.writeHead(upstream.statusCode, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  let tail = '';
  for await (const chunk of upstream.body) {
    tail = (tail + chunk.toString('latin1')).slice(-TAIL);
    if (!reply.raw.write(chunk)) await new Promise((r) => reply.raw.once('drain', r));
  }
  reply.raw.end();
  charge(caller, tailUsage(tail, usageKey));
}

app.post('/v1/chat/completions', async (req, reply) => {
  const caller = callerOf(req);
  if (!caller) return reply.status(401).send({ error: { message: 'invalid key' } });
  let body = req.body;
  const stream = /"stream"\s*:\s*true/.test(body.toString('latin1'));
  // Usage in a stream comes only when asked for.
  if (stream) body = JSON.stringify({ ...JSON.parse(body), stream_options: { include_usage: true } });
  return forward(reply, caller, `${upstreamUrl}/v1/chat/completions`, upstreamHeaders, body, stream);
});
const claudeHeaders = { 'x-api-key': 'sk-ant-upstream', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' };
app.post('/v1/messages', async (req, reply) => {
  const caller = callerOf(req);
  if (!caller) return reply.status(401).send({ type: 'error', error: { type: 'authentication_error' } });
  const stream = /"stream"\s*:\s*true/.test(req.body.toString('latin1'));
  return forward(reply, caller, `${claudeUrl}/v1/messages`, claudeHeaders, req.body, stream);
});
const geminiHeaders = { 'x-goog-api-key': 'AIza-upstream', 'content-type': 'application/json' };
app.post('/v1beta/models/:action', async (req, reply) => {
  const caller = callerOf(req);
  if (!caller) return reply.status(401).send({ error: { code: 401 } });
  const stream = req.params.action.endsWith(':streamGenerateContent');
  const url = `${geminiUrl}/v1beta/models/${req.params.action}${stream ? '?alt=sse' : ''}`;
  return forward(reply, caller, url, geminiHeaders, req.body, stream, '"usageMetadata"');
});
app.get('/usage-seen', async () => ({ calls: keys.get(key).calls, quota: keys.get(key).quota }));

await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`baseline http://127.0.0.1:${app.server.address().port}`);
// A clean exit on SIGTERM (node flags such as --cpu-prof write their output then).
process.once('SIGTERM', () => process.exit(0));
