/**
 * The third-party identity providers: how each one turns what the browser brought back (an
 * authorization code, a WeChat verification code) into an identity — the provider's stable user
 * id, a login name, a display name and an e-mail address when it gives one. Every call goes
 * through the SSRF-safe fetcher to public addresses only: these calls carry what a browser brought
 * back, and ALLOW_PRIVATE_UPSTREAMS opens the gateway's network to channel upstreams alone.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { OptionStore } from '../options/store.js';
import type { OptionKey } from '../options/registry.js';
import { fail } from '../http/errors.js';
import { safeFetch, SafeFetchError } from '../http/safe-fetch.js';

export type ProviderKey = 'github' | 'oidc' | 'linuxdo' | 'discord' | 'wechat' | 'telegram';
/** The providers a browser reaches by redirect and that come back to /oauth/{type}. */
export type RedirectProvider = 'github' | 'oidc' | 'linuxdo' | 'discord';

export interface Identity {
  /** The provider's stable user id (stored in the user's provider column). */
  id: string;
  /** A login name to derive a username from; may be empty. */
  login: string;
  displayName: string;
  /** An address the provider vouches for; empty when it gives none. */
  email: string;
}

export interface ProviderInfo {
  label: string;
  column: 'github_id' | 'oidc_id' | 'linux_do_id' | 'discord_id' | 'wechat_id' | 'telegram_id';
  /** Width of the column: a longer id is refused rather than cut. */
  maxIdLength: number;
  enabledKey: OptionKey;
}

export const PROVIDERS: Record<ProviderKey, ProviderInfo> = {
  github: { label: 'GitHub', column: 'github_id', maxIdLength: 64, enabledKey: 'GitHubOAuthEnabled' },
  oidc: { label: 'OIDC', column: 'oidc_id', maxIdLength: 128, enabledKey: 'oidc.enabled' },
  linuxdo: { label: 'Linux DO', column: 'linux_do_id', maxIdLength: 64, enabledKey: 'LinuxDOOAuthEnabled' },
  discord: { label: 'Discord', column: 'discord_id', maxIdLength: 64, enabledKey: 'discord.enabled' },
  wechat: { label: '微信', column: 'wechat_id', maxIdLength: 64, enabledKey: 'WeChatAuthEnabled' },
  telegram: { label: 'Telegram', column: 'telegram_id', maxIdLength: 64, enabledKey: 'TelegramOAuthEnabled' },
};

/** Refuses when the admin has not switched the provider on. */
export function requireEnabled(options: OptionStore, provider: ProviderKey): void {
  const { label, enabledKey } = PROVIDERS[provider];
  if (!options.bool(enabledKey)) throw fail('oauth.provider_disabled', { provider: label });
}

/** GitHub's, Linux DO's and Discord's fixed addresses. */
interface FixedEndpoints {
  token: string;
  user: string;
}

type FixedProvider = 'github' | 'linuxdo' | 'discord';

const DEFAULT_ENDPOINTS: Record<FixedProvider, FixedEndpoints> = {
  github: { token: 'https://github.com/login/oauth/access_token', user: 'https://api.github.com/user' },
  linuxdo: { token: 'https://connect.linux.do/oauth2/token', user: 'https://connect.linux.do/api/user' },
  discord: { token: 'https://discord.com/api/v10/oauth2/token', user: 'https://discord.com/api/v10/users/@me' },
};

let fixedEndpoints = { ...DEFAULT_ENDPOINTS };

/**
 * Test-only: points GitHub, Linux DO and Discord at a local stand-in (the tests' gateway runs in the same
 * process). Returns the function that puts the real addresses back. Not a user-facing setting.
 */
export function overrideFixedEndpoints(endpoints: Partial<Record<FixedProvider, FixedEndpoints>>): () => void {
  fixedEndpoints = { ...fixedEndpoints, ...endpoints };
  return () => {
    fixedEndpoints = { ...DEFAULT_ENDPOINTS };
  };
}

const TIMEOUT_MS = 10_000;
const MAX_BYTES = 256 * 1024;
const USER_AGENT = 'ai-gateway-oauth';

/** What a provider answered, parsed as a JSON object; anything else is a failure of `label`. */
export async function fetchJson(
  label: string,
  url: string,
  init: { method?: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
  log: FastifyBaseLogger,
): Promise<Record<string, unknown>> {
  const failure = fail('oauth.authorization_failed', { provider: label });
  let res;
  try {
    res = await safeFetch(url, {
      ...init,
      headers: { 'User-Agent': USER_AGENT, Accept: 'application/json', ...init.headers },
      timeoutMs: TIMEOUT_MS,
      maxBytes: MAX_BYTES,
    });
  } catch (err) {
    // The reason names the address; the admin reads it in the log, the person gets the plain message.
    log.warn({ provider: label, reason: err instanceof SafeFetchError ? err.message : String(err) }, 'oauth request failed');
    throw failure;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(res.text());
  } catch {
    parsed = null;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    log.warn({ provider: label, status: res.status }, 'oauth answer is not a JSON object');
    throw failure;
  }
  const body = parsed as Record<string, unknown>;
  if (res.status < 200 || res.status >= 300 || typeof body.error === 'string') {
    const reason = typeof body.error_description === 'string' ? body.error_description : body.error;
    log.warn({ provider: label, status: res.status, reason }, 'oauth request refused');
    // An OAuth error code (invalid_grant …) helps the person; free text from the provider is not shown.
    const code = typeof body.error === 'string' && /^[\w.-]{1,64}$/.test(body.error) ? body.error : '';
    throw code ? fail('oauth.authorization_refused', { provider: label, detail: code }) : failure;
  }
  return body;
}

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** A string or integer id; anything else is none. */
function idOf(value: unknown): string {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return text(value);
}

export function basicAuth(clientId: string, secret: string): string {
  // RFC 6749 §2.3.1: both parts form-encoded before the base64.
  const encode = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(secret)}`).toString('base64')}`;
}

export const FORM = 'application/x-www-form-urlencoded';

export function accessToken(label: string, body: Record<string, unknown>): string {
  const token = text(body.access_token);
  if (!token) throw fail('oauth.no_access_token', { provider: label });
  return token;
}

export async function githubIdentity(options: OptionStore, code: string, log: FastifyBaseLogger): Promise<Identity> {
  const { label } = PROVIDERS.github;
  const form = new URLSearchParams({
    client_id: options.string('GitHubClientId'),
    client_secret: options.string('GitHubClientSecret'),
    code,
  });
  const grant = await fetchJson(
    label,
    fixedEndpoints.github.token,
    { method: 'POST', headers: { 'Content-Type': FORM }, body: form.toString() },
    log,
  );
  const token = accessToken(label, grant);
  const user = await fetchJson(
    label,
    fixedEndpoints.github.user,
    { headers: { Authorization: `Bearer ${token}`, Accept: 'application/vnd.github+json' } },
    log,
  );
  return { id: idOf(user.id), login: text(user.login), displayName: text(user.name), email: text(user.email) };
}

export async function linuxdoIdentity(
  options: OptionStore,
  code: string,
  redirectUri: string,
  log: FastifyBaseLogger,
): Promise<Identity> {
  const { label } = PROVIDERS.linuxdo;
  const form = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri });
  const grant = await fetchJson(
    label,
    fixedEndpoints.linuxdo.token,
    {
      method: 'POST',
      headers: {
        'Content-Type': FORM,
        Authorization: basicAuth(options.string('LinuxDOClientId'), options.string('LinuxDOClientSecret')),
      },
      body: form.toString(),
    },
    log,
  );
  const token = accessToken(label, grant);
  const user = await fetchJson(label, fixedEndpoints.linuxdo.user, { headers: { Authorization: `Bearer ${token}` } }, log);
  return { id: idOf(user.id), login: text(user.username), displayName: text(user.name), email: text(user.email) };
}

/** Discord: client credentials in the form; `id` is the account, `username` its login, `global_name` its shown name. */
export async function discordIdentity(
  options: OptionStore,
  code: string,
  redirectUri: string,
  log: FastifyBaseLogger,
): Promise<Identity> {
  const { label } = PROVIDERS.discord;
  const form = new URLSearchParams({
    client_id: options.string('discord.client_id'),
    client_secret: options.string('discord.client_secret'),
    code,
    grant_type: 'authorization_code',
    redirect_uri: redirectUri,
  });
  const grant = await fetchJson(
    label,
    fixedEndpoints.discord.token,
    { method: 'POST', headers: { 'Content-Type': FORM }, body: form.toString() },
    log,
  );
  const token = accessToken(label, grant);
  const user = await fetchJson(label, fixedEndpoints.discord.user, { headers: { Authorization: `Bearer ${token}` } }, log);
  // Only an address Discord verified is kept: it would receive reset links.
  const email = user.verified === true ? text(user.email) : '';
  return { id: idOf(user.id), login: text(user.username), displayName: text(user.global_name), email };
}

export async function oidcIdentity(
  options: OptionStore,
  code: string,
  redirectUri: string,
  log: FastifyBaseLogger,
): Promise<Identity> {
  const { label } = PROVIDERS.oidc;
  const tokenEndpoint = options.string('oidc.token_endpoint');
  const userInfoEndpoint = options.string('oidc.user_info_endpoint');
  if (!tokenEndpoint || !userInfoEndpoint) throw fail('oauth.oidc_not_configured');
  const form = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri });
  const grant = await fetchJson(
    label,
    tokenEndpoint,
    {
      method: 'POST',
      headers: {
        'Content-Type': FORM,
        // client_secret_basic: the default client authentication of OpenID Connect.
        Authorization: basicAuth(options.string('oidc.client_id'), options.string('oidc.client_secret')),
      },
      body: form.toString(),
    },
    log,
  );
  const token = accessToken(label, grant);
  const user = await fetchJson(label, userInfoEndpoint, { headers: { Authorization: `Bearer ${token}` } }, log);
  // An address the provider says is unverified is not kept: it would receive reset links.
  const email = user.email_verified === false ? '' : text(user.email);
  return { id: idOf(user.sub), login: text(user.preferred_username), displayName: text(user.name), email };
}

/**
 * The wechat-server protocol: GET {address}/api/wechat/user?code= with the shared token in
 * Authorization answers `{success, message, data: openid}` (an empty id for an unknown code).
 */
export async function wechatIdentity(options: OptionStore, code: string, log: FastifyBaseLogger): Promise<Identity> {
  const { label } = PROVIDERS.wechat;
  const address = options.string('WeChatServerAddress').replace(/\/+$/, '');
  if (!address) throw fail('oauth.wechat_not_configured');
  const url = `${address}/api/wechat/user?${new URLSearchParams({ code })}`;
  const body = await fetchJson(label, url, { headers: { Authorization: options.string('WeChatServerToken') } }, log);
  if (body.success !== true) {
    // The server refused us (a wrong shared token): the admin's problem, not the person's code.
    log.warn({ provider: label, reason: text(body.message) }, 'wechat server refused the request');
    throw fail('oauth.authorization_failed', { provider: label });
  }
  const id = idOf(body.data);
  if (!id) throw fail('account.code_invalid');
  return { id, login: '', displayName: '', email: '' };
}
