/**
 * Signing in through the admin's custom providers, as the family's console calls it:
 * - GET /api/oauth/{slug}?code&state (kind oauth_code): the redirect back from the provider;
 * - POST /api/auth/external/{slug}/jwt/login {state, id_token | jwt | token} (kind jwt_direct);
 * - POST /api/auth/external/{slug}/header/login (kind trusted_header): the identity in headers
 *   set by a proxy, believed only from a connection whose peer is one of the trusted proxies.
 * A signed-in caller binds the account; anyone else logs in or signs up. The redirect and JWT
 * logins use up this browser's state first; a refused request writes nothing.
 */
import { createHash } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { GatewayContext } from '../../context.js';
import type { CustomOauthProvider } from '../../db/types.js';
import { nowSeconds } from '../../db/index.js';
import { sessionHolder } from '../../auth/guard.js';
import { logInOrAskSecondFactor } from '../../mfa/login-step.js';
import { ok } from '../../http/envelope.js';
import { fail } from '../../http/errors.js';
import { criticalLimit } from '../../ratelimit/hooks.js';
import { findUserById, toPublicUser } from '../../users/repository.js';
import { bindIdentity, signInWith, type IdentitySlot } from '../accounts.js';
import type { Identity } from '../providers.js';
import { CallbackQuery } from '../schemas.js';
import { consumeState } from '../state.js';
import { parseCidrs, type ProviderKind } from './config.js';
import { codeIdentity, identityFrom } from './identity.js';
import { verifyJwt } from './jwt.js';
import { bindExternal, boundUserId, findProviderBySlug } from './repository.js';

const ProviderParams = Type.Object({ provider: Type.String({ maxLength: 64 }) });
const JwtLoginBody = Type.Object({
  state: Type.Optional(Type.String({ maxLength: 256 })),
  token: Type.Optional(Type.String({ maxLength: 16384 })),
  id_token: Type.Optional(Type.String({ maxLength: 16384 })),
  jwt: Type.Optional(Type.String({ maxLength: 16384 })),
});

/** Where a custom provider's accounts are kept: binding rows. */
export function customSlot(p: CustomOauthProvider): IdentitySlot {
  return {
    key: p.slug,
    label: p.name,
    maxIdLength: 256,
    findHolder: async (db, id) => {
      const userId = await boundUserId(db, p.id, id);
      const user = userId === undefined ? undefined : await findUserById(db, userId);
      return user && user.deleted_at === null ? user : undefined;
    },
    bind: (db, userId, id) => bindExternal(db, userId, p.id, id, nowSeconds()),
    // A redirect login follows the site's registration switch, as the built-in ones do; tokens
    // and headers come from machines, so signing people up from them is the admin's explicit choice.
    mayRegister: p.kind === 'oauth_code' || p.auto_register === 1,
  };
}

async function enabledProvider(ctx: GatewayContext, slug: string, kind: ProviderKind): Promise<CustomOauthProvider> {
  const p = await findProviderBySlug(ctx.db, slug);
  if (!p || p.kind !== kind) throw fail('oauth.unknown_provider');
  if (p.enabled !== 1) throw fail('oauth.provider_disabled', { provider: p.name });
  return p;
}

/** The immediate peer of the connection (not X-Forwarded-For: the proxy itself must be trusted). */
function peerAddress(request: FastifyRequest): string {
  return (request.raw.socket.remoteAddress ?? '').replace(/^::ffff:(?=\d+\.)/, '');
}

function fromTrustedProxy(p: CustomOauthProvider, address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  const list = new BlockList();
  for (const entry of parseCidrs(p.trusted_proxy_cidrs ?? '')) {
    const [net = '', prefix] = entry.split('/');
    const type = isIP(net) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(net, type);
    else list.addSubnet(net, Number(prefix), type);
  }
  return list.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

function header(request: FastifyRequest, name: string): string {
  if (!name) return '';
  const value = request.headers[name.toLowerCase()];
  return (Array.isArray(value) ? (value[0] ?? '') : (value ?? '')).trim();
}

export default async function customLoginRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = app.ctx;

  /** Binds for a signed-in caller, else logs in (or signs up) and starts the session. */
  async function finish(request: FastifyRequest, reply: FastifyReply, p: CustomOauthProvider, identity: Identity, aff = '') {
    const slot = customSlot(p);
    const signedIn = await sessionHolder(request);
    if (signedIn) return ok(toPublicUser(await bindIdentity(ctx, signedIn, slot, identity)), 'bind');
    return logInOrAskSecondFactor(ctx, request, reply, await signInWith(ctx, slot, identity, aff));
  }

  app.get(
    '/api/oauth/:provider',
    { schema: { params: ProviderParams, querystring: CallbackQuery }, preHandler: criticalLimit },
    async (request, reply) => {
      const p = await enabledProvider(ctx, request.params.provider, 'oauth_code');
      const { aff } = await consumeState(ctx, request, reply, request.query.state ?? '');
      const code = request.query.code?.trim() ?? '';
      if (!code) throw fail('account.bad_params');
      const address = ctx.options.string('ServerAddress').replace(/\/+$/, '');
      const redirectUri = `${address || `${request.protocol}://${request.host}`}/oauth/${p.slug}`;
      return finish(request, reply, p, await codeIdentity(p, code, redirectUri, request.log), aff);
    },
  );

  app.post(
    '/api/auth/external/:provider/jwt/login',
    { schema: { params: ProviderParams, body: JwtLoginBody }, preHandler: criticalLimit },
    async (request, reply) => {
      const p = await enabledProvider(ctx, request.params.provider, 'jwt_direct');
      const state = request.body.state?.trim() ?? '';
      const { aff } = await consumeState(ctx, request, reply, state);
      const token = [request.body.id_token, request.body.jwt, request.body.token].map((t) => t?.trim() ?? '').find(Boolean);
      if (!token) throw fail('oauth.jwt_missing');
      const { claims, exp } = await verifyJwt(p, token, state);
      // A token logs in once: a copy of it (a log line, a leaked URL) opens no second session.
      const digest = createHash('sha256').update(token).digest('base64url');
      const ttl = Math.max(60, exp - nowSeconds() + 120);
      if (!(await ctx.kv.setIfAbsent(`oauth:jwt-used:${p.id}:${digest}`, '1', ttl)))
        throw fail('oauth.jwt_invalid', { provider: p.name, detail: '令牌已被使用' });
      return finish(request, reply, p, identityFrom(p, claims), aff);
    },
  );

  app.post(
    '/api/auth/external/:provider/header/login',
    { schema: { params: ProviderParams }, preHandler: criticalLimit },
    async (request, reply) => {
      const p = await enabledProvider(ctx, request.params.provider, 'trusted_header');
      if (!fromTrustedProxy(p, peerAddress(request))) throw fail('oauth.header_untrusted');
      const id = header(request, p.external_id_header);
      if (!id) throw fail('oauth.header_missing', { header: p.external_id_header });
      const identity: Identity = {
        id,
        login: header(request, p.username_header),
        displayName: header(request, p.display_name_header),
        email: header(request, p.email_header),
      };
      return finish(request, reply, p, identity);
    },
  );
}
