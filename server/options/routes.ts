import type { RefusalCode } from '../http/refusals.js';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { requireRoot } from '../auth/guard.js';
import { ok } from '../http/envelope.js';
import { fail } from '../http/errors.js';
import { OPTION_REGISTRY, isOptionKey, validateOptionValue, type OptionKey } from './registry.js';
import type { OptionStore } from './store.js';
import { fromBody } from '../audit/targets.js';

const PRICE_KEYS = ['ModelRatio', 'CompletionRatio', 'CacheRatio', 'ModelPrice'] as const;
const URL_KEYS = new Set<OptionKey>(['ServerAddress', 'WorkerUrl', 'PayAddress', 'UpdateCheckUrl']);
/** Links the console puts in an href: only web addresses (a `javascript:` one would run in the reader's session). */
const LINK_KEYS = new Set<OptionKey>(['SupportLink', 'general_setting.docs_link']);
const isWebLink = (value: string) => value === '' || /^https?:\/\/[^\s"'<>]+$/i.test(value);

/**
 * `value` absent or null is "" (consoles send that for a field that was emptied); only a text option
 * may be empty, any other type refuses it by name.
 */
const PutOptionBody = Type.Object({
  key: Type.String({ minLength: 1, maxLength: 128 }),
  // Checked by the route: in a union Ajv's coercion turns null into "" (string branch) or 0 and
  // false into null (null branch), and the three are different requests here.
  value: Type.Optional(Type.Unknown()),
});

/** The option's text from what was sent: null for no value, undefined for a value of no option type. */
function valueText(value: unknown): string | null | undefined {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) return String(value);
  return undefined;
}

/** Rules that tie an option to others: enabling a feature needs its settings first. */
function crossCheck(options: OptionStore, key: OptionKey, value: string): RefusalCode | null {
  if (value !== 'true') return null;
  switch (key) {
    case 'GitHubOAuthEnabled':
      return options.string('GitHubClientId') ? null : 'option.github_incomplete';
    case 'oidc.enabled':
      return options.string('oidc.client_id') ? null : 'option.oidc_incomplete';
    case 'LinuxDOOAuthEnabled':
      return options.string('LinuxDOClientId') ? null : 'option.linuxdo_incomplete';
    case 'EmailDomainRestrictionEnabled':
      return options.string('EmailDomainWhitelist') ? null : 'option.domain_list_empty';
    case 'WeChatAuthEnabled':
      return options.string('WeChatServerAddress') ? null : 'option.wechat_incomplete';
    case 'TurnstileCheckEnabled':
      return options.string('TurnstileSiteKey') ? null : 'option.turnstile_incomplete';
    case 'discord.enabled':
      return options.string('discord.client_id') ? null : 'option.discord_incomplete';
    case 'TelegramOAuthEnabled':
      return options.string('TelegramBotToken') ? null : 'option.telegram_incomplete';
    case 'EmailVerificationEnabled':
      return options.string('SMTPServer') ? null : 'option.smtp_incomplete';
    default:
      return null;
  }
}

export default async function optionRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const options = app.ctx.options;

  app.get('/api/option/', { onRequest: requireRoot }, async () => {
    const data = options
      .entries()
      .filter(([key]) => !('secret' in OPTION_REGISTRY[key]))
      .map(([key, value]) => ({ key, value }));
    return ok(data);
  });

  const audit = { subject: 'option', action: 'update', target: fromBody('key') } as const;
  app.put('/api/option/', { onRequest: requireRoot, schema: { body: PutOptionBody }, config: { audit } }, async (request) => {
    const { key } = request.body;
    if (!isOptionKey(key)) throw fail('option.unknown', { key });
    const given = valueText(request.body.value);
    if (given === undefined) throw fail('request.invalid_params', { detail: 'body/value must be a string, number or boolean' });
    if (given === null && OPTION_REGISTRY[key].type !== 'string') throw fail('option.value_required', { key });
    let value = given ?? '';
    if (URL_KEYS.has(key)) value = value.trim().replace(/\/+$/, '');
    if (LINK_KEYS.has(key)) {
      value = value.trim();
      if (!isWebLink(value)) throw fail('option.not_link', { key });
    }
    const invalid = validateOptionValue(key, value);
    if (invalid) throw fail(invalid.code, { key, ...invalid.params });
    const missing = crossCheck(options, key, value);
    if (missing) throw fail(missing, { key });
    await options.set(key, value);
    return ok();
  });

  const reset = { subject: 'option', action: 'reset_ratios', target: () => [...PRICE_KEYS] } as const;
  app.post('/api/option/rest_model_ratio', { onRequest: requireRoot, config: { audit: reset } }, async () => {
    for (const key of PRICE_KEYS) await options.set(key, OPTION_REGISTRY[key].default);
    return ok(undefined, '重置模型倍率成功');
  });
}
