// The bare pass-through the relay bench compares the gateway with: Fastify + undici, the key looked
// up in a Map, the JSON body parsed, the upstream's answer relayed (streams chunk by chunk) and its
// usage read — no database, no pricing, no logs. Prints `baseline http://…` once listening.
// Run by bench/relay.mjs on the gateway's core: node bench/baseline.mjs <upstream-url> <key>
import Fastify from 'fastify';
import { Agent, request } from 'undici';

const [upstreamUrl, key] = process.argv.slice(2);
const keys = new Map([[key, { userId: 1 }]]);
const agent = new Agent({ keepAliveTimeout: 30_000, connections: 512, pipelining: 1 });
let usageSeen = 0;

/** The usage object of one SSE event, when the event carries one. */
function streamUsage(event) {
  if (!event.includes('"usage"')) return null;
  const line = event.split('\n').find((l) => l.startsWith('data: '));
  try {
    return JSON.parse(line.slice(6)).usage ?? null;
  } catch {
    return null;
  }
}

const app = Fastify({ logger: false, bodyLimit: 64 * 1024 * 1024 });
app.post('/v1/chat/completions', async (req, reply) => {
  const caller = keys.get(String(req.headers.authorization ?? '').replace(/^Bearer /, ''));
  if (!caller) return reply.status(401).send({ error: { message: 'invalid key' } });
  const body = req.body;
  const stream = body.stream === true;
  const upstream = await request(`${upstreamUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk-upstream-good', 'content-type': 'application/json' },
    body: JSON.stringify(stream ? { ...body, stream_options: { include_usage: true } } : body),
    dispatcher: agent,
  });
  if (!stream) {
    const text = await upstream.body.text();
    if (JSON.parse(text).usage) usageSeen++;
    return reply.status(upstream.statusCode).header('content-type', 'application/json').send(text);
  }
  reply.hijack();
  reply.raw.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  let pending = '';
  for await (const chunk of upstream.body) {
    pending += chunk.toString('utf8');
    let end;
    while ((end = pending.indexOf('\n\n')) !== -1) {
      const event = pending.slice(0, end + 2);
      pending = pending.slice(end + 2);
      if (streamUsage(event)) usageSeen++;
      if (!reply.raw.write(event)) await new Promise((r) => reply.raw.once('drain', r));
    }
  }
  reply.raw.end(pending);
});
app.get('/usage-seen', async () => ({ usageSeen }));

await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`baseline http://127.0.0.1:${app.server.address().port}`);
// A clean exit on SIGTERM (node flags such as --cpu-prof write their output then).
process.once('SIGTERM', () => process.exit(0));
