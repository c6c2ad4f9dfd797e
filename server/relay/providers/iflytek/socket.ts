/**
 * The Spark exchange over a websocket, answered like an HTTP upstream so the relay handles it as
 * any other: the request frame is sent once the socket opens; a refused handshake answers with its
 * HTTP status and body, an error frame with the status its code stands for; a streamed answer is a
 * `text/event-stream` body with one `data:` event per frame (the socket paused while the client is
 * slow), a whole answer one JSON frame collecting them all.
 */
import { Readable } from 'node:stream';
import WebSocket, { type RawData } from 'ws';
import { upstreamLookup, vetUpstreamHost } from '../../../http/upstream-guard.js';
import { onCancel, type CancelSignal, type UpstreamResponse } from '../../call/call-upstream.js';
import { httpLikeAnswer, jsonAnswer } from '../kit/http-like.js';
import { obj, type Json } from '../kit/chat-text.js';
import { SparkAnswer, isLastFrame, sparkErrorOf, sparkErrorStatus } from './convert.js';

const HANDSHAKE_TIMEOUT_MS = 30_000;
/** Longest wait for the next frame (as long as the HTTP upstreams' body timeout). */
const IDLE_TIMEOUT_MS = 300_000;
const ERROR_BODY_LIMIT = 64 * 1024;

function textOf(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

function parseFrame(data: RawData): Json | null {
  try {
    return obj(JSON.parse(textOf(data)));
  } catch {
    return null;
  }
}

/** Sends `frame` to the signed `url` and answers with the whole reply or a stream of its frames. */
export function sparkExchange(url: string, frame: string, stream: boolean, signal: CancelSignal): Promise<UpstreamResponse> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    // The upstream address rule, as the relay's pool applies it (upstream-guard.ts).
    try {
      vetUpstreamHost(new URL(url).hostname);
    } catch (err) {
      return reject(err as Error);
    }
    const ws = new WebSocket(url, { handshakeTimeout: HANDSHAKE_TIMEOUT_MS, lookup: upstreamLookup });
    const whole = new SparkAnswer();
    let settled = false;
    let body: Readable | null = null;
    let ended = false;

    /** The exchange is over: no more waiting for frames or for the client's cancel. */
    const release = () => {
      clearTimeout(idle);
      stopListening();
    };
    /** Answers the relay; a stream keeps the exchange going until its last frame. */
    const answer = (res: UpstreamResponse, streaming = false) => {
      settled = true;
      if (!streaming) release();
      resolve(res);
    };
    const end = () => {
      ended = true;
      release();
      body?.push(null);
      ws.close(1000);
    };
    const fail = (err: Error) => {
      release();
      if (!settled) {
        settled = true;
        reject(err);
      } else if (body && !ended) {
        ended = true;
        body.destroy(err);
      }
      ws.terminate();
    };
    const onAbort = () => fail(new Error('请求已取消'));
    const stopListening = onCancel(signal, onAbort);
    const idle = setTimeout(() => fail(new Error('讯飞星火长时间没有应答')), IDLE_TIMEOUT_MS);

    ws.on('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= ERROR_BODY_LIMIT) chunks.push(chunk);
      });
      res.on('end', () => {
        if (!settled) {
          const type = String(res.headers['content-type'] ?? 'text/plain');
          answer(httpLikeAnswer(res.statusCode ?? 502, type, Buffer.concat(chunks).toString('utf8')));
        }
        ws.terminate();
      });
      res.on('error', (err) => fail(err));
    });
    ws.on('open', () => ws.send(frame));
    ws.on('message', (data) => {
      if (ended || (settled && !body)) return;
      idle.refresh();
      const reply = parseFrame(data);
      if (!reply) return fail(new Error('讯飞星火返回了无法解析的数据'));
      if (body) {
        if (!body.push(`data: ${JSON.stringify(reply)}\n\n`)) ws.pause();
        if (sparkErrorOf(reply) || isLastFrame(reply)) end();
        return;
      }
      const error = sparkErrorOf(reply);
      if (error) {
        answer(jsonAnswer(sparkErrorStatus(error.code), reply));
        ws.close(1000);
        return;
      }
      if (stream) {
        body = new Readable({ read: () => ws.resume() });
        answer(httpLikeAnswer(200, 'text/event-stream', body), true);
        body.push(`data: ${JSON.stringify(reply)}\n\n`);
        if (isLastFrame(reply)) end();
        return;
      }
      whole.add(reply);
      if (whole.done) {
        answer(jsonAnswer(200, whole.frame()));
        ws.close(1000);
      }
    });
    ws.on('error', (err) => fail(err));
    ws.on('close', () => {
      release();
      if (!settled || (body && !ended)) fail(new Error('讯飞星火在应答结束前关闭了连接'));
    });
  });
}
