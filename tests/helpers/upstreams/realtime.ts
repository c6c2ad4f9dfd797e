/**
 * A local websocket server speaking OpenAI's Realtime API (beta, `OpenAI-Beta: realtime=v1`), standing
 * in for the unreachable provider. It serves `/v1/realtime?model=…` (Bearer key) and Azure's
 * `/openai/realtime?api-version=…&deployment=…` (api-key), and answers like the real service:
 *
 * - on connect: `session.created`; `session.update` → `session.updated`;
 *   `conversation.item.create` → `conversation.item.created`; `input_audio_buffer.append` /
 *   `.commit` → `input_audio_buffer.committed` + `conversation.item.created`;
 * - `response.create` → `response.created`, `response.output_item.added`, `conversation.item.created`,
 *   `response.content_part.added`, deltas (`response.text.delta` for text-only responses, else
 *   `response.audio_transcript.delta` + `response.audio.delta`), the matching `.done` events,
 *   `response.done` carrying `response.usage` (see `realtimeUsageFor`), then `rate_limits.updated`;
 * - any other event → an `error` event (`invalid_request_error`).
 *
 * Test-only behaviour, not OpenAI's: key `sk-upstream-invalid` → handshake refused with 401 and
 * OpenAI's error body; model `fail-500` → 500; binary frames are recorded and echoed back reversed.
 * Every connection is recorded (URL, headers, events and binary frames received, the close).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { WebSocketServer, WebSocket } from 'ws';

export interface RealtimeConnection {
  url: string;
  headers: IncomingHttpHeaders;
  /** Client events received (parsed JSON). */
  events: Array<Record<string, any>>;
  binary: Buffer[];
  socket: WebSocket;
  /** Resolves with the close code and reason the gateway sent (or 1006 when the socket just dropped). */
  closed: Promise<{ code: number; reason: string }>;
}

export interface RealtimeStandIn {
  /** http://127.0.0.1:port — what a channel's base_url holds. */
  url: string;
  connections: RealtimeConnection[];
  close(): Promise<void>;
}

const TRANSCRIPT = 'Hello from the realtime stand-in!';

/** The usage the n-th response (0-based) of a connection reports: prompt caching grows after the first. */
export function realtimeUsageFor(n: number) {
  const inText = 20 + 10 * n;
  const inAudio = 100;
  const cachedText = n === 0 ? 0 : 16;
  const cachedAudio = n === 0 ? 0 : 64;
  const outText = 10;
  const outAudio = 50;
  return {
    total_tokens: inText + inAudio + outText + outAudio,
    input_tokens: inText + inAudio,
    output_tokens: outText + outAudio,
    input_token_details: {
      cached_tokens: cachedText + cachedAudio,
      text_tokens: inText,
      audio_tokens: inAudio,
      cached_tokens_details: { text_tokens: cachedText, audio_tokens: cachedAudio },
    },
    output_token_details: { text_tokens: outText, audio_tokens: outAudio },
  };
}

const id = (prefix: string) => `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 20)}`;

function errorJson(message: string, type: string, code: string | null) {
  return JSON.stringify({ error: { message, type, param: null, code } });
}

export async function startRealtimeStandIn(): Promise<RealtimeStandIn> {
  const connections: RealtimeConnection[] = [];
  const server = createServer((_req, res) => {
    res.writeHead(426, { 'content-type': 'application/json' });
    res.end(errorJson('websocket only', 'invalid_request_error', null));
  });
  const wss = new WebSocketServer({ noServer: true });

  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const refuse = (status: number, body: string) => {
      socket.end(
        `HTTP/1.1 ${status} Refused\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
    };
    const azure = url.pathname === '/openai/realtime';
    const key = azure ? String(req.headers['api-key'] ?? '') : String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    const model = azure ? url.searchParams.get('deployment') : url.searchParams.get('model');
    if (url.pathname !== '/v1/realtime' && !azure) return refuse(404, errorJson('Invalid URL', 'invalid_request_error', null));
    if (!key || key === 'sk-upstream-invalid')
      return refuse(
        401,
        errorJson('Incorrect API key provided: sk-upstream-invalid.', 'invalid_request_error', 'invalid_api_key'),
      );
    if (!model)
      return refuse(400, errorJson('Missing required parameter: model', 'invalid_request_error', 'missing_required_parameter'));
    if (model === 'fail-500')
      return refuse(500, errorJson('The server had an error while processing your request.', 'server_error', null));
    wss.handleUpgrade(req, socket, head, (ws) => serve(ws, req.url ?? '', req.headers, model));
  });

  function serve(ws: WebSocket, url: string, headers: IncomingHttpHeaders, model: string): void {
    let closedWith: (v: { code: number; reason: string }) => void = () => undefined;
    const conn: RealtimeConnection = {
      url,
      headers,
      events: [],
      binary: [],
      socket: ws,
      closed: new Promise((resolve) => (closedWith = resolve)),
    };
    connections.push(conn);
    ws.on('close', (code, reason) => closedWith({ code, reason: reason.toString('utf8') }));
    ws.on('error', () => undefined);

    const send = (event: Record<string, unknown>) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ event_id: id('event'), ...event }));
    };
    const session: Record<string, unknown> = {
      id: id('sess'),
      object: 'realtime.session',
      model,
      modalities: ['text', 'audio'],
      instructions: '',
      voice: 'alloy',
      input_audio_format: 'pcm16',
      output_audio_format: 'pcm16',
      input_audio_transcription: null,
      turn_detection: { type: 'server_vad', threshold: 0.5, prefix_padding_ms: 300, silence_duration_ms: 200 },
      tools: [],
      tool_choice: 'auto',
      temperature: 0.8,
      max_response_output_tokens: 'inf',
    };
    let responses = 0;
    send({ type: 'session.created', session });

    const respond = (options: Record<string, any>) => {
      const responseId = id('resp');
      const itemId = id('item');
      const modalities: string[] = options.modalities ?? (session.modalities as string[]);
      const audio = modalities.includes('audio');
      const base = { object: 'realtime.response', id: responseId, status_details: null };
      send({ type: 'response.created', response: { ...base, status: 'in_progress', output: [], usage: null } });
      const item = {
        id: itemId,
        object: 'realtime.item',
        type: 'message',
        status: 'in_progress',
        role: 'assistant',
        content: [],
      };
      send({ type: 'response.output_item.added', response_id: responseId, output_index: 0, item });
      send({ type: 'conversation.item.created', previous_item_id: null, item });
      const part = audio ? { type: 'audio', transcript: '' } : { type: 'text', text: '' };
      const at = { response_id: responseId, item_id: itemId, output_index: 0, content_index: 0 };
      send({ type: 'response.content_part.added', ...at, part });
      for (const word of TRANSCRIPT.split(/(?<= )/)) {
        if (audio) {
          send({ type: 'response.audio_transcript.delta', ...at, delta: word });
          send({ type: 'response.audio.delta', ...at, delta: Buffer.alloc(480, word.length).toString('base64') });
        } else send({ type: 'response.text.delta', ...at, delta: word });
      }
      if (audio) {
        send({ type: 'response.audio.done', ...at });
        send({ type: 'response.audio_transcript.done', ...at, transcript: TRANSCRIPT });
      } else send({ type: 'response.text.done', ...at, text: TRANSCRIPT });
      const content = audio ? { type: 'audio', transcript: TRANSCRIPT } : { type: 'text', text: TRANSCRIPT };
      send({ type: 'response.content_part.done', ...at, part: content });
      const done = { ...item, status: 'completed', content: [content] };
      send({ type: 'response.output_item.done', response_id: responseId, output_index: 0, item: done });
      send({
        type: 'response.done',
        // Instructions `absurd usage` report output no price can bill.
        response: {
          ...base,
          status: 'completed',
          output: [done],
          usage:
            options.instructions === 'absurd usage'
              ? { ...realtimeUsageFor(responses), output_tokens: 1e300 }
              : realtimeUsageFor(responses),
        },
      });
      responses += 1;
      send({
        type: 'rate_limits.updated',
        rate_limits: [
          { name: 'requests', limit: 5000, remaining: 4999, reset_seconds: 0.012 },
          { name: 'tokens', limit: 800000, remaining: 799000, reset_seconds: 0.075 },
        ],
      });
    };

    ws.on('message', (data, isBinary) => {
      const buf = Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer);
      if (isBinary) {
        conn.binary.push(buf);
        ws.send(Buffer.from(buf).reverse(), { binary: true });
        return;
      }
      let event: Record<string, any>;
      try {
        event = JSON.parse(buf.toString('utf8'));
      } catch {
        return send({
          type: 'error',
          error: { type: 'invalid_request_error', code: 'invalid_json', message: 'Invalid JSON', param: null, event_id: null },
        });
      }
      conn.events.push(event);
      switch (event.type) {
        case 'session.update':
          Object.assign(session, event.session ?? {});
          return send({ type: 'session.updated', session });
        case 'conversation.item.create': {
          const item = { id: id('item'), object: 'realtime.item', status: 'completed', ...event.item };
          return send({ type: 'conversation.item.created', previous_item_id: null, item });
        }
        case 'input_audio_buffer.append':
          return;
        case 'input_audio_buffer.commit': {
          const itemId = id('item');
          send({ type: 'input_audio_buffer.committed', previous_item_id: null, item_id: itemId });
          const item = {
            id: itemId,
            object: 'realtime.item',
            type: 'message',
            status: 'completed',
            role: 'user',
            content: [{ type: 'input_audio', transcript: null }],
          };
          return send({ type: 'conversation.item.created', previous_item_id: null, item });
        }
        case 'response.create':
          return respond(event.response ?? {});
        default:
          return send({
            type: 'error',
            error: {
              type: 'invalid_request_error',
              code: 'invalid_value',
              message: `Invalid value: '${String(event.type)}'.`,
              param: 'type',
              event_id: event.event_id ?? null,
            },
          });
      }
    });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    connections,
    close: async () => {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
