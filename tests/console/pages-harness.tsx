/**
 * Shared set-up of the custom page tests: a page rendered inside react-admin's AdminContext (real
 * i18nProvider and authProvider) at a route, with the notifications a person would see and a probe
 * that shows where the page navigated to. The server is msw; `received` records what it was sent.
 */
import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { AdminContext, Notification, memoryStore, testDataProvider } from 'react-admin';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { http, HttpResponse, type JsonBodyType } from 'msw';
import type { SiteStatus } from '../../server/status/schemas';
import { i18nProvider } from '../../src/i18n';
import { authProvider } from '../../src/authProvider';

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
    default_collapse_sidebar: false,
    mj_notify_enabled: false,
    chat_link: '',
    docs_link: '',
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
    ...overrides,
  };
}

function WhereAmI() {
  const location = useLocation();
  return <p>{`now at ${location.pathname}${location.search}`}</p>;
}

/** Renders `element` mounted at `path`, starting from `url` (defaults to `path`). */
export function renderPage(element: ReactElement, path: string, url: string = path) {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <AdminContext
        i18nProvider={i18nProvider}
        authProvider={authProvider}
        dataProvider={testDataProvider()}
        store={memoryStore()}
      >
        <Routes>
          <Route path={path} element={element} />
          <Route path="*" element={<WhereAmI />} />
        </Routes>
        <Notification />
      </AdminContext>
    </MemoryRouter>,
  );
}
