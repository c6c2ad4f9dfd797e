/**
 * Third-party login and account binding:
 * - GET /api/oauth/state?aff → a state bound to this browser;
 * - GET /api/oauth/{github|oidc|linuxdo|discord}?code&state → binds the account to the signed-in user
 *   (message 'bind'), or logs in / signs up and starts the session like a password login;
 * - GET /api/oauth/wechat?code, /api/oauth/telegram/login?… → log in / sign up;
 * - /api/oauth/wechat/bind (POST {code} as the family sends it, or GET ?code), GET
 *   /api/oauth/telegram/bind?… → bind (signed-in users).
 * Each provider answers only when the admin switched it on. All share the critical rate limit.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { User } from '../db/types.js';
import { currentUser, requireUser, sessionHolder } from '../auth/guard.js';
import { logInOrAskSecondFactor } from '../mfa/login-step.js';
import { ok } from '../http/envelope.js';
import { fail } from '../http/errors.js';
import { criticalLimit } from '../ratelimit/hooks.js';
import { toPublicUser } from '../users/repository.js';
import { bindIdentity, signInWith } from './accounts.js';
import {
  discordIdentity,
  githubIdentity,
  linuxdoIdentity,
  oidcIdentity,
  requireEnabled,
  wechatIdentity,
  type Identity,
  type RedirectProvider,
} from './providers.js';
import { CallbackQuery, StateQuery, TelegramQuery, WeChatBindBody, WeChatQuery } from './schemas.js';
import { consumeState, issueState } from './state.js';
import { TELEGRAM_FIELDS, verifyTelegramLogin, type TelegramData } from './telegram.js';

const REDIRECT_PROVIDERS: RedirectProvider[] = ['github', 'oidc', 'linuxdo', 'discord'];

/**
 * The redirect_uri the browser was sent with: the console builds it from its own address, which is
 * the configured server address in a normal deployment, or else this request's.
 */
function redirectUri(request: FastifyRequest, provider: RedirectProvider): string {
  const address = request.server.ctx.options.string('ServerAddress').replace(/\/+$/, '');
  return `${address || `${request.protocol}://${request.host}`}/oauth/${provider}`;
}

/**
 * Logs `user` in exactly as the password login does: the session cookie and the user as data, or,
 * for an account with two-factor sign-in, the request for its code.
 */
function logIn(request: FastifyRequest, reply: FastifyReply, user: User) {
  return logInOrAskSecondFactor(request.server.ctx, request, reply, user);
}

function telegramData(query: TelegramQuery): TelegramData {
  const data: TelegramData = {};
  for (const key of TELEGRAM_FIELDS) if (query[key] !== undefined) data[key] = query[key];
  return data;
}

export default async function oauthRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = app.ctx;
  const { options } = ctx;

  app.get('/api/oauth/state', { schema: { querystring: StateQuery }, preHandler: criticalLimit }, async (request, reply) =>
    ok(await issueState(ctx, reply, request.query.aff ?? '')),
  );

  const identityOf = (provider: RedirectProvider, code: string, request: FastifyRequest): Promise<Identity> => {
    switch (provider) {
      case 'github':
        return githubIdentity(options, code, request.log);
      case 'oidc':
        return oidcIdentity(options, code, redirectUri(request, provider), request.log);
      case 'linuxdo':
        return linuxdoIdentity(options, code, redirectUri(request, provider), request.log);
      case 'discord':
        return discordIdentity(options, code, redirectUri(request, provider), request.log);
    }
  };

  for (const provider of REDIRECT_PROVIDERS) {
    app.get(
      `/api/oauth/${provider}`,
      { schema: { querystring: CallbackQuery }, preHandler: criticalLimit },
      async (request, reply) => {
        requireEnabled(options, provider);
        const { aff } = await consumeState(ctx, request, reply, request.query.state ?? '');
        const code = request.query.code?.trim() ?? '';
        if (!code) throw fail('account.bad_params');
        const identity = await identityOf(provider, code, request);
        const signedIn = await sessionHolder(request);
        if (signedIn) return ok(toPublicUser(await bindIdentity(ctx, signedIn, provider, identity)), 'bind');
        return logIn(request, reply, await signInWith(ctx, provider, identity, aff));
      },
    );
  }

  const wechatCode = (query: WeChatQuery): string => {
    requireEnabled(options, 'wechat');
    const code = query.code?.trim() ?? '';
    if (!code) throw fail('account.bad_params');
    return code;
  };

  app.get('/api/oauth/wechat', { schema: { querystring: WeChatQuery }, preHandler: criticalLimit }, async (request, reply) => {
    const identity = await wechatIdentity(options, wechatCode(request.query), request.log);
    return logIn(request, reply, await signInWith(ctx, 'wechat', identity, request.query.aff ?? ''));
  });

  const bindWeChat = async (request: FastifyRequest, code: string | undefined) => {
    const identity = await wechatIdentity(options, wechatCode({ code }), request.log);
    return ok(toPublicUser(await bindIdentity(ctx, currentUser(request), 'wechat', identity)), '绑定成功！');
  };

  app.get(
    '/api/oauth/wechat/bind',
    { onRequest: requireUser, preHandler: criticalLimit, schema: { querystring: WeChatQuery } },
    async (request) => bindWeChat(request, request.query.code),
  );

  app.post(
    '/api/oauth/wechat/bind',
    { onRequest: requireUser, preHandler: criticalLimit, schema: { querystring: WeChatQuery, body: WeChatBindBody } },
    async (request) => bindWeChat(request, request.body.code ?? request.query.code),
  );

  const telegramIdentity = (query: TelegramQuery): Identity => {
    requireEnabled(options, 'telegram');
    return verifyTelegramLogin(options.string('TelegramBotToken'), telegramData(query));
  };

  app.get(
    '/api/oauth/telegram/login',
    { schema: { querystring: TelegramQuery }, preHandler: criticalLimit },
    async (request, reply) => logIn(request, reply, await signInWith(ctx, 'telegram', telegramIdentity(request.query), '')),
  );

  app.get(
    '/api/oauth/telegram/bind',
    { onRequest: requireUser, preHandler: criticalLimit, schema: { querystring: TelegramQuery } },
    async (request) =>
      ok(toPublicUser(await bindIdentity(ctx, currentUser(request), 'telegram', telegramIdentity(request.query))), '绑定成功！'),
  );
}
