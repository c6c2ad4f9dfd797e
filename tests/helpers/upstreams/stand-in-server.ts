/**
 * Plumbing shared by the hand-written stand-in servers (Midjourney, Suno, Baidu, Tencent): the
 * request body read whole, JSON and replayed SSE answers, and a server listening on a random local
 * port that closes with its open connections.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** A request body as JSON; null when empty, the text itself when it is not JSON. */
export function parseBody(raw: string): any {
  try {
    return raw ? JSON.parse(raw) : null;
  } catch {
    return raw;
  }
}

/** A JSON answer: `body` serialized, or sent as it is when already text. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Replays a recorded SSE stream (events separated by blank lines) as a 200 event stream. */
export function sendSse(res: ServerResponse, recorded: string): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const event of recorded.split('\n\n').filter((e) => e.trim() !== '')) res.write(`${event}\n\n`);
  res.end();
}

/** Starts `server` on a random local port: its base URL, and a close that also ends open connections. */
export async function listenLocally(server: Server): Promise<{ url: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
