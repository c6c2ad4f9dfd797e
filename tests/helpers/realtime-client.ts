/**
 * A client of the gateway's realtime websocket (GET /v1/realtime) for tests: opens a session, or
 * reads the HTTP refusal the handshake got instead.
 */
import WebSocket from 'ws';

/** A websocket client that keeps every event it receives, to wait on them by type. */
export class Client {
  readonly events: Array<Record<string, any>> = [];
  readonly binary: Buffer[] = [];
  private waiters: Array<() => void> = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      if (isBinary) this.binary.push(data as Buffer);
      else this.events.push(JSON.parse(String(data)));
      for (const w of this.waiters.splice(0)) w();
    });
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  }
  send(event: Record<string, unknown>): void {
    this.ws.send(JSON.stringify(event));
  }
  /** The n-th (1-based) event of this type, waiting for it. */
  async next(type: string, n = 1, timeoutMs = 5000): Promise<Record<string, any>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.filter((e) => e.type === type)[n - 1];
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no ${type} #${n}; got ${this.events.map((e) => e.type).join(', ')}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }
}

export type Opened = { ok: true; client: Client; protocol: string } | { ok: false; status: number; body: any };

export function open(url: string, opts: { headers?: Record<string, string>; protocols?: string[] } = {}): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, opts.protocols ?? [], { headers: opts.headers });
    const client = new Client(ws);
    ws.once('open', () => resolve({ ok: true, client, protocol: ws.protocol }));
    ws.once('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => {
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          /* kept as text */
        }
        resolve({ ok: false, status: res.statusCode ?? 0, body });
        ws.terminate();
      });
    });
    ws.once('error', (err) => reject(err));
  });
}
