/**
 * A local stand-in for an Ollama server, replaying tests/fixtures/providers/ollama/: `/api/chat`
 * answers a `.ndjson` stream (application/x-ndjson, written a line at a time and each line in two
 * pieces, as a network may cut it) when the body asks to stream, else the JSON answer;
 * `/api/embed` answers the embeddings. Model `llama9` gets Ollama's 404 "model not found".
 * Every request is recorded for assertions.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import type { RecordedRequest } from './openai.js';
import type { ReplayServer } from './replay.js';

const dir = fileURLToPath(new URL('../../fixtures/providers/ollama/', import.meta.url));
const fixture = (name: string) => readFileSync(dir + name, 'utf8');

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function json(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(text);
}

async function ndjson(res: ServerResponse, text: string): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/x-ndjson' });
  for (const line of text.split('\n').filter((l) => l.trim() !== '')) {
    const half = Math.floor(line.length / 2);
    res.write(line.slice(0, half));
    await new Promise((r) => setImmediate(r));
    res.write(`${line.slice(half)}\n`);
  }
  res.end();
}

export async function startOllamaStandIn(): Promise<ReplayServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      if (body.model === 'llama9') return json(res, 404, fixture('error-model-not-found.json'));
      if (req.url === '/api/embed') return json(res, 200, fixture('embed.json'));
      if (req.url !== '/api/chat') return json(res, 404, '{"error":"not found"}');
      if (body.stream !== false) return ndjson(res, fixture('chat-stream.ndjson'));
      return json(res, 200, fixture('chat.json'));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
