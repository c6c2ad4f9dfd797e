import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { requireRoot } from '../auth/guard.js';
import { ok } from '../http/envelope.js';
import { fail } from '../http/errors.js';
import { OPTION_REGISTRY, isOptionKey, validateOptionValue, type OptionKey } from './registry.js';
import type { OptionStore } from './store.js';

const PRICE_KEYS = ['ModelRatio', 'CompletionRatio', 'CacheRatio', 'ModelPrice'] as const;
const URL_KEYS = new Set<OptionKey>(['ServerAddress', 'WorkerUrl', 'PayAddress']);

const PutOptionBody = Type.Object({
  key: Type.String({ minLength: 1, maxLength: 128 }),
  value: Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]),
});

/** Rules that tie an option to others: enabling a feature needs its settings first. */
function crossCheck(options: OptionStore, key: OptionKey, value: string): string | null {
  if (value !== 'true') return null;
  switch (key) {
    case 'GitHubOAuthEnabled':
      return options.string('GitHubClientId')
        ? null
        : '无法启用 GitHub OAuth，请先填入 GitHub Client Id 以及 GitHub Client Secret！';
    case 'oidc.enabled':
      return options.string('oidc.client_id') ? null : '无法启用 OIDC 登录，请先填入 OIDC Client Id 以及 OIDC Client Secret！';
    case 'LinuxDOOAuthEnabled':
      return options.string('LinuxDOClientId')
        ? null
        : '无法启用 LinuxDO OAuth，请先填入 LinuxDO Client Id 以及 LinuxDO Client Secret！';
    case 'EmailDomainRestrictionEnabled':
      return options.string('EmailDomainWhitelist') ? null : '无法启用邮箱域名限制，请先填入限制的邮箱域名！';
    case 'WeChatAuthEnabled':
      return options.string('WeChatServerAddress') ? null : '无法启用微信登录，请先填入微信登录相关配置信息！';
    case 'TurnstileCheckEnabled':
      return options.string('TurnstileSiteKey') ? null : '无法启用 Turnstile 校验，请先填入 Turnstile 校验相关配置信息！';
    case 'TelegramOAuthEnabled':
      return options.string('TelegramBotToken') ? null : '无法启用 Telegram OAuth，请先填入 Telegram Bot Token！';
    case 'EmailVerificationEnabled':
      return options.string('SMTPServer') ? null : '无法启用邮箱验证，请先填入 SMTP 服务器配置！';
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

  app.put('/api/option/', { onRequest: requireRoot, schema: { body: PutOptionBody } }, async (request) => {
    const { key } = request.body;
    if (!isOptionKey(key)) throw fail(`未知的配置项：${key}`);
    let value = request.body.value === null ? '' : String(request.body.value);
    if (URL_KEYS.has(key)) value = value.trim().replace(/\/+$/, '');
    const invalid = validateOptionValue(key, value) ?? crossCheck(options, key, value);
    if (invalid) throw fail(invalid);
    await options.set(key, value);
    return ok();
  });

  app.post('/api/option/rest_model_ratio', { onRequest: requireRoot }, async () => {
    for (const key of PRICE_KEYS) await options.set(key, OPTION_REGISTRY[key].default);
    return ok(undefined, '重置模型倍率成功');
  });
}
