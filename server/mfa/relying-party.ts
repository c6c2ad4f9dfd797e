/**
 * Who the gateway is to WebAuthn authenticators: the relying party's id (a domain), its name and
 * the origins ceremonies may come from. In order of precedence:
 *  - origins: `passkey.origins` (comma-separated), else the origin of `ServerAddress`, else the
 *    origin the request reached (scheme and Host, as the trusted-proxy rules resolve them);
 *  - id: `passkey.rp_id`, else the host name of the first origin;
 *  - name: `passkey.rp_display_name`, else `SystemName`.
 * Browsers offer WebAuthn only to secure origins (https, or a loopback host); a plain-http origin
 * elsewhere is refused unless `passkey.allow_insecure_origin` says the operator knows better.
 * Credentials are bound to the id: changing the domain makes existing passkeys unusable.
 */
import type { FastifyRequest } from 'fastify';
import type { AuthenticatorAttachment, UserVerificationRequirement } from '@simplewebauthn/server';
import type { OptionStore } from '../options/store.js';
import { fail } from '../http/errors.js';

export interface RelyingParty {
  id: string;
  name: string;
  origins: string[];
  userVerification: UserVerificationRequirement;
  attachment: AuthenticatorAttachment | undefined;
}

const VERIFICATION: readonly UserVerificationRequirement[] = ['required', 'preferred', 'discouraged'];
const ATTACHMENT: readonly AuthenticatorAttachment[] = ['platform', 'cross-platform'];

function isLoopback(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(host) || host === '[::1]';
}

function originOf(address: string): URL {
  let url: URL;
  try {
    url = new URL(address.trim());
  } catch {
    throw fail('passkey.origin_invalid', { origin: address.trim() });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw fail('passkey.origin_invalid', { origin: address.trim() });
  return url;
}

export function relyingParty(options: OptionStore, request: FastifyRequest): RelyingParty {
  const configured = options
    .string('passkey.origins')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  const address = options.string('ServerAddress').trim();
  const sources = configured.length > 0 ? configured : [address || `${request.protocol}://${request.host}`];
  const urls = sources.map(originOf);
  if (!options.bool('passkey.allow_insecure_origin')) {
    const insecure = urls.find((u) => u.protocol === 'http:' && !isLoopback(u.hostname));
    if (insecure) throw fail('passkey.insecure_origin', { origin: insecure.origin });
  }
  const id = options.string('passkey.rp_id').trim() || urls[0]!.hostname;
  const uv = options.string('passkey.user_verification') as UserVerificationRequirement;
  const attachment = options.string('passkey.attachment_preference') as AuthenticatorAttachment;
  return {
    id,
    name: options.string('passkey.rp_display_name').trim() || options.string('SystemName'),
    origins: urls.map((u) => u.origin),
    userVerification: VERIFICATION.includes(uv) ? uv : 'preferred',
    attachment: ATTACHMENT.includes(attachment) ? attachment : undefined,
  };
}
