/**
 * A local stand-in for an identity provider an admin adds as a custom provider, speaking the wire
 * formats the gateway reads:
 * - OAuth 2 (RFC 6749): POST /token (form grant_type, code, redirect_uri; client credentials as
 *   form fields or HTTP Basic, whichever the test requires), GET /userinfo (Bearer) answering the
 *   person nested under `data.user` as some providers do;
 * - OIDC discovery: GET /.well-known/openid-configuration;
 * - a JWKS (RFC 7517) at /jwks.json with an ES256 key, and JWTs signed here (RS256 with a PEM key,
 *   ES256 with the JWKS key, or any header the test forges).
 * Codes work once, like real ones.
 */
import { generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { createServer } from 'node:http';
import { listenLocally, readBody, sendJson } from './stand-in-server.js';

export const IDP_CLIENT = { id: 'corp-client', secret: 'corp-secret-value-1234' };

export interface IdpPerson {
  id: number | string;
  login: string;
  name?: string;
  email?: string;
}

export interface IdpRequest {
  path: string;
  authorization: string;
  form: URLSearchParams;
}

export interface CustomIdp {
  url: string;
  /** How the token endpoint wants the client's credentials. */
  clientAuth: 'form' | 'basic';
  code(person: IdpPerson): string;
  /** PEM of the RS256 key's public half (the provider's `public_key`). */
  rsaPublicPem: string;
  /** A JWT over `claims`: RS256 by default, ES256 with the JWKS key (kid `es-1`). */
  jwt(claims: Record<string, unknown>, options?: { alg?: 'RS256' | 'ES256'; header?: Record<string, unknown> }): string;
  requests: IdpRequest[];
  close(): Promise<void>;
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

export async function startCustomIdp(): Promise<CustomIdp> {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const codes = new Map<string, IdpPerson>();
  const tokens = new Map<string, IdpPerson>();
  const requests: IdpRequest[] = [];
  let clientAuth: 'form' | 'basic' = 'form';

  const credentialsOf = (authorization: string, form: URLSearchParams) => {
    if (clientAuth === 'form') return { id: form.get('client_id'), secret: form.get('client_secret') };
    const decoded = Buffer.from(/^Basic (.+)$/.exec(authorization)?.[1] ?? '', 'base64').toString();
    const [id, secret] = decoded.split(':').map((s) => decodeURIComponent(s.replace(/\+/g, ' ')));
    return { id, secret };
  };

  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://idp');
    const authorization = req.headers.authorization ?? '';
    const form = new URLSearchParams(body);
    requests.push({ path: url.pathname, authorization, form });
    switch (`${req.method} ${url.pathname}`) {
      case 'POST /token': {
        const client = credentialsOf(authorization, form);
        if (client.id !== IDP_CLIENT.id || client.secret !== IDP_CLIENT.secret)
          return sendJson(res, 401, { error: 'invalid_client' });
        const person = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        if (!person || form.get('grant_type') !== 'authorization_code') return sendJson(res, 400, { error: 'invalid_grant' });
        const token = randomBytes(12).toString('hex');
        tokens.set(token, person);
        return sendJson(res, 200, { access_token: token, token_type: 'Bearer', expires_in: 3600 });
      }
      case 'GET /userinfo': {
        const person = tokens.get(/^Bearer (.+)$/.exec(authorization)?.[1] ?? '');
        if (!person) return sendJson(res, 401, { error: 'invalid_token' });
        return sendJson(res, 200, {
          data: { user: { id: person.id, login: person.login, nick: person.name, mail: person.email } },
        });
      }
      case 'GET /.well-known/openid-configuration':
        return sendJson(res, 200, {
          issuer: `${origin}`,
          authorization_endpoint: `${origin}/authorize`,
          token_endpoint: `${origin}/token`,
          userinfo_endpoint: `${origin}/userinfo`,
          jwks_uri: `${origin}/jwks.json`,
        });
      case 'GET /jwks.json':
        return sendJson(res, 200, {
          keys: [{ ...ec.publicKey.export({ format: 'jwk' }), kid: 'es-1', use: 'sig', alg: 'ES256' }],
        });
      default:
        return sendJson(res, 404, { error: 'not_found' });
    }
  });
  const { url: origin, close } = await listenLocally(server);

  function jwt(claims: Record<string, unknown>, options: { alg?: 'RS256' | 'ES256'; header?: Record<string, unknown> } = {}) {
    const alg = options.alg ?? 'RS256';
    const header = options.header ?? { alg, typ: 'JWT', ...(alg === 'ES256' ? { kid: 'es-1' } : {}) };
    const input = `${b64(header)}.${b64(claims)}`;
    const key: KeyObject = alg === 'ES256' ? ec.privateKey : rsa.privateKey;
    const signature = sign('sha256', Buffer.from(input), alg === 'ES256' ? { key, dsaEncoding: 'ieee-p1363' } : key);
    return `${input}.${signature.toString('base64url')}`;
  }

  return {
    url: origin,
    get clientAuth() {
      return clientAuth;
    },
    set clientAuth(value) {
      clientAuth = value;
    },
    code(person) {
      const code = randomBytes(12).toString('hex');
      codes.set(code, person);
      return code;
    },
    rsaPublicPem: rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    jwt,
    requests,
    close,
  };
}
