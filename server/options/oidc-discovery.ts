/**
 * POST /api/option/oidc_discovery {url} (root): reads an OpenID provider's discovery document
 * (`…/.well-known/openid-configuration`) through the SSRF-safe fetcher and answers the three
 * endpoints the OIDC settings need. Nothing is stored: the console fills its form with the answer.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import { requireRoot } from '../auth/guard.js';
import { Envelope } from '../http/schemas.js';
import { ok } from '../http/envelope.js';
import { fail } from '../http/errors.js';
import { safeFetch } from '../http/safe-fetch.js';

const DISCOVERY_TIMEOUT_MS = 10_000;
const DISCOVERY_MAX_BYTES = 512 * 1024;

export const OidcDiscoveryBody = Type.Object({ url: Type.String({ maxLength: 2048 }) });

export const OidcEndpoints = Type.Object({
  authorization_endpoint: Type.String(),
  token_endpoint: Type.String(),
  user_info_endpoint: Type.String(),
});
export type OidcEndpoints = Static<typeof OidcEndpoints>;

const failed = (reason: string) => fail('option.oidc_discovery_failed', { detail: reason });

/** One endpoint of the document: an absolute http(s) URL, or a failure naming the field. */
function endpoint(doc: Record<string, unknown>, field: string): string {
  const value = doc[field];
  if (typeof value !== 'string' || value === '') throw failed(`缺少 ${field}`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw failed(`${field} 不是合法的地址`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw failed(`${field} 不是 http(s) 地址`);
  return value;
}

/** The endpoints named by a discovery document's text. */
export function parseDiscovery(status: number, text: string): OidcEndpoints {
  if (status < 200 || status >= 300) throw failed(`HTTP ${status}`);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw failed('返回的不是 JSON');
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw failed('返回的不是 JSON 对象');
  const record = doc as Record<string, unknown>;
  return {
    authorization_endpoint: endpoint(record, 'authorization_endpoint'),
    token_endpoint: endpoint(record, 'token_endpoint'),
    user_info_endpoint: endpoint(record, 'userinfo_endpoint'),
  };
}

export default async function oidcDiscoveryRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/api/option/oidc_discovery',
    {
      onRequest: requireRoot,
      schema: { body: OidcDiscoveryBody, response: { 200: Envelope(OidcEndpoints) } },
      // The console saves what it found through PUT /api/option/, which is audited.
      config: { audit: { exempt: 'reads a discovery document; changes nothing' } },
    },
    async (request) => {
      const url = request.body.url.trim();
      if (!/^https?:\/\//i.test(url)) throw fail('option.oidc_bad_url');
      let status: number;
      let text: string;
      try {
        const res = await safeFetch(url, {
          headers: { accept: 'application/json' },
          timeoutMs: DISCOVERY_TIMEOUT_MS,
          maxBytes: DISCOVERY_MAX_BYTES,
        });
        status = res.status;
        text = res.text();
      } catch (err) {
        throw failed((err as Error).message);
      }
      return ok(parseDiscovery(status, text));
    },
  );
}
