/**
 * A local stand-in for the Amazon Bedrock runtime (InvokeModel, InvokeModelWithResponseStream).
 * Every call's SigV4 signature is checked by signing the request again, as received, with the
 * same library and the secret the stand-in knows for the access key; a bad one is refused as AWS
 * refuses it. Answers replay tests/fixtures/providers/bedrock/: `.json` as is, `.chunks.txt` (a
 * Claude SSE stream) re-framed as a real AWS event stream — an event named `…Exception` becomes an
 * exception message.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { EventStreamCodec, type MessageHeaders } from '@smithy/eventstream-codec';
import { Hash } from '@smithy/hash-node';
import { SignatureV4 } from '@smithy/signature-v4';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import type { RecordedRequest } from './openai.js';

const dir = fileURLToPath(new URL('../../fixtures/providers/bedrock/', import.meta.url));
const fixture = (name: string) => readFileSync(dir + name, 'utf8');

export interface BedrockCall extends RecordedRequest {
  /** The model id from the path, decoded. */
  modelId: string;
  stream: boolean;
  /** The signature matched (only such calls reach a model). */
  signatureValid: boolean;
}

export interface BedrockStandIn {
  url: string;
  region: string;
  requests: BedrockCall[];
  close(): Promise<void>;
}

export interface BedrockStandInOptions {
  region: string;
  /** Access key id → secret access key. */
  credentials: Record<string, string>;
  /** The fixture answering a model (default: stream-text / message-text); `status` for errors. */
  answer?(call: BedrockCall): { fixture: string; status?: number } | undefined;
}

const codec = new EventStreamCodec(toUtf8, fromUtf8);

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendError(res: ServerResponse, status: number, type: string, file: string): void {
  const text = fixture(file);
  res.writeHead(status, {
    'content-type': 'application/json',
    'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
  });
  res.end(text);
}

/** `AWS4-HMAC-SHA256 Credential=AK/20240101/us-east-1/bedrock/aws4_request, SignedHeaders=a;b, Signature=hex`. */
function parseAuthorization(value: string): { accessKeyId: string; scope: string[]; signedHeaders: string[] } | null {
  const match = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/([^,]+), SignedHeaders=([^,]+), Signature=[0-9a-f]{64}$/.exec(value);
  if (!match) return null;
  return { accessKeyId: match[1]!, scope: match[2]!.split('/'), signedHeaders: match[3]!.split(';') };
}

/** `20240102T030405Z` → Date. */
function amzDate(value: string): Date | null {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  return m ? new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!)) : null;
}

async function verifySignature(
  req: IncomingMessage,
  raw: string,
  opts: BedrockStandInOptions,
): Promise<'ok' | 'unknown_key' | 'mismatch'> {
  const auth = parseAuthorization(String(req.headers.authorization ?? ''));
  if (!auth) return 'mismatch';
  const secret = opts.credentials[auth.accessKeyId];
  if (secret === undefined) return 'unknown_key';
  const date = amzDate(String(req.headers['x-amz-date'] ?? ''));
  if (!date || auth.scope[1] !== opts.region || auth.scope[2] !== 'bedrock') return 'mismatch';
  const headers: Record<string, string> = {};
  for (const name of auth.signedHeaders) headers[name] = String(req.headers[name] ?? '');
  const url = new URL(req.url ?? '/', 'http://stand-in');
  const signer = new SignatureV4({
    service: 'bedrock',
    region: opts.region,
    credentials: { accessKeyId: auth.accessKeyId, secretAccessKey: secret },
    sha256: Hash.bind(null, 'sha256'),
  });
  const expected = await signer.sign(
    { method: req.method ?? 'POST', protocol: 'http:', hostname: '127.0.0.1', path: url.pathname, query: {}, headers, body: raw },
    { signingDate: date },
  );
  return expected.headers.authorization === req.headers.authorization ? 'ok' : 'mismatch';
}

/** One Claude SSE event (or an exception) as an AWS event-stream message. */
function frame(event: string, data: string): Uint8Array {
  if (event.endsWith('Exception')) {
    const headers: MessageHeaders = {
      ':message-type': { type: 'string', value: 'exception' },
      ':exception-type': { type: 'string', value: event },
      ':content-type': { type: 'string', value: 'application/json' },
    };
    return codec.encode({ headers, body: fromUtf8(data) });
  }
  const headers: MessageHeaders = {
    ':event-type': { type: 'string', value: 'chunk' },
    ':content-type': { type: 'string', value: 'application/json' },
    ':message-type': { type: 'string', value: 'event' },
  };
  const payload = JSON.stringify({ bytes: Buffer.from(data).toString('base64'), p: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJ' });
  return codec.encode({ headers, body: fromUtf8(payload) });
}

function eventsOf(text: string): Array<{ event: string; data: string }> {
  return text
    .split(/\n\n/)
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7) ?? 'message';
      const data = lines.find((l) => l.startsWith('data: '))?.slice(6) ?? '';
      return { event, data };
    });
}

/** Writes the stream in uneven slices, so messages straddle network chunks as they do for real. */
async function writeEventStream(res: ServerResponse, name: string): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-bedrock-content-type': 'application/json' });
  const bytes = Buffer.concat(eventsOf(fixture(name)).map((e) => frame(e.event, e.data)));
  const sizes = [5, 61, 200, 13, 1024];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const size = sizes[i % sizes.length]!;
    res.write(bytes.subarray(at, at + size));
    at += size;
    await new Promise((r) => setImmediate(r));
  }
  res.end();
}

export async function startBedrockStandIn(opts: BedrockStandInOptions): Promise<BedrockStandIn> {
  const requests: BedrockCall[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      const path = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream)$/.exec((req.url ?? '').split('?')[0] ?? '');
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        /* kept as text */
      }
      const verdict = await verifySignature(req, raw, opts);
      const call: BedrockCall = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body,
        modelId: path ? decodeURIComponent(path[1]!) : '',
        stream: path?.[2] === 'invoke-with-response-stream',
        signatureValid: verdict === 'ok',
      };
      requests.push(call);
      if (verdict === 'unknown_key') return sendError(res, 403, 'UnrecognizedClientException', 'error-unknown-key.json');
      if (verdict === 'mismatch') return sendError(res, 403, 'InvalidSignatureException', 'error-signature.json');
      if (!path || req.method !== 'POST') return sendError(res, 404, 'UnknownOperationException', 'error-validation.json');
      const claude = body as Record<string, unknown>;
      if (claude.anthropic_version !== 'bedrock-2023-05-31' || 'model' in claude || 'stream' in claude) {
        res.writeHead(400, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ message: 'Malformed input request: extraneous key or missing anthropic_version' }));
      }
      const chosen = opts.answer?.(call) ?? { fixture: call.stream ? 'stream-text.chunks.txt' : 'message-text.json' };
      if (chosen.status && chosen.status >= 400) return sendError(res, chosen.status, 'ValidationException', chosen.fixture);
      if (chosen.fixture.endsWith('.chunks.txt')) return writeEventStream(res, chosen.fixture);
      const text = fixture(chosen.fixture);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    region: opts.region,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
