/**
 * A local stand-in for Google's OAuth token endpoint and Vertex AI's publisher-model endpoints.
 * The token endpoint verifies each JWT assertion's RS256 signature with the public key of the
 * account it names (test key pairs) and its claims (audience, scope, times) before issuing an
 * access token; the model endpoints accept only tokens it issued, for the right project. Answers
 * replay tests/fixtures/providers/vertex/ (Gemini generateContent and Claude rawPredict, whole or
 * SSE); Veo's predictLongRunning and fetchPredictOperation are vertex-veo.ts.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import type { RecordedRequest } from './openai.js';
import { createVeoOperations, type VeoOperations } from './vertex-veo.js';

const dir = fileURLToPath(new URL('../../fixtures/providers/vertex/', import.meta.url));
const fixture = (name: string) => readFileSync(dir + name, 'utf8');

export interface VertexCall extends RecordedRequest {
  publisher: 'google' | 'anthropic' | '';
  project: string;
  region: string;
  model: string;
  action: string;
}

export interface TokenCall {
  /** The assertion's issuer (the service account's e-mail), as it claims. */
  issuer: string;
  /** The assertion's claims when its signature held, else null. */
  claims: Record<string, unknown> | null;
  granted: boolean;
}

export interface VertexStandIn {
  url: string;
  /** Where the service account's `token_uri` points. */
  tokenUri: string;
  requests: VertexCall[];
  tokenRequests: TokenCall[];
  /** Veo's long-running predictions (vertex-veo.ts). */
  veo: VeoOperations;
  close(): Promise<void>;
}

export interface VertexStandInOptions {
  project: string;
  /** Service-account e-mail → its public key (PEM). */
  accounts: Record<string, string>;
  /** Seconds an issued token lives (default 3599). */
  tokenLifetime?: number;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function json(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function sse(res: ServerResponse, name: string): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const event of fixture(name)
    .split(/\n\n/)
    .filter((e) => e.trim() !== ''))
    res.write(`${event}\n\n`);
  res.end();
}

const decode = (part: string): Record<string, unknown> => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

/** The issuer a JWT claims, and its claims when the issuer's key verifies its RS256 signature. */
function checkAssertion(jwt: string, keys: Map<string, KeyObject>): { issuer: string; claims: Record<string, unknown> | null } {
  const [header, payload, signature] = jwt.split('.');
  if (!header || !payload || !signature) return { issuer: '', claims: null };
  const claims = decode(payload);
  const issuer = typeof claims.iss === 'string' ? claims.iss : '';
  const key = keys.get(issuer);
  if (!key || decode(header).alg !== 'RS256') return { issuer, claims: null };
  const ok = verify('RSA-SHA256', Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, 'base64url'));
  return { issuer, claims: ok ? claims : null };
}

export async function startVertexStandIn(opts: VertexStandInOptions): Promise<VertexStandIn> {
  const keys = new Map(Object.entries(opts.accounts).map(([email, pem]) => [email, createPublicKey(pem)]));
  const requests: VertexCall[] = [];
  const tokenRequests: TokenCall[] = [];
  const issued = new Set<string>();
  const veo = createVeoOperations();
  let url = '';

  const grant = (form: URLSearchParams): { status: number; text: string } => {
    const call: TokenCall = { ...checkAssertion(form.get('assertion') ?? '', keys), granted: false };
    tokenRequests.push(call);
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
      return { status: 400, text: '{"error":"unsupported_grant_type","error_description":"Invalid grant_type"}' };
    }
    const now = Math.floor(Date.now() / 1000);
    const c = call.claims;
    const valid =
      c !== null &&
      c.aud === `${url}/token` &&
      c.scope === 'https://www.googleapis.com/auth/cloud-platform' &&
      typeof c.iat === 'number' &&
      typeof c.exp === 'number' &&
      c.iat <= now + 60 &&
      c.exp > now &&
      c.exp - c.iat <= 3600;
    if (!valid) return { status: 400, text: fixture('token-invalid-grant.json') };
    call.granted = true;
    const token = `ya29.c.stand-in-${tokenRequests.length}`;
    issued.add(token);
    return {
      status: 200,
      text: JSON.stringify({ access_token: token, expires_in: opts.tokenLifetime ?? 3599, token_type: 'Bearer' }),
    };
  };

  const server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      const path = (req.url ?? '').split('?')[0] ?? '';
      if (path === '/token') {
        const answer = grant(new URLSearchParams(raw));
        return json(res, answer.status, answer.text);
      }
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        /* kept as text */
      }
      const m = /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/(google|anthropic)\/models\/([^/:]+):(\w+)$/.exec(
        path,
      );
      const call: VertexCall = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body,
        project: m ? decodeURIComponent(m[1]!) : '',
        region: m ? decodeURIComponent(m[2]!) : '',
        publisher: m ? (m[3] as 'google' | 'anthropic') : '',
        model: m ? decodeURIComponent(m[4]!) : '',
        action: m?.[5] ?? '',
      };
      requests.push(call);
      const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1] ?? '';
      if (!issued.has(bearer)) return json(res, 401, fixture('error-unauthenticated.json'));
      if (!m || call.project !== opts.project) {
        return json(res, 404, JSON.stringify({ error: { code: 404, message: `Not found: ${path}`, status: 'NOT_FOUND' } }));
      }
      const payload = (body ?? {}) as Record<string, unknown>;
      if (call.publisher === 'google' && veo.handles(call.action)) return veo.answer(call, payload, res);
      if (call.publisher === 'google') {
        if (!Array.isArray(payload.contents) || 'model' in payload) {
          return json(
            res,
            400,
            JSON.stringify({ error: { code: 400, message: 'Invalid JSON payload received.', status: 'INVALID_ARGUMENT' } }),
          );
        }
        if (call.action === 'streamGenerateContent') return sse(res, 'gemini-stream-text.chunks.txt');
        if (call.action === 'generateContent') {
          return json(res, 200, fixture(call.model.endsWith('-image') ? 'gemini-image.json' : 'gemini-text.json'));
        }
      } else {
        if (payload.anthropic_version !== 'vertex-2023-10-16' || 'model' in payload) {
          const error = {
            type: 'error',
            error: {
              type: 'invalid_request_error',
              message: 'anthropic_version: vertex-2023-10-16 is required; model belongs in the URL',
            },
          };
          return json(res, 400, JSON.stringify(error));
        }
        if (call.action === 'streamRawPredict') return sse(res, 'claude-stream-text.chunks.txt');
        if (call.action === 'rawPredict') return json(res, 200, fixture('claude-message.json'));
      }
      json(
        res,
        400,
        JSON.stringify({ error: { code: 400, message: `Unknown action ${call.action}`, status: 'INVALID_ARGUMENT' } }),
      );
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  url = `http://127.0.0.1:${port}`;
  return {
    url,
    tokenUri: `${url}/token`,
    requests,
    tokenRequests,
    veo,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
