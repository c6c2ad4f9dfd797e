/**
 * A custom provider's settings as the family's console sends and reads them: the body of create
 * and edit, the checks a setting must pass before anything is written, and the answer (the client
 * secret never leaves the server). Features of the family's providers this gateway does not run —
 * CAS-style tickets, userinfo identity for JWTs, access policies, group and role mapping, merging
 * by e-mail, syncing on login — are refused by name when set, never saved and ignored.
 */
import { isIP } from 'node:net';
import { createPublicKey } from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import type { CustomOauthProvider } from '../../db/types.js';
import { fail } from '../../http/errors.js';
import type { ProviderFields } from './repository.js';

export const KINDS = ['oauth_code', 'jwt_direct', 'trusted_header'] as const;
export type ProviderKind = (typeof KINDS)[number];
/** Paths under /api/oauth/ served by fixed routes, and the built-in providers' names. */
const RESERVED_SLUGS = new Set(['github', 'oidc', 'linuxdo', 'wechat', 'telegram', 'discord', 'state', 'email']);

const str = (max: number) => Type.Optional(Type.String({ maxLength: max }));
const bool = () => Type.Optional(Type.Boolean());

export const ProviderBody = Type.Object({
  name: str(64),
  slug: str(64),
  icon: str(128),
  kind: str(32),
  enabled: bool(),
  client_id: str(256),
  client_secret: str(512),
  authorization_endpoint: str(512),
  token_endpoint: str(512),
  user_info_endpoint: str(512),
  scopes: str(256),
  issuer: str(512),
  audience: str(256),
  jwks_url: str(512),
  public_key: str(16384),
  jwt_source: str(32),
  jwt_header: str(128),
  jwt_identity_mode: str(32),
  jwt_acquire_mode: str(32),
  trusted_proxy_cidrs: str(4096),
  external_id_header: str(128),
  username_header: str(128),
  display_name_header: str(128),
  email_header: str(128),
  group_header: str(128),
  role_header: str(128),
  authorization_service_field: str(64),
  ticket_exchange_url: str(512),
  ticket_exchange_method: str(16),
  ticket_exchange_payload_mode: str(16),
  ticket_exchange_ticket_field: str(64),
  ticket_exchange_token_field: str(128),
  ticket_exchange_service_field: str(64),
  ticket_exchange_extra_params: str(4096),
  ticket_exchange_headers: str(4096),
  user_id_field: str(128),
  username_field: str(128),
  display_name_field: str(128),
  email_field: str(128),
  group_field: str(128),
  role_field: str(128),
  group_mapping: str(4096),
  role_mapping: str(4096),
  auto_register: bool(),
  auto_merge_by_email: bool(),
  sync_username_on_login: bool(),
  sync_display_name_on_login: bool(),
  sync_email_on_login: bool(),
  sync_group_on_login: bool(),
  sync_role_on_login: bool(),
  group_mapping_mode: str(32),
  role_mapping_mode: str(32),
  well_known: str(512),
  auth_style: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 })),
  access_policy: str(8192),
  access_denied_message: str(512),
});
export type ProviderBody = Static<typeof ProviderBody>;

/** Unsupported settings and the values that mean "not used" (the console's defaults). */
const UNSUPPORTED: Partial<Record<keyof ProviderBody, ReadonlyArray<string | boolean>>> = {
  jwt_acquire_mode: ['', 'direct_token'],
  jwt_identity_mode: ['', 'claims'],
  group_header: [''],
  role_header: [''],
  authorization_service_field: ['', 'service'],
  ticket_exchange_url: [''],
  ticket_exchange_method: ['', 'GET'],
  ticket_exchange_payload_mode: ['', 'query'],
  ticket_exchange_ticket_field: ['', 'ticket'],
  ticket_exchange_token_field: [''],
  ticket_exchange_service_field: [''],
  ticket_exchange_extra_params: ['', '{}'],
  ticket_exchange_headers: ['', '{}'],
  group_field: [''],
  role_field: [''],
  group_mapping: ['', '{}'],
  role_mapping: ['', '{}'],
  auto_merge_by_email: [false],
  sync_username_on_login: [false],
  sync_display_name_on_login: [false],
  sync_email_on_login: [false],
  sync_group_on_login: [false],
  sync_role_on_login: [false],
  group_mapping_mode: ['', 'explicit_only'],
  role_mapping_mode: ['', 'explicit_only'],
  access_policy: [''],
  access_denied_message: [''],
};

const invalid = (detail: string) => fail('custom_oauth.invalid', { detail });

function checkUrl(field: string, value: string): void {
  if (value === '') return;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(`${field} 不是合法的地址`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid(`${field} 必须是 http(s) 地址`);
}

/** `a.b.0.c`: where an identity field sits in a JSON answer or a token's claims. */
const FIELD_PATH = /^[\w-]+(\.[\w-]+)*$/;

/** The trusted proxies, one address or CIDR each; refused when one is not. */
export function parseCidrs(raw: string): string[] {
  let list: unknown;
  try {
    list = JSON.parse(raw);
  } catch {
    throw invalid('trusted_proxy_cidrs 必须是 JSON 数组');
  }
  if (!Array.isArray(list) || list.length === 0 || list.length > 64) throw invalid('trusted_proxy_cidrs 必须是非空 JSON 数组');
  return list.map((item) => {
    const text = typeof item === 'string' ? item.trim() : '';
    const [address = '', prefix, extra] = text.split('/');
    const family = isIP(address);
    const max = family === 6 ? 128 : 32;
    const ok =
      family !== 0 && extra === undefined && (prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= max));
    if (!ok) throw invalid(`trusted_proxy_cidrs 中的 ${JSON.stringify(item)} 不是 IP 或 CIDR`);
    return text;
  });
}

function trimmed(body: ProviderBody, existing: CustomOauthProvider | undefined, field: keyof ProviderFields): string {
  const value = (body as Record<string, unknown>)[field];
  if (typeof value === 'string') return value.trim();
  const old = existing?.[field as keyof CustomOauthProvider];
  return typeof old === 'string' ? old : '';
}

/**
 * The stored fields after `body` (a create, or an edit of `existing`: absent fields keep their
 * value, and an empty client secret keeps the saved one, which the console never sees).
 */
export function resolveFields(body: ProviderBody, existing?: CustomOauthProvider): ProviderFields {
  for (const [field, allowed] of Object.entries(UNSUPPORTED)) {
    const value = (body as Record<string, unknown>)[field];
    const normal = typeof value === 'string' ? value.trim() : value;
    if (normal !== undefined && !allowed.includes(normal as string | boolean)) throw fail('custom_oauth.unsupported', { field });
  }
  const t = (field: keyof ProviderFields) => trimmed(body, existing, field);
  const name = t('name');
  const slug = t('slug').toLowerCase();
  if (!name) throw invalid('name 不能为空');
  if (!/^[a-z0-9-]+$/.test(slug)) throw invalid('slug 只能包含小写字母、数字和连字符');
  if (RESERVED_SLUGS.has(slug)) throw fail('custom_oauth.slug_reserved');
  const kind = (t('kind') || 'oauth_code') as ProviderKind;
  if (!KINDS.includes(kind)) throw invalid(`kind 必须是 ${KINDS.join(' / ')} 之一`);

  const fields: ProviderFields = {
    name,
    slug,
    kind,
    icon: t('icon'),
    enabled: (body.enabled ?? Boolean(existing?.enabled)) ? 1 : 0,
    client_id: t('client_id'),
    client_secret: body.client_secret?.trim() || existing?.client_secret || '',
    authorization_endpoint: t('authorization_endpoint'),
    token_endpoint: t('token_endpoint'),
    user_info_endpoint: t('user_info_endpoint'),
    scopes: t('scopes'),
    issuer: t('issuer'),
    audience: t('audience'),
    jwks_url: t('jwks_url'),
    public_key: t('public_key'),
    jwt_source: t('jwt_source') || 'query',
    jwt_header: t('jwt_header'),
    trusted_proxy_cidrs: t('trusted_proxy_cidrs'),
    external_id_header: t('external_id_header'),
    username_header: t('username_header'),
    display_name_header: t('display_name_header'),
    email_header: t('email_header'),
    user_id_field: t('user_id_field') || 'sub',
    username_field: t('username_field') || 'preferred_username',
    display_name_field: t('display_name_field') || 'name',
    email_field: t('email_field') || 'email',
    well_known: t('well_known'),
    auth_style: body.auth_style ?? existing?.auth_style ?? 0,
    auto_register: (body.auto_register ?? Boolean(existing?.auto_register)) ? 1 : 0,
  };
  for (const field of ['authorization_endpoint', 'token_endpoint', 'user_info_endpoint', 'jwks_url', 'well_known'] as const)
    checkUrl(field, fields[field] ?? '');
  for (const field of ['user_id_field', 'username_field', 'display_name_field', 'email_field'] as const)
    if (!FIELD_PATH.test(fields[field] ?? '')) throw invalid(`${field} 不是合法的字段路径`);
  if (!['query', 'fragment', 'body'].includes(fields.jwt_source ?? ''))
    throw invalid('jwt_source 必须是 query / fragment / body 之一');

  if (kind === 'oauth_code') {
    for (const field of ['client_id', 'authorization_endpoint', 'token_endpoint', 'user_info_endpoint'] as const)
      if (!fields[field]) throw invalid(`${field} 不能为空`);
  } else if (kind === 'jwt_direct') {
    if (!fields.jwks_url && !fields.public_key) throw invalid('jwks_url 与 public_key 至少填写一项');
    if (fields.public_key) {
      try {
        createPublicKey(fields.public_key);
      } catch {
        throw invalid('public_key 不是合法的 PEM 公钥');
      }
    }
  } else {
    if (!fields.external_id_header) throw invalid('external_id_header 不能为空');
    parseCidrs(fields.trusted_proxy_cidrs ?? '');
  }
  return fields;
}

/** The provider as the console reads it: every field but the client secret. */
export function providerAnswer(p: CustomOauthProvider) {
  return {
    id: p.id,
    name: p.name,
    slug: p.slug,
    icon: p.icon,
    kind: p.kind,
    enabled: p.enabled === 1,
    client_id: p.client_id,
    authorization_endpoint: p.authorization_endpoint,
    token_endpoint: p.token_endpoint,
    user_info_endpoint: p.user_info_endpoint,
    scopes: p.scopes,
    issuer: p.issuer,
    audience: p.audience,
    jwks_url: p.jwks_url,
    public_key: p.public_key ?? '',
    jwt_source: p.jwt_source,
    jwt_header: p.jwt_header,
    jwt_identity_mode: 'claims',
    jwt_acquire_mode: 'direct_token',
    trusted_proxy_cidrs: p.trusted_proxy_cidrs ?? '',
    external_id_header: p.external_id_header,
    username_header: p.username_header,
    display_name_header: p.display_name_header,
    email_header: p.email_header,
    group_header: '',
    role_header: '',
    authorization_service_field: 'service',
    ticket_exchange_url: '',
    ticket_exchange_method: 'GET',
    ticket_exchange_payload_mode: 'query',
    ticket_exchange_ticket_field: 'ticket',
    ticket_exchange_token_field: '',
    ticket_exchange_service_field: '',
    user_id_field: p.user_id_field,
    username_field: p.username_field,
    display_name_field: p.display_name_field,
    email_field: p.email_field,
    group_field: '',
    role_field: '',
    group_mapping: '',
    role_mapping: '',
    auto_register: p.auto_register === 1,
    auto_merge_by_email: false,
    sync_group_on_login: false,
    sync_role_on_login: false,
    group_mapping_mode: 'explicit_only',
    role_mapping_mode: 'explicit_only',
    well_known: p.well_known,
    auth_style: p.auth_style,
    access_policy: '',
    access_denied_message: '',
  };
}
