/**
 * Shared set-up of the custom page tests: a page rendered inside react-admin's AdminContext (real
 * i18nProvider and authProvider) at a route, with the notifications a person would see and a probe
 * that shows where the page navigated to. The server is msw, started for the file by
 * `serveDuringTests`; `received` records what it was sent. Also the answers several pages share: the
 * site status, the signed-in user and an option store.
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { AdminContext, Notification, memoryStore, testDataProvider } from 'react-admin';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { http, HttpResponse, type JsonBodyType } from 'msw';
import type { SetupServer } from 'msw/node';
import type { SiteStatus } from '../../server/status/schemas';
import type { SelfUser } from '../../server/users/schemas';
import type { PasskeyStatus, TwoFaStatus } from '../../server/mfa/schemas';
import { i18nProvider } from '../../src/i18n';
import { authProvider } from '../../src/authProvider';
import { customMethods } from '../../src/api/customMethods';

export interface Received {
  method: string;
  path: string;
  search: string;
  body: unknown;
}

export const received: Received[] = [];

/** An msw handler that answers `{success:true, message:'', data}` and records the request. */
export function ok(method: 'get' | 'post' | 'put' | 'delete', path: string, data?: JsonBodyType, message = '') {
  return http[method](path, async ({ request }) => {
    const url = new URL(request.url);
    const text = method === 'get' ? '' : await request.text();
    received.push({
      method: method.toUpperCase(),
      path: url.pathname,
      search: url.search,
      body: text ? JSON.parse(text) : undefined,
    });
    return HttpResponse.json(data === undefined ? { success: true, message } : { success: true, message, data });
  });
}

export function sentTo(method: string, path: string): Received[] {
  return received.filter((r) => r.method === method && r.path === path);
}

/**
 * Starts `server` for the file (an unknown request fails the test); after each test drops the
 * handlers the test added and what was received.
 */
export function serveDuringTests(server: SetupServer): void {
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    server.resetHandlers();
    received.length = 0;
  });
  afterAll(() => server.close());
}

/** GET and PUT /api/option/ over the options `stored()` returns, as the gateway keeps them; a PUT is recorded and stored. */
export function optionHandlers(stored: () => Record<string, string>) {
  return [
    http.get('/api/option/', () =>
      HttpResponse.json({ success: true, message: '', data: Object.entries(stored()).map(([key, value]) => ({ key, value })) }),
    ),
    http.put('/api/option/', async ({ request }) => {
      const body = (await request.json()) as { key: string; value: string };
      received.push({ method: 'PUT', path: '/api/option/', search: '', body });
      stored()[body.key] = body.value;
      return HttpResponse.json({ success: true, message: '' });
    }),
  ];
}

/** GET /api/user/self's answer: a plain user (carol, $2 quota, nothing bound) with `overrides`. */
export function selfUser(overrides: Partial<SelfUser> = {}): SelfUser {
  return {
    id: 5,
    username: 'carol',
    display_name: 'Carol',
    role: 1,
    status: 1,
    email: '',
    github_id: '',
    oidc_id: '',
    wechat_id: '',
    telegram_id: '',
    linux_do_id: '',
    billing_preference: 'subscription_first',
    quota: 1_000_000,
    used_quota: 0,
    request_count: 0,
    group: 'default',
    aff_code: 'CAROL1',
    aff_count: 0,
    aff_quota: 0,
    aff_history_quota: 0,
    inviter_id: 0,
    setting: '',
    remark: '',
    rpd_limit: 0,
    create_time: 0,
    last_use_time: 0,
    created_at: null,
    last_login_at: null,
    discord_id: '',
    DeletedAt: null,
    has_access_token: false,
    settings: {
      notify_type: 'email',
      quota_warning_threshold: 500_000,
      webhook_url: '',
      webhook_secret_set: false,
      notification_email: '',
      accept_unset_model_ratio_model: false,
    },
    ...overrides,
  };
}

export function siteStatus(overrides: Partial<SiteStatus> = {}): SiteStatus {
  return {
    system_name: 'Test Gateway',
    logo: '',
    footer_html: '',
    quota_per_unit: 500000,
    display_in_currency: true,
    enable_drawing: false,
    enable_task: false,
    enable_data_export: false,
    chats: [],
    data_export_default_time: 'hour',
    data_export_interval: 5,
    default_collapse_sidebar: false,
    mj_notify_enabled: false,
    chat_link: '',
    docs_link: '',
    support_link: '',
    turnstile_check: false,
    turnstile_site_key: '',
    email_verification: false,
    github_oauth: false,
    github_client_id: '',
    oidc_enabled: false,
    oidc_client_id: '',
    oidc_authorization_endpoint: '',
    wechat_login: false,
    wechat_qrcode: '',
    telegram_oauth: false,
    telegram_bot_name: '',
    linuxdo_oauth: false,
    linuxdo_client_id: '',
    discord_oauth: false,
    discord_client_id: '',
    passkey_login: false,
    passkey_display_name: 'Test Gateway',
    passkey_rp_id: '',
    passkey_origins: '',
    passkey_allow_insecure: false,
    passkey_user_verification: 'preferred',
    passkey_attachment: '',
    version: 'v1.2.3',
    start_time: 0,
    self_use_mode_enabled: false,
    demo_site_enabled: false,
    server_address: '',
    top_up_link: '',
    min_topup: 1,
    enable_online_topup: false,
    setup: true,
    register_enabled: true,
    password_login_enabled: true,
    password_register_enabled: true,
    quota_display_type: 'USD',
    usd_exchange_rate: 7.3,
    price: 7.3,
    notice: '',
    user_agreement_enabled: false,
    privacy_policy_enabled: false,
    checkin_enabled: false,
    uptime_kuma_enabled: true,
    api_info_enabled: true,
    announcements_enabled: true,
    faq_enabled: true,
    ...overrides,
  };
}

function WhereAmI() {
  const location = useLocation();
  return <p>{`now at ${location.pathname}${location.search}`}</p>;
}

/** Renders `element` mounted at `path`, starting from `url` (defaults to `path`). */
export function renderPage(element: ReactElement, path: string, url: string = path) {
  return renderRoutes([[path, element]], url);
}

/** Renders several pages, each mounted at its path (in this order), starting from `url`. */
export function renderRoutes(routes: Array<[path: string, element: ReactElement]>, url: string) {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <AdminContext
        i18nProvider={i18nProvider}
        authProvider={authProvider}
        dataProvider={testDataProvider(customMethods)}
        store={memoryStore()}
      >
        <Routes>
          {routes.map(([path, element]) => (
            <Route key={path} path={path} element={element} />
          ))}
          <Route path="*" element={<WhereAmI />} />
        </Routes>
        <Notification />
      </AdminContext>
    </MemoryRouter>,
  );
}

/** The personal page's security answers: two-factor sign-in off and no passkeys, unless overridden. */
export function securityHandlers(
  twoFa: Partial<TwoFaStatus> = {},
  passkeys: PasskeyStatus = { enabled: false, last_used_at: 0, passkeys: [] },
) {
  return [
    ok('get', '/api/user/2fa/status', { enabled: false, locked: false, backup_codes_remaining: 0, ...twoFa }),
    ok('get', '/api/user/passkey', passkeys),
  ];
}
