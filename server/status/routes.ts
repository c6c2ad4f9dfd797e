import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ok } from '../http/envelope.js';
import { fail } from '../http/errors.js';
import { Envelope } from '../http/schemas.js';
import { requireRoot } from '../auth/guard.js';
import { ROLE_ROOT } from '../auth/roles.js';
import { creditUser } from '../billing/ledger.js';
import { rootUserExists } from '../users/identity-repository.js';
import { createUser } from '../users/repository.js';
import type { GatewayContext } from '../context.js';
import { SetupBody, UpdateCheck, type SetupState, type SiteStatus } from './schemas.js';
import { checkForUpdate } from './update-check.js';
import { listProviders } from '../oauth/custom/repository.js';

const SETUP_KEY = 'SetupTime';
/** The root user starts with 200 USD worth of quota at the default rate. */
const ROOT_INITIAL_QUOTA = 100_000_000;

export function isSetupDone(ctx: GatewayContext): boolean {
  return Boolean(ctx.options.internal(SETUP_KEY));
}

export function siteStatus(ctx: GatewayContext): SiteStatus {
  const o = ctx.options;
  return {
    system_name: o.string('SystemName'),
    logo: o.string('Logo'),
    footer_html: o.string('Footer'),
    quota_per_unit: o.number('QuotaPerUnit'),
    display_in_currency: o.bool('DisplayInCurrencyEnabled'),
    enable_drawing: o.bool('DrawingEnabled'),
    enable_task: o.bool('TaskEnabled'),
    enable_data_export: o.bool('DataExportEnabled'),
    chats: o.json<unknown[]>('Chats'),
    data_export_default_time: o.string('DataExportDefaultTime'),
    data_export_interval: o.number('DataExportInterval'),
    default_collapse_sidebar: o.bool('DefaultCollapseSidebar'),
    mj_notify_enabled: o.bool('MjNotifyEnabled'),
    chat_link: o.string('ChatLink'),
    docs_link: o.string('general_setting.docs_link'),
    support_link: o.string('SupportLink'),
    turnstile_check: o.bool('TurnstileCheckEnabled'),
    turnstile_site_key: o.string('TurnstileSiteKey'),
    email_verification: o.bool('EmailVerificationEnabled'),
    github_oauth: o.bool('GitHubOAuthEnabled'),
    github_client_id: o.string('GitHubClientId'),
    oidc_enabled: o.bool('oidc.enabled'),
    oidc_client_id: o.string('oidc.client_id'),
    oidc_authorization_endpoint: o.string('oidc.authorization_endpoint'),
    wechat_login: o.bool('WeChatAuthEnabled'),
    wechat_qrcode: o.string('WeChatAccountQRCodeImageURL'),
    telegram_oauth: o.bool('TelegramOAuthEnabled'),
    telegram_bot_name: o.string('TelegramBotName'),
    linuxdo_oauth: o.bool('LinuxDOOAuthEnabled'),
    linuxdo_client_id: o.string('LinuxDOClientId'),
    // Only when its login can work: switched on with both credentials saved.
    discord_oauth: o.bool('discord.enabled') && o.string('discord.client_id') !== '' && o.string('discord.client_secret') !== '',
    discord_client_id: o.string('discord.client_id'),
    passkey_login: o.bool('passkey.enabled'),
    passkey_display_name: o.string('passkey.rp_display_name') || o.string('SystemName'),
    passkey_rp_id: o.string('passkey.rp_id'),
    passkey_origins: o.string('passkey.origins'),
    passkey_allow_insecure: o.bool('passkey.allow_insecure_origin'),
    passkey_user_verification: o.string('passkey.user_verification'),
    passkey_attachment: o.string('passkey.attachment_preference'),
    version: ctx.version,
    start_time: ctx.startTime,
    self_use_mode_enabled: o.bool('SelfUseModeEnabled'),
    demo_site_enabled: o.bool('DemoSiteEnabled'),
    server_address: o.string('ServerAddress'),
    top_up_link: o.string('TopUpLink'),
    min_topup: o.number('MinTopUp'),
    enable_online_topup: o.string('PayAddress') !== '' && o.string('EpayId') !== '' && o.string('EpayKey') !== '',
    setup: isSetupDone(ctx),
    register_enabled: o.bool('RegisterEnabled'),
    password_login_enabled: o.bool('PasswordLoginEnabled'),
    password_register_enabled: o.bool('PasswordRegisterEnabled'),
    quota_display_type: o.bool('DisplayInCurrencyEnabled') ? 'USD' : 'TOKENS',
    usd_exchange_rate: o.number('Price'),
    price: o.number('Price'),
    notice: o.string('Notice'),
    user_agreement_enabled: o.string('legal.user_agreement').trim() !== '',
    privacy_policy_enabled: o.string('legal.privacy_policy').trim() !== '',
    checkin_enabled: o.bool('checkin_setting.enabled'),
    uptime_kuma_enabled: o.bool('console_setting.uptime_kuma_enabled'),
    api_info_enabled: o.bool('console_setting.api_info_enabled'),
    announcements_enabled: o.bool('console_setting.announcements_enabled'),
    faq_enabled: o.bool('console_setting.faq_enabled'),
  };
}

export default async function statusRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = app.ctx;

  app.get('/api/status', async () => {
    // The family's console draws a button for each; the key is absent when none is enabled.
    const custom = (await listProviders(ctx.db, true)).map(
      ({ id, name, slug, icon, kind, client_id, authorization_endpoint, scopes }) => ({
        id,
        name,
        slug,
        icon,
        kind,
        client_id,
        authorization_endpoint,
        scopes,
      }),
    );
    return ok({ ...siteStatus(ctx), ...(custom.length > 0 ? { custom_oauth_providers: custom } : {}) });
  });

  app.get('/api/notice', async () => ok(ctx.options.string('Notice')));
  app.get('/api/about', async () => ok(ctx.options.string('About')));
  app.get('/api/home_page_content', async () => ok(ctx.options.string('HomePageContent')));
  // The legal pages of the family's console, as the root wrote them (active HTML is refused on save).
  app.get('/api/user-agreement', async () => ok(ctx.options.string('legal.user_agreement')));
  app.get('/api/privacy-policy', async () => ok(ctx.options.string('legal.privacy_policy')));

  app.get('/api/status/update', { onRequest: requireRoot, schema: { response: { 200: Envelope(UpdateCheck) } } }, async () =>
    ok(await checkForUpdate(ctx.options.string('UpdateCheckUrl'), ctx.version)),
  );

  app.get('/api/setup', async () => {
    const state: SetupState = { status: isSetupDone(ctx), root_init: await rootUserExists(ctx.db), database_type: ctx.dbKind };
    return ok(state);
  });

  // Setup runs once: the first call to insert the SetupTime row (in the transaction that creates
  // the root user) wins; any concurrent call, on this process or another, is refused.
  app.post('/api/setup', { schema: { body: SetupBody } }, async (request) => {
    if (isSetupDone(ctx)) throw fail('setup.done');
    const body = request.body;
    const createRoot = !(await rootUserExists(ctx.db));
    const username = (body.username ?? '').trim();
    const password = body.password ?? '';
    if (createRoot) {
      if (!username) throw fail('setup.username_required');
      if (username.length > 12) throw fail('setup.username_too_long', { max: 12 });
      if (password.length < 8) throw fail('setup.password_too_short', { min: 8 });
      if (password !== (body.confirmPassword ?? '')) throw fail('setup.passwords_differ');
    }
    const setupTime = String(Math.floor(Date.now() / 1000));
    await ctx.db.transaction().execute(async (trx) => {
      if (!(await ctx.options.claimInternal(trx, SETUP_KEY, setupTime))) throw fail('setup.done');
      if (!createRoot) return;
      const id = await createUser(trx, ctx.dbKind, { username, password, display_name: 'Root User', role: ROLE_ROOT });
      await creditUser(trx, id, ROOT_INITIAL_QUOTA);
    });
    // Links in e-mails (password reset) use ServerAddress; until the admin sets one, take the
    // address the admin reached the setup wizard at, never a later caller's Host header.
    if (!ctx.options.string('ServerAddress')) {
      const origin = `${request.protocol}://${request.host}`;
      await ctx.options.set('ServerAddress', origin);
    }
    await ctx.options.set('SelfUseModeEnabled', String(body.SelfUseModeEnabled === true));
    await ctx.options.set('DemoSiteEnabled', String(body.DemoSiteEnabled === true));
    await ctx.options.setInternal(SETUP_KEY, setupTime);
    return ok(undefined, '系统初始化完成');
  });
}
