/**
 * A real local websocket server speaking iFlytek Spark's protocol. Each handshake's signed URL is
 * checked as iFlytek documents it — `host`, `date` (within 300 s) and `authorization`, the base64
 * of `api_key="…", algorithm="hmac-sha256", headers="host date request-line", signature="…"` with
 * the HMAC-SHA256 of "host: …\ndate: …\nGET <path> HTTP/1.1" under the known APISecret — and
 * refused with 401 when it does not hold. Accepted sockets answer each request frame with the frames
 * of tests/fixtures/providers/iflytek/stream.frames.jsonl (or the audit error frame when the last
 * user text contains "audit"), then close.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';

export const SPARK_APP_ID = 'a1b2c3d4';
export const SPARK_API_KEY = 'spark-stand-in-api-key';
export const SPARK_API_SECRET = 'c3Bhcmstc3RhbmQtaW4tc2VjcmV0';

export interface SparkRecorded {
  path: string;
  frame: any;
}

export interface SparkStandIn {
  /** `http://127.0.0.1:port`, as a channel's base URL. */
  url: string;
  requests: SparkRecorded[];
  /** Handshakes refused for a bad signature. */
  refused: number;
  close(): Promise<void>;
}

const dir = fileURLToPath(new URL('../../fixtures/providers/iflytek/', import.meta.url));
const fixture = (name: string) => readFileSync(dir + name, 'utf8');

/** Whether the handshake's URL is signed as iFlytek requires. */
function signedCorrectly(req: IncomingMessage): boolean {
  const url = new URL(req.url ?? '/', 'http://stand-in');
  const host = url.searchParams.get('host');
  const date = url.searchParams.get('date');
  const authorization = url.searchParams.get('authorization');
  if (!host || !date || !authorization || host !== req.headers.host) return false;
  if (Math.abs(Date.now() - Date.parse(date)) > 300_000) return false;
  const origin = Buffer.from(authorization, 'base64').toString('utf8');
  const fields = Object.fromEntries([...origin.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
  const signature = createHmac('sha256', SPARK_API_SECRET)
    .update(`host: ${host}\ndate: ${date}\nGET ${url.pathname} HTTP/1.1`)
    .digest('base64');
  return (
    fields.api_key === SPARK_API_KEY &&
    fields.algorithm === 'hmac-sha256' &&
    fields.headers === 'host date request-line' &&
    fields.signature === signature
  );
}

function refuse(socket: Duplex): void {
  const body = fixture('error-handshake.json');
  socket.end(
    `HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export async function startSparkStandIn(): Promise<SparkStandIn> {
  const state: SparkStandIn = { url: '', requests: [], refused: 0, close: async () => undefined };
  const wss = new WebSocketServer({ noServer: true });
  const server = createServer((_req, res) => {
    res.writeHead(426);
    res.end();
  });
  server.on('upgrade', (req, socket, head) => {
    if (!signedCorrectly(req)) {
      state.refused++;
      return refuse(socket);
    }
    const path = new URL(req.url ?? '/', 'http://stand-in').pathname;
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.on('message', (data) => {
        const frame = JSON.parse(String(data));
        state.requests.push({ path, frame });
        const texts: Array<{ role: string; content: string }> = frame?.payload?.message?.text ?? [];
        const last = texts.at(-1)?.content ?? '';
        const replies = last.includes('audit')
          ? [fixture('error-audit.json').trim()]
          : fixture('stream.frames.jsonl')
              .split('\n')
              .filter((l) => l.trim() !== '');
        void (async () => {
          for (const reply of replies) {
            ws.send(reply);
            await new Promise((r) => setTimeout(r, 5));
          }
          ws.close(1000);
        })();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      for (const client of wss.clients) client.terminate();
      wss.close();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
