/**
 * A local server replaying recorded provider answers from tests/fixtures/providers/<provider>/:
 * a JSON file for whole answers, a `.chunks.txt` file (raw SSE) for streams. Each route picks the
 * fixture from the request; every request is recorded for assertions.
 */
import { createServer, type IncomingMessage } from 'node:http';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import type { RecordedRequest } from './openai.js';

export interface ReplayRoute {
  /** Matches the request path (query string excluded). */
  path: RegExp;
  /** The fixture to answer with, given the parsed request; `.json` → whole answer, `.chunks.txt` → SSE. */
  fixture(request: RecordedRequest): string;
  status?: number;
}

export interface ReplayServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startReplayServer(provider: string, routes: ReplayRoute[]): Promise<ReplayServer> {
  const dir = fileURLToPath(new URL(`../../fixtures/providers/${provider}/`, import.meta.url));
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      let body: unknown = raw;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        /* kept as text */
      }
      const recorded: RecordedRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      requests.push(recorded);
      const path = (req.url ?? '').split('?')[0] ?? '';
      const route = routes.find((r) => r.path.test(path));
      if (!route) {
        res.writeHead(404, { 'content-type': 'application/json' });
        return void res.end('{"error":{"message":"not found"}}');
      }
      const name = route.fixture(recorded);
      const text = readFileSync(dir + name, 'utf8');
      if (name.endsWith('.chunks.txt')) {
        res.writeHead(route.status ?? 200, { 'content-type': 'text/event-stream' });
        for (const event of text.split(/\n\n/).filter((e) => e.trim() !== '')) res.write(`${event}\n\n`);
        return void res.end();
      }
      res.writeHead(route.status ?? 200, { 'content-type': 'application/json' });
      res.end(text);
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
