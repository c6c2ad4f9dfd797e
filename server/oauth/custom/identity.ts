/**
 * The identity behind an authorization code at a custom OAuth 2 provider: the code traded at its
 * token endpoint (client credentials as form fields, or HTTP Basic when `auth_style` is 2), then
 * its user-info endpoint read with the access token, the fields taken where the admin said they
 * are. Both calls go through the SSRF-safe fetcher, like the built-in providers'.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { CustomOauthProvider } from '../../db/types.js';
import { accessToken, basicAuth, fetchJson, FORM, type Identity } from '../providers.js';

const AUTH_STYLE_HEADER = 2;

/** The value at `a.b.0.c` in a JSON value; undefined when the path leads nowhere. */
export function valueAt(root: unknown, path: string): unknown {
  let node = root;
  for (const part of path.split('.')) {
    if (Array.isArray(node) && /^\d+$/.test(part)) node = node[Number(part)];
    else if (node && typeof node === 'object' && !Array.isArray(node)) node = (node as Record<string, unknown>)[part];
    else return undefined;
  }
  return node;
}

/** A string or an integer as text; anything else is none. */
export function textAt(root: unknown, path: string): string {
  const value = valueAt(root, path);
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return typeof value === 'string' ? value.trim() : '';
}

/** The identity fields of a JSON object (a user-info answer or a token's claims). */
export function identityFrom(p: CustomOauthProvider, source: unknown): Identity {
  return {
    id: textAt(source, p.user_id_field),
    login: textAt(source, p.username_field),
    displayName: textAt(source, p.display_name_field),
    email: textAt(source, p.email_field),
  };
}

export async function codeIdentity(
  p: CustomOauthProvider,
  code: string,
  redirectUri: string,
  log: FastifyBaseLogger,
): Promise<Identity> {
  const form = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri });
  const headers: Record<string, string> = { 'Content-Type': FORM };
  if (p.auth_style === AUTH_STYLE_HEADER) headers.Authorization = basicAuth(p.client_id, p.client_secret);
  else {
    form.set('client_id', p.client_id);
    form.set('client_secret', p.client_secret);
  }
  const grant = await fetchJson(p.name, p.token_endpoint, { method: 'POST', headers, body: form.toString() }, log);
  const token = accessToken(p.name, grant);
  const user = await fetchJson(p.name, p.user_info_endpoint, { headers: { Authorization: `Bearer ${token}` } }, log);
  return identityFrom(p, user);
}
