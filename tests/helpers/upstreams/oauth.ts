/**
 * A local stand-in for the third-party login providers, each on its own path prefix and speaking
 * its wire format:
 * - GitHub (/github): POST /login/oauth/access_token (form client_id, client_secret, code; JSON
 *   answer, errors as 200 {error, error_description}), GET /user (Bearer; needs a User-Agent);
 * - Linux DO (/linuxdo): POST /oauth2/token (HTTP Basic client auth, form grant_type, code,
 *   redirect_uri), GET /api/user (Bearer);
 * - an OpenID provider (/oidc): POST /token (client_secret_basic), GET /userinfo (Bearer; sub,
 *   preferred_username, name, email, email_verified);
 * - Discord (/discord): POST /api/v10/oauth2/token (form client_id, client_secret, grant_type,
 *   code, redirect_uri), GET /api/v10/users/@me (Bearer; id as a string, username, global_name);
 * - the wechat-server (/wechat): GET /api/wechat/user?code= with the shared token in
 *   Authorization → {success, message, data: openid} (empty data for an unknown code).
 * Authorization codes are issued by the test (`code`) and work once, like the real ones.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { listenLocally, readBody, sendJson } from './stand-in-server.js';

export const CLIENTS = {
  github: { id: 'gh-client-id', secret: 'gh-client-secret' },
  linuxdo: { id: 'ld-client-id', secret: 'ld-client-secret' },
  oidc: { id: 'oidc-client-id', secret: 'oidc-client-secret' },
  discord: { id: 'dc-client-id', secret: 'dc-client-secret' },
} as const;
export const WECHAT_TOKEN = 'wechat-server-token';

export type CodeProvider = keyof typeof CLIENTS;

/** A person at the provider: GitHub and Linux DO use a numeric id and a login, OIDC a `sub`. */
export interface ProviderUser {
  id: number | string;
  login: string;
  name?: string;
  email?: string;
  email_verified?: boolean;
}

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface OAuthStandIn {
  url: string;
  /** Where the gateway's fixed GitHub and Linux DO addresses should point. */
  fixedEndpoints: Record<'github' | 'linuxdo' | 'discord', { token: string; user: string }>;
  oidc: { token: string; userInfo: string };
  /** The WeChatServerAddress option's value. */
  wechatAddress: string;
  /** A fresh one-time authorization code that stands for `user` at `provider`. */
  code(provider: CodeProvider, user: ProviderUser): string;
  /** A WeChat verification code for the official account's follower `openid`. */
  wechatCode(openid: string): string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

const random = () => randomBytes(12).toString('hex');

function basicCredentials(header: string | undefined): { id: string; secret: string } | null {
  const match = /^Basic\s+(.+)$/i.exec(header ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
  return { id: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) };
}

const bearer = (header: string | undefined) => /^Bearer\s+(.+)$/i.exec(header ?? '')?.[1] ?? '';

export async function startOAuthStandIn(): Promise<OAuthStandIn> {
  const codes = new Map<string, { provider: CodeProvider; user: ProviderUser }>();
  const tokens = new Map<string, { provider: CodeProvider; user: ProviderUser }>();
  const wechatCodes = new Map<string, string>();
  const requests: SeenRequest[] = [];

  /** Trades a code for an access token once; null when unknown, used, or for another provider. */
  function redeem(provider: CodeProvider, code: string): string | null {
    const grant = codes.get(code);
    if (!grant || grant.provider !== provider) return null;
    codes.delete(code);
    const token = `${provider}-token-${random()}`;
    tokens.set(token, grant);
    return token;
  }

  const userOf = (provider: CodeProvider, header: string | undefined) => {
    const grant = tokens.get(bearer(header));
    return grant && grant.provider === provider ? grant.user : null;
  };

  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://stand-in');
    requests.push({ method: req.method ?? '', path: url.pathname, headers: req.headers, body });
    const form = new URLSearchParams(body);

    switch (`${req.method} ${url.pathname}`) {
      case 'POST /github/login/oauth/access_token': {
        if (form.get('client_id') !== CLIENTS.github.id || form.get('client_secret') !== CLIENTS.github.secret) {
          return sendJson(res, 200, {
            error: 'incorrect_client_credentials',
            error_description: 'The client_id and/or client_secret passed are incorrect.',
          });
        }
        const token = redeem('github', form.get('code') ?? '');
        if (!token)
          return sendJson(res, 200, {
            error: 'bad_verification_code',
            error_description: 'The code passed is incorrect or expired.',
          });
        if (!String(req.headers.accept).includes('application/json')) {
          res.writeHead(200, { 'content-type': 'application/x-www-form-urlencoded' });
          return res.end(`access_token=${token}&scope=user%3Aemail&token_type=bearer`);
        }
        return sendJson(res, 200, { access_token: token, scope: 'user:email', token_type: 'bearer' });
      }
      case 'GET /github/user': {
        if (!req.headers['user-agent']) return sendJson(res, 403, { message: 'Request forbidden by administrative rules.' });
        const user = userOf('github', req.headers.authorization);
        if (!user) return sendJson(res, 401, { message: 'Bad credentials' });
        return sendJson(res, 200, { login: user.login, id: user.id, name: user.name ?? null, email: user.email ?? null });
      }
      case 'POST /linuxdo/oauth2/token':
      case 'POST /oidc/token': {
        const provider: CodeProvider = url.pathname.startsWith('/oidc') ? 'oidc' : 'linuxdo';
        const client = basicCredentials(req.headers.authorization);
        if (!client || client.id !== CLIENTS[provider].id || client.secret !== CLIENTS[provider].secret) {
          return sendJson(res, 401, { error: 'invalid_client' });
        }
        if (form.get('grant_type') !== 'authorization_code') return sendJson(res, 400, { error: 'unsupported_grant_type' });
        const token = redeem(provider, form.get('code') ?? '');
        if (!token) return sendJson(res, 400, { error: 'invalid_grant' });
        return sendJson(res, 200, { access_token: token, token_type: 'Bearer', expires_in: 3600 });
      }
      case 'GET /linuxdo/api/user': {
        const user = userOf('linuxdo', req.headers.authorization);
        if (!user) return sendJson(res, 401, { error: 'invalid_token' });
        return sendJson(res, 200, {
          id: user.id,
          username: user.login,
          name: user.name ?? '',
          active: true,
          trust_level: 1,
          silenced: false,
          ...(user.email ? { email: user.email } : {}),
        });
      }
      case 'GET /oidc/userinfo': {
        const user = userOf('oidc', req.headers.authorization);
        if (!user) return sendJson(res, 401, { error: 'invalid_token' });
        return sendJson(res, 200, {
          sub: String(user.id),
          preferred_username: user.login,
          name: user.name,
          email: user.email,
          email_verified: user.email_verified ?? true,
        });
      }
      case 'POST /discord/api/v10/oauth2/token': {
        if (form.get('client_id') !== CLIENTS.discord.id || form.get('client_secret') !== CLIENTS.discord.secret)
          return sendJson(res, 401, { error: 'invalid_client' });
        if (form.get('grant_type') !== 'authorization_code') return sendJson(res, 400, { error: 'unsupported_grant_type' });
        const token = redeem('discord', form.get('code') ?? '');
        if (!token) return sendJson(res, 400, { error: 'invalid_grant', error_description: 'Invalid "code" in request.' });
        return sendJson(res, 200, { access_token: token, token_type: 'Bearer', expires_in: 604800, scope: 'identify email' });
      }
      case 'GET /discord/api/v10/users/@me': {
        const user = userOf('discord', req.headers.authorization);
        if (!user) return sendJson(res, 401, { message: '401: Unauthorized', code: 0 });
        return sendJson(res, 200, {
          id: String(user.id),
          username: user.login,
          global_name: user.name ?? null,
          email: user.email ?? null,
          verified: user.email_verified ?? true,
        });
      }
      case 'GET /wechat/api/wechat/user': {
        if (req.headers.authorization !== WECHAT_TOKEN) {
          return sendJson(res, 200, { success: false, message: '无权进行此操作，未登录或 token 无效' });
        }
        const code = url.searchParams.get('code') ?? '';
        if (!code) return sendJson(res, 200, { success: false, message: '无效的参数' });
        const openid = wechatCodes.get(code) ?? '';
        wechatCodes.delete(code);
        return sendJson(res, 200, { success: true, message: '', data: openid });
      }
      default:
        return sendJson(res, 404, { message: 'Not Found' });
    }
  });
  const { url, close } = await listenLocally(server);

  return {
    url,
    fixedEndpoints: {
      github: { token: `${url}/github/login/oauth/access_token`, user: `${url}/github/user` },
      linuxdo: { token: `${url}/linuxdo/oauth2/token`, user: `${url}/linuxdo/api/user` },
      discord: { token: `${url}/discord/api/v10/oauth2/token`, user: `${url}/discord/api/v10/users/@me` },
    },
    oidc: { token: `${url}/oidc/token`, userInfo: `${url}/oidc/userinfo` },
    wechatAddress: `${url}/wechat`,
    code(provider, user) {
      const code = random();
      codes.set(code, { provider, user });
      return code;
    },
    wechatCode(openid) {
      const code = String(100000 + (randomBytes(3).readUIntBE(0, 3) % 900000));
      wechatCodes.set(code, openid);
      return code;
    },
    requests,
    close,
  };
}
